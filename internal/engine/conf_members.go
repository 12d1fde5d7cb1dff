package engine

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
)

// The members of a conference document other modules and the engine read
// or write, as fields of Conference.Doc (a ConfDoc). A reader takes the
// member's field when it is set; else the member's kept JSON in
// Doc.Extra (a member of a form its field does not hold, or one no field
// declares), read as record.Str and record.Int read the map document (a
// string member stored as a number reads as its text, a number stored as
// a string as its value, anything else as "" or 0). A setter writes the
// member in the form the server writes it (a string, an integer) into its
// field and drops the kept copy, as record.SetKept does; a member no
// field declares is kept in Extra as the JSON the map document wrote.

// keptValue is a kept member's JSON decoded as the map document held it
// (a number as json.Number), nil when absent.
func keptValue(raw json.RawMessage) any {
	switch {
	case len(raw) == 0:
		return nil
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return json.Number(raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// keptStr reads a kept member as record.Str does.
func keptStr(raw json.RawMessage) string {
	switch x := keptValue(raw).(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

// keptInt reads a kept member as record.Int does.
func keptInt(raw json.RawMessage) int { n, _ := record.IntOK(keptValue(raw)); return n }

// text reads a string member: its field when set, else its kept JSON.
func text(f model.Opt[string], extra map[string]json.RawMessage, name string) string {
	if f.Set {
		return f.Value
	}
	return keptStr(extra[name])
}

// integer reads an integer member: its field when set, else its kept JSON.
func integer(f model.Opt[int], extra map[string]json.RawMessage, name string) int {
	if f.Set {
		return f.Value
	}
	return keptInt(extra[name])
}

// callInt reads a call setting as the engine always read them (num): a
// JSON integer, 0 for anything else (a string, a fraction).
func callInt(f model.Opt[int], extra map[string]json.RawMessage, name string) int {
	if f.Set {
		return f.Value
	}
	return num(keptValue(extra[name]))
}

// stringMember reads a member stored as a JSON string, "" for anything
// else.
func stringMember(f model.Opt[string], extra map[string]json.RawMessage, name string) (string, bool) {
	if f.Set {
		return f.Value, true
	}
	s, ok := keptValue(extra[name]).(string)
	return s, ok
}

// heldString is v as the stored document holds it once written: JSON
// writes each byte of invalid UTF-8 as U+FFFD, as the conversion to runes
// reads it.
func heldString(v string) string {
	if utf8.ValidString(v) {
		return v
	}
	return string([]rune(v))
}

// setStr writes a string member into its field, the kept copy dropped.
func (c *Conference) setStr(f *model.Opt[string], name, v string) {
	*f = model.Some(heldString(v))
	delete(c.Doc.Extra, name)
}

// setInt writes an integer member into its field, the kept copy dropped.
func (c *Conference) setInt(f *model.Opt[int], name string, v int) {
	*f = model.Some(v)
	delete(c.Doc.Extra, name)
}

// keep writes a member no field declares, as its JSON (canonical: an
// integer, or a string of valid UTF-8 as json.Marshal writes it).
func (c *Conference) keep(name string, raw json.RawMessage) {
	if c.Doc.Extra == nil {
		c.Doc.Extra = make(map[string]json.RawMessage)
	}
	c.Doc.Extra[name] = raw
}

// keepInt and keepStr write a member no field declares.
func (c *Conference) keepInt(name string, v int) { c.keep(name, strconv.AppendInt(nil, int64(v), 10)) }

// keepStr: see keepInt.
func (c *Conference) keepStr(name, v string) {
	raw, err := json.Marshal(heldString(v))
	if err != nil {
		panic(err) // a string always encodes
	}
	c.keep(name, raw)
}

// The generic access by name below stays for the members read or written
// whole by a name from a table (vc's creation features: mix, vmp, poll,
// recorder) or of a structured form (vips, creator, video_formats, a name
// of another form kept in a program): record.KeptMember and
// record.SetKept find the field of the name by its JSON tag.

// memberJSON is a member's JSON (false when absent).
func (c Conference) memberJSON(name string) (json.RawMessage, bool) {
	return record.KeptMember(&c.Doc, c.Doc.Extra, name)
}

// setMember writes a member (v as its JSON: a value record.Stored made).
func (c *Conference) setMember(name string, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only server-built values are written
	}
	if c.Doc.Extra, err = record.SetKept(&c.Doc, c.Doc.Extra, name, raw); err != nil {
		panic(err)
	}
}

// Member decodes a member of the document (a creation setting such as
// mix, vmp, poll, recorder, speaker, chairman, vips, creator) into v, a
// pointer, as record.Member does: false when it is absent or of another
// form than v.
func (c Conference) Member(name string, v any) bool {
	raw, ok := c.memberJSON(name)
	return ok && string(raw) != "null" && json.Unmarshal(raw, v) == nil
}

// MemberJSON is a member's JSON as the stored document holds it, "null"
// when absent: for a value kept in the form it has (a conference name
// that is not a string, recorded in a program).
func (c Conference) MemberJSON(name string) json.RawMessage {
	raw, ok := c.memberJSON(name)
	if !ok {
		return json.RawMessage("null")
	}
	if b, err := record.Canonical(raw); err == nil {
		return b
	}
	return raw
}

// ObjectSet tells whether a member is a non-empty object (a creation
// setting that asks for a feature).
func (c Conference) ObjectSet(name string) bool {
	var o map[string]json.RawMessage
	return c.Member(name, &o) && len(o) > 0
}

// Document is the document's members, the server's own ones left out,
// decoded as shape.Decode decodes them: for the API edge, which projects
// it into a reply (shape.Project): the map the wire edge reads, made from
// the document's JSON; nil when the document does not encode.
func (c Conference) Document() map[string]any {
	data, err := c.Doc.encode()
	if err != nil {
		return nil
	}
	m, err := shape.Decode(data)
	if err != nil {
		return nil
	}
	return m
}

// Name is the conference's name (name).
func (c Conference) Name() string { return text(c.Doc.Name, c.Doc.Extra, "name") }

// NameString is the name when it is stored as a string.
func (c Conference) NameString() (string, bool) { return stringMember(c.Doc.Name, c.Doc.Extra, "name") }

// nameString and startTimeString are name and start_time when stored as
// strings, "" otherwise.
func (c Conference) nameString() string { s, _ := c.NameString(); return s }

// startTimeString: see nameString.
func (c Conference) startTimeString() string {
	s, _ := stringMember(c.Doc.StartTime, c.Doc.Extra, "start_time")
	return s
}

// StartPending is the mark of a start whose follow-up is not done
// (DocStartPending, start_pending.go), "" when none.
func (c Conference) StartPending() string { return keptStr(c.Doc.Extra[DocStartPending]) }

// setStartPending sets the mark ("" removes it).
func (c *Conference) setStartPending(mark string) {
	if mark == "" {
		delete(c.Doc.Extra, DocStartPending)
		return
	}
	c.keepStr(DocStartPending, mark)
}

// MeetingID is the conference's unique id (meeting_id).
func (c Conference) MeetingID() string { return text(c.Doc.MeetingID, c.Doc.Extra, "meeting_id") }

// Password is the conference's password (password), "" for none.
func (c Conference) Password() string { return text(c.Doc.Password, c.Doc.Extra, "password") }

// EndTimeText is the end time as stored (end_time, ISO 8601; "" for a
// permanent conference).
func (c Conference) EndTimeText() string { return text(c.Doc.EndTime, c.Doc.Extra, "end_time") }

// StartTimeText is the start time as stored (start_time, ISO 8601).
func (c Conference) StartTimeText() string { return text(c.Doc.StartTime, c.Doc.Extra, "start_time") }

// UserDomainName is the name of the conference's domain (user_domain_name).
func (c Conference) UserDomainName() string {
	return text(c.Doc.UserDomainName, c.Doc.Extra, "user_domain_name")
}

// Bitrate is the conference's bitrate (bitrate, kbit/s).
func (c Conference) Bitrate() int { return integer(c.Doc.Bitrate, c.Doc.Extra, "bitrate") }

// ConfType is the conference's type (conf_type: 0 traditional, 1 port,
// 2 forwarding, 3 mixed).
func (c Conference) ConfType() int { return integer(c.Doc.ConfType, c.Doc.Extra, "conf_type") }

// ClosedConf is the do-not-disturb flag (closed_conf: 1 on).
func (c Conference) ClosedConf() int { return integer(c.Doc.ClosedConf, c.Doc.Extra, "closed_conf") }

// MixEnable and VMPEnable are the flags of a running mix and picture
// composition (mix_enable, vmp_enable: 1 on).
func (c Conference) MixEnable() int { return integer(c.Doc.MixEnable, c.Doc.Extra, "mix_enable") }

// VMPEnable: see MixEnable.
func (c Conference) VMPEnable() int { return integer(c.Doc.VMPEnable, c.Doc.Extra, "vmp_enable") }

// Duration is the conference's length in minutes (duration; 0 permanent).
func (c Conference) Duration() int { return integer(c.Doc.Duration, c.Doc.Extra, "duration") }

// DualMode is who may send the dual stream (dual_mode: 0 the speaker, 1
// any terminal, 2 designated terminals).
func (c Conference) DualMode() int { return integer(c.Doc.DualMode, c.Doc.Extra, "dual_mode") }

// AutoEnd is whether the conference ends when its last terminal leaves
// (auto_end: 1 on).
func (c Conference) AutoEnd() int { return integer(c.Doc.AutoEnd, c.Doc.Extra, "auto_end") }

// VoiceActivityDetection is voice activation (voice_activity_detection:
// 1 on), Vacinterval its interval in seconds (vacinterval).
func (c Conference) VoiceActivityDetection() int {
	return integer(c.Doc.VoiceActivityDetection, c.Doc.Extra, "voice_activity_detection")
}

// Vacinterval: see VoiceActivityDetection.
func (c Conference) Vacinterval() int { return integer(c.Doc.Vacinterval, c.Doc.Extra, "vacinterval") }

// MuteFilter spares the speaker and chairman from a mute of all (1 on).
func (c Conference) MuteFilter() int { return integer(c.Doc.MuteFilter, c.Doc.Extra, "mute_filter") }

// Mute and Silence are the conference's mute and silence of all (1 on).
func (c Conference) Mute() int { return integer(c.Doc.Mute, c.Doc.Extra, "mute") }

// Silence: see Mute.
func (c Conference) Silence() int { return integer(c.Doc.Silence, c.Doc.Extra, "silence") }

// ForceBroadcast is the forced broadcast (force_broadcast: 1 on).
func (c Conference) ForceBroadcast() int { return keptInt(c.Doc.Extra["force_broadcast"]) }

// PreoccupyResource is whether the conference holds its ports while it is
// booked (preoccupy_resource: 1 on).
func (c Conference) PreoccupyResource() int {
	return integer(c.Doc.PreoccupyResource, c.Doc.Extra, "preoccupy_resource")
}

// Ports is the number of terminals the conference admits (max_join_mt,
// DefaultMaxJoinMt when it has none).
func (c Conference) Ports() int {
	if n := integer(c.Doc.MaxJoinMt, c.Doc.Extra, "max_join_mt"); n > 0 {
		return n
	}
	return DefaultMaxJoinMt
}

// CreatorName is the creating account's name (creator.name), "" when the
// creator or its name is absent or not a string.
func (c Conference) CreatorName() string {
	var cr struct {
		Name docStr `json:"name"`
	}
	c.Member("creator", &cr)
	return string(cr.Name)
}

// The setters write a member in the server's form.

// SetName sets name.
func (c *Conference) SetName(v string) { c.setStr(&c.Doc.Name, "name", v) }

// SetMeetingID sets meeting_id.
func (c *Conference) SetMeetingID(v string) { c.setStr(&c.Doc.MeetingID, "meeting_id", v) }

// SetMeetingRoomName sets meeting_room_name.
func (c *Conference) SetMeetingRoomName(v string) {
	c.setStr(&c.Doc.MeetingRoomName, "meeting_room_name", v)
}

// SetPassword sets password and need_password (1 when it is not "").
func (c *Conference) SetPassword(v string) {
	c.setStr(&c.Doc.Password, "password", v)
	c.setInt(&c.Doc.NeedPassword, "need_password", flag(v != ""))
}

// SetEndTimeText sets end_time ("" for a permanent conference).
func (c *Conference) SetEndTimeText(v string) { c.setStr(&c.Doc.EndTime, "end_time", v) }

// SetStartTimeText sets start_time.
func (c *Conference) SetStartTimeText(v string) { c.setStr(&c.Doc.StartTime, "start_time", v) }

// SetDuration sets duration.
func (c *Conference) SetDuration(v int) { c.setInt(&c.Doc.Duration, "duration", v) }

// SetBitrate sets bitrate.
func (c *Conference) SetBitrate(v int) { c.setInt(&c.Doc.Bitrate, "bitrate", v) }

// SetConfType sets conf_type.
func (c *Conference) SetConfType(v int) { c.setInt(&c.Doc.ConfType, "conf_type", v) }

// SetMaxJoinMt sets max_join_mt.
func (c *Conference) SetMaxJoinMt(v int) { c.setInt(&c.Doc.MaxJoinMt, "max_join_mt", v) }

// SetSafeConf sets safe_conf, the hidden mode.
func (c *Conference) SetSafeConf(v int) { c.setInt(&c.Doc.SafeConf, "safe_conf", v) }

// SetClosedConf sets closed_conf.
func (c *Conference) SetClosedConf(v int) { c.setInt(&c.Doc.ClosedConf, "closed_conf", v) }

// SetForceBroadcast sets force_broadcast.
func (c *Conference) SetForceBroadcast(v int) { c.keepInt("force_broadcast", v) }

// SetDualMode sets dual_mode.
func (c *Conference) SetDualMode(v int) { c.setInt(&c.Doc.DualMode, "dual_mode", v) }

// SetMixEnable sets mix_enable.
func (c *Conference) SetMixEnable(v int) { c.setInt(&c.Doc.MixEnable, "mix_enable", v) }

// SetVMPEnable sets vmp_enable.
func (c *Conference) SetVMPEnable(v int) { c.setInt(&c.Doc.VMPEnable, "vmp_enable", v) }

// SetPollEnable sets poll_enable.
func (c *Conference) SetPollEnable(v int) { c.setInt(&c.Doc.PollEnable, "poll_enable", v) }

// SetVoiceActivityDetection sets voice_activity_detection.
func (c *Conference) SetVoiceActivityDetection(v int) {
	c.setInt(&c.Doc.VoiceActivityDetection, "voice_activity_detection", v)
}

// SetVacinterval sets vacinterval.
func (c *Conference) SetVacinterval(v int) { c.setInt(&c.Doc.Vacinterval, "vacinterval", v) }

// SetMute sets mute.
func (c *Conference) SetMute(v int) { c.setInt(&c.Doc.Mute, "mute", v) }

// SetForceMute sets force_mute.
func (c *Conference) SetForceMute(v int) { c.setInt(&c.Doc.ForceMute, "force_mute", v) }

// SetSilence sets silence.
func (c *Conference) SetSilence(v int) { c.setInt(&c.Doc.Silence, "silence", v) }

// SetSuperiorCascade sets superior_cascade (1: the conference has a
// superior).
func (c *Conference) SetSuperiorCascade(v int) { c.keepInt("superior_cascade", v) }

// SetSubordinateCascade sets subordinate_cascade (1: the conference has
// subordinates).
func (c *Conference) SetSubordinateCascade(v int) { c.keepInt("subordinate_cascade", v) }

// SetMember writes a member of a structured form (a list of video
// formats) as the stored document holds it: v encoded as JSON.
func (c *Conference) SetMember(name string, v any) { c.setMember(name, record.Stored(v)) }
