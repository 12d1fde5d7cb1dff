package engine

import (
	"bytes"
	"encoding/json"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
)

// The members of a conference document other modules and the engine read
// or write by name, read as record.Str and record.Int read the map
// document (a string member stored as a number reads as its text, a
// number stored as a string as its value, anything else as "" or 0).
// They read and write Conference.Doc, a ConfDoc, through member,
// intMember, strMember and setMember alone: a member is its field when
// the field holds it, else its kept JSON in Doc.Extra. A setter writes the
// member in the form the server writes it (a string, an integer), into
// its field when the field holds that form exactly (record.SetKept), the
// kept copy dropped.

// memberJSON is a member's JSON (false when absent).
func (c Conference) memberJSON(name string) (json.RawMessage, bool) {
	return record.KeptMember(&c.Doc, c.Doc.Extra, name)
}

// member is the value of a member as the map document held it (decoded
// with json.Number), nil when absent.
func (c Conference) member(name string) any {
	raw, ok := c.memberJSON(name)
	if !ok {
		return nil
	}
	switch {
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
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

// intMember reads a member as record.Int does.
func (c Conference) intMember(name string) int { n, _ := record.IntOK(c.member(name)); return n }

// strMember reads a member as record.Str does.
func (c Conference) strMember(name string) string {
	switch x := c.member(name).(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

// stringMember reads a member stored as a JSON string, "" for anything
// else.
func (c Conference) stringMember(name string) string { s, _ := c.member(name).(string); return s }

// setMember writes a member (v as its JSON: a string, an integer, a value
// record.Stored made).
func (c *Conference) setMember(name string, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err) // only server-built values are written
	}
	if c.Doc.Extra, err = record.SetKept(&c.Doc, c.Doc.Extra, name, raw); err != nil {
		panic(err)
	}
}

// dropMember removes a member.
func (c *Conference) dropMember(name string) { record.DropKept(&c.Doc, c.Doc.Extra, name) }

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
func (c Conference) Name() string { return c.strMember("name") }

// NameString is the name when it is stored as a string.
func (c Conference) NameString() (string, bool) { s, ok := c.member("name").(string); return s, ok }

// StartPending is the mark of a start whose follow-up is not done
// (DocStartPending, start_pending.go), "" when none.
func (c Conference) StartPending() string { return c.strMember(DocStartPending) }

// setStartPending sets the mark ("" removes it).
func (c *Conference) setStartPending(mark string) {
	if mark == "" {
		c.dropMember(DocStartPending)
		return
	}
	c.setMember(DocStartPending, mark)
}

// MeetingID is the conference's unique id (meeting_id).
func (c Conference) MeetingID() string { return c.strMember("meeting_id") }

// Password is the conference's password (password), "" for none.
func (c Conference) Password() string { return c.strMember("password") }

// EndTimeText is the end time as stored (end_time, ISO 8601; "" for a
// permanent conference).
func (c Conference) EndTimeText() string { return c.strMember("end_time") }

// StartTimeText is the start time as stored (start_time, ISO 8601).
func (c Conference) StartTimeText() string { return c.strMember("start_time") }

// UserDomainName is the name of the conference's domain (user_domain_name).
func (c Conference) UserDomainName() string { return c.strMember("user_domain_name") }

// Bitrate is the conference's bitrate (bitrate, kbit/s).
func (c Conference) Bitrate() int { return c.intMember("bitrate") }

// ConfType is the conference's type (conf_type: 0 traditional, 1 port,
// 2 forwarding, 3 mixed).
func (c Conference) ConfType() int { return c.intMember("conf_type") }

// ClosedConf is the do-not-disturb flag (closed_conf: 1 on).
func (c Conference) ClosedConf() int { return c.intMember("closed_conf") }

// MixEnable and VMPEnable are the flags of a running mix and picture
// composition (mix_enable, vmp_enable: 1 on).
func (c Conference) MixEnable() int { return c.intMember("mix_enable") }

// VMPEnable: see MixEnable.
func (c Conference) VMPEnable() int { return c.intMember("vmp_enable") }

// Duration is the conference's length in minutes (duration; 0 permanent).
func (c Conference) Duration() int { return c.intMember("duration") }

// DualMode is who may send the dual stream (dual_mode: 0 the speaker, 1
// any terminal, 2 designated terminals).
func (c Conference) DualMode() int { return c.intMember("dual_mode") }

// AutoEnd is whether the conference ends when its last terminal leaves
// (auto_end: 1 on).
func (c Conference) AutoEnd() int { return c.intMember("auto_end") }

// VoiceActivityDetection is voice activation (voice_activity_detection:
// 1 on), Vacinterval its interval in seconds (vacinterval).
func (c Conference) VoiceActivityDetection() int { return c.intMember("voice_activity_detection") }

// Vacinterval: see VoiceActivityDetection.
func (c Conference) Vacinterval() int { return c.intMember("vacinterval") }

// MuteFilter spares the speaker and chairman from a mute of all (1 on).
func (c Conference) MuteFilter() int { return c.intMember("mute_filter") }

// Mute and Silence are the conference's mute and silence of all (1 on).
func (c Conference) Mute() int { return c.intMember("mute") }

// Silence: see Mute.
func (c Conference) Silence() int { return c.intMember("silence") }

// ForceBroadcast is the forced broadcast (force_broadcast: 1 on).
func (c Conference) ForceBroadcast() int { return c.intMember("force_broadcast") }

// PreoccupyResource is whether the conference holds its ports while it is
// booked (preoccupy_resource: 1 on).
func (c Conference) PreoccupyResource() int { return c.intMember("preoccupy_resource") }

// Ports is the number of terminals the conference admits (max_join_mt,
// DefaultMaxJoinMt when it has none).
func (c Conference) Ports() int {
	if n := c.intMember("max_join_mt"); n > 0 {
		return n
	}
	return DefaultMaxJoinMt
}

// callInt reads a call setting as the engine always read them (num): a
// JSON integer, 0 for anything else (a string, a fraction).
func (c Conference) callInt(name string) int { return num(c.member(name)) }

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
func (c *Conference) SetName(v string) { c.setMember("name", v) }

// SetMeetingID sets meeting_id.
func (c *Conference) SetMeetingID(v string) { c.setMember("meeting_id", v) }

// SetMeetingRoomName sets meeting_room_name.
func (c *Conference) SetMeetingRoomName(v string) { c.setMember("meeting_room_name", v) }

// SetPassword sets password and need_password (1 when it is not "").
func (c *Conference) SetPassword(v string) {
	c.setMember("password", v)
	c.setMember("need_password", flag(v != ""))
}

// SetEndTimeText sets end_time ("" for a permanent conference).
func (c *Conference) SetEndTimeText(v string) { c.setMember("end_time", v) }

// SetStartTimeText sets start_time.
func (c *Conference) SetStartTimeText(v string) { c.setMember("start_time", v) }

// SetDuration sets duration.
func (c *Conference) SetDuration(v int) { c.setMember("duration", v) }

// SetBitrate sets bitrate.
func (c *Conference) SetBitrate(v int) { c.setMember("bitrate", v) }

// SetConfType sets conf_type.
func (c *Conference) SetConfType(v int) { c.setMember("conf_type", v) }

// SetMaxJoinMt sets max_join_mt.
func (c *Conference) SetMaxJoinMt(v int) { c.setMember("max_join_mt", v) }

// SetSafeConf sets safe_conf, the hidden mode.
func (c *Conference) SetSafeConf(v int) { c.setMember("safe_conf", v) }

// SetClosedConf sets closed_conf.
func (c *Conference) SetClosedConf(v int) { c.setMember("closed_conf", v) }

// SetForceBroadcast sets force_broadcast.
func (c *Conference) SetForceBroadcast(v int) { c.setMember("force_broadcast", v) }

// SetDualMode sets dual_mode.
func (c *Conference) SetDualMode(v int) { c.setMember("dual_mode", v) }

// SetMixEnable sets mix_enable.
func (c *Conference) SetMixEnable(v int) { c.setMember("mix_enable", v) }

// SetVMPEnable sets vmp_enable.
func (c *Conference) SetVMPEnable(v int) { c.setMember("vmp_enable", v) }

// SetPollEnable sets poll_enable.
func (c *Conference) SetPollEnable(v int) { c.setMember("poll_enable", v) }

// SetVoiceActivityDetection sets voice_activity_detection.
func (c *Conference) SetVoiceActivityDetection(v int) { c.setMember("voice_activity_detection", v) }

// SetVacinterval sets vacinterval.
func (c *Conference) SetVacinterval(v int) { c.setMember("vacinterval", v) }

// SetMute sets mute.
func (c *Conference) SetMute(v int) { c.setMember("mute", v) }

// SetForceMute sets force_mute.
func (c *Conference) SetForceMute(v int) { c.setMember("force_mute", v) }

// SetSilence sets silence.
func (c *Conference) SetSilence(v int) { c.setMember("silence", v) }

// SetSuperiorCascade sets superior_cascade (1: the conference has a
// superior).
func (c *Conference) SetSuperiorCascade(v int) { c.setMember("superior_cascade", v) }

// SetSubordinateCascade sets subordinate_cascade (1: the conference has
// subordinates).
func (c *Conference) SetSubordinateCascade(v int) { c.setMember("subordinate_cascade", v) }

// SetMember writes a member of a structured form (a list of video
// formats) as the stored document holds it: v encoded as JSON.
func (c *Conference) SetMember(name string, v any) { c.setMember(name, record.Stored(v)) }
