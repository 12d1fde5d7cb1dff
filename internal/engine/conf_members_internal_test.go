package engine

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// TestConferenceAccessorsReadLeniently: the readers take a member of
// another form as record.Int and record.Str read the map (a number
// stored as a string reads as its value, a string member stored as a
// number as its text, anything else as 0 or ""), the call settings as
// num did (a string is 0), and Member decodes a creation setting or
// tells it is absent or of another form.
func TestConferenceAccessorsReadLeniently(t *testing.T) {
	c, err := decode(store.Record{Data: []byte(`{"auto_end":"1","call_mode":"2","call_times":3,"creator":{"name":7},` +
		`"dual_mode":2.0,"duration":"90","force_broadcast":true,"max_join_mt":"16","mix":{"mode":1},"mute":1,"mute_filter":"1",` +
		`"name":12,"poll":{},"preoccupy_resource":1,"silence":null,"start_time":"2026-03-01T10:00:00+00:00","user_domain_name":5,` +
		`"vacinterval":"7","vmp":[],"voice_activity_detection":1,"_start_pending":"2026-03-01T10:00:00Z"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		name      string
		got, want int
	}{{"auto_end", c.AutoEnd(), 1}, {"dual_mode", c.DualMode(), 2}, {"duration", c.Duration(), 90}, {"force_broadcast", c.ForceBroadcast(), 0},
		{"max_join_mt", c.Ports(), 16}, {"mute", c.Mute(), 1}, {"mute_filter", c.MuteFilter(), 1}, {"silence", c.Silence(), 0},
		{"preoccupy_resource", c.PreoccupyResource(), 1}, {"vacinterval", c.Vacinterval(), 7}, {"voice_activity_detection", c.VoiceActivityDetection(), 1},
		{"call_mode", ConfOf(c).CallMode, 0}, {"call_times", ConfOf(c).CallTimes, 3}} {
		if x.got != x.want {
			t.Errorf("%s = %d, want %d", x.name, x.got, x.want)
		}
	}
	if n, ok := c.NameString(); c.Name() != "12" || ok || n != "" {
		t.Errorf("name %q, as a string %q %v", c.Name(), n, ok)
	}
	if c.UserDomainName() != "5" || c.StartTimeText() != "2026-03-01T10:00:00+00:00" || c.CreatorName() != "" || c.StartPending() != "2026-03-01T10:00:00Z" {
		t.Errorf("user_domain_name %q start_time %q creator %q pending %q", c.UserDomainName(), c.StartTimeText(), c.CreatorName(), c.StartPending())
	}
	if !c.ObjectSet("mix") || c.ObjectSet("poll") || c.ObjectSet("vmp") || c.ObjectSet("recorder") {
		t.Errorf("objects set: mix %v poll %v vmp %v recorder %v", c.ObjectSet("mix"), c.ObjectSet("poll"), c.ObjectSet("vmp"), c.ObjectSet("recorder"))
	}
	var mix struct {
		Mode int `json:"mode"`
	}
	var list []json.RawMessage
	if !c.Member("mix", &mix) || mix.Mode != 1 || c.Member("mix", &list) || c.Member("recorder", &mix) {
		t.Errorf("mix %+v", mix)
	}
	if string(c.MemberJSON("name")) != "12" || string(c.MemberJSON("recorder")) != "null" {
		t.Errorf("name %s recorder %s", c.MemberJSON("name"), c.MemberJSON("recorder"))
	}
	if d, _ := decode(store.Record{Data: []byte(`{"max_join_mt":0}`)}); d.Ports() != DefaultMaxJoinMt {
		t.Errorf("ports = %d", d.Ports())
	}
}

// TestConferenceSettersWriteTheServersForm: a setter writes its member in
// the form the server writes (a string, an integer; a structured one as
// its JSON), over a member of another form, and the stored bytes are
// the map document's.
func TestConferenceSettersWriteTheServersForm(t *testing.T) {
	c, err := decode(store.Record{Data: []byte(`{"bitrate":"2048","name":7,"password":"","vacinterval":null,"x_kept":[1,"a"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	c.SetName("a<b")
	c.SetBitrate(1024)
	c.SetPassword("pw")
	c.SetEndTimeText("")
	c.SetStartTimeText("2026-03-01T10:00:00+00:00")
	c.SetDuration(0)
	for _, f := range []func(int){c.SetConfType, c.SetMaxJoinMt, c.SetSafeConf, c.SetClosedConf, c.SetForceBroadcast, c.SetDualMode,
		c.SetMixEnable, c.SetVMPEnable, c.SetPollEnable, c.SetVoiceActivityDetection, c.SetVacinterval, c.SetMute, c.SetForceMute,
		c.SetSilence, c.SetSuperiorCascade, c.SetSubordinateCascade} {
		f(1)
	}
	c.SetMeetingID("m")
	c.SetMeetingRoomName("r")
	c.SetMember("video_formats", []struct {
		Format int `json:"format"`
	}{{Format: 5}})
	c.setStartPending("p")
	c.setStartPending("")
	got, _, err := encodeConf(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"bitrate":1024,"closed_conf":1,"conf_type":1,"dual_mode":1,"duration":0,"end_time":"","force_broadcast":1,"force_mute":1,` +
		`"max_join_mt":1,"meeting_id":"m","meeting_room_name":"r","mix_enable":1,"mute":1,"name":"a\u003cb","need_password":1,` +
		`"password":"pw","poll_enable":1,"safe_conf":1,"silence":1,"start_time":"2026-03-01T10:00:00+00:00","subordinate_cascade":1,` +
		`"superior_cascade":1,"vacinterval":1,"video_formats":[{"format":5}],"vmp_enable":1,"voice_activity_detection":1,"x_kept":[1,"a"]}`
	if string(got) != want {
		t.Errorf("stored\n %s\nwant\n %s", got, want)
	}
	c.SetPassword("")
	if c.Password() != "" || c.intMember("need_password") != 0 || c.Bitrate() != 1024 || c.Name() != "a<b" {
		t.Errorf("password %q need_password %d bitrate %d name %q", c.Password(), c.intMember("need_password"), c.Bitrate(), c.Name())
	}
}
