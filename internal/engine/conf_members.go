package engine

import "github.com/confer-platform/confer/internal/record"

// The creation members other modules read of a conference, read as
// record.Str and record.Int read the document (a string member stored as
// a number reads as its text, a number stored as a string as its value,
// anything else as "" or 0). They read Conference.Doc, the decoded map,
// until it becomes a ConfDoc (confdoc.go); then they read its fields and
// its kept members, and their callers do not change.

// Name is the conference's name (name).
func (c Conference) Name() string { return record.Str(c.Doc, "name") }

// MeetingID is the conference's unique id (meeting_id).
func (c Conference) MeetingID() string { return record.Str(c.Doc, "meeting_id") }

// Password is the conference's password (password), "" for none.
func (c Conference) Password() string { return record.Str(c.Doc, "password") }

// EndTimeText is the end time as stored (end_time, ISO 8601; "" for a
// permanent conference).
func (c Conference) EndTimeText() string { return record.Str(c.Doc, "end_time") }

// Bitrate is the conference's bitrate (bitrate, kbit/s).
func (c Conference) Bitrate() int { return record.Int(c.Doc, "bitrate") }

// ConfType is the conference's type (conf_type: 0 traditional, 1 port,
// 2 forwarding, 3 mixed).
func (c Conference) ConfType() int { return record.Int(c.Doc, "conf_type") }

// ClosedConf is the do-not-disturb flag (closed_conf: 1 on).
func (c Conference) ClosedConf() int { return record.Int(c.Doc, "closed_conf") }

// MixEnable and VMPEnable are the flags of a running mix and picture
// composition (mix_enable, vmp_enable: 1 on).
func (c Conference) MixEnable() int { return record.Int(c.Doc, "mix_enable") }

// VMPEnable: see MixEnable.
func (c Conference) VMPEnable() int { return record.Int(c.Doc, "vmp_enable") }
