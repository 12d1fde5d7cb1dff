package testserver

import (
	"encoding/json"
	"testing"
)

// TestTemplateParams pins the parameters Template sends: those of the
// map it was before it was typed, every one present.
func TestTemplateParams(t *testing.T) {
	b, err := json.Marshal(Template("t"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(got) // in name order
	const want = `{"auto_end":0,"bind_e164":0,"bitrate":1024,"call_interval":20,"call_mode":2,"call_times":3,"cascade_mode":1,"cascade_return":0,"cascade_return_para":0,"cascade_upload":1,"closed_conf":0,"conf_type":0,"dual_mode":1,"encrypted_type":0,"max_join_mt":8,"mute":0,"name":"t","one_reforming":0,"preoccupy_resource":0,"public_conf":0,"safe_conf":0,"silence":0,"video_formats":[{"bitrate":1024,"format":4,"frame":30,"resolution":12}],"video_quality":0,"voice_activity_detection":0}`
	if string(out) != want {
		t.Fatalf("Template sends\n%s\nwant\n%s", out, want)
	}
}
