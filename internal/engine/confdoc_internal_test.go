package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/shape"
)

// storedDocs are the conference documents of mc's and krtc's golden
// creations (written by the map creation: every release, every kind of
// creation, unknown and odd members).
func storedDocs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, p := range []string{
		filepath.Join("..", "mc", "testdata", "conf_stored.golden"),
		filepath.Join("..", "krtc", "testdata", "conf_stored.golden"),
	} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if _, doc, ok := strings.Cut(sc.Text(), " stored: "); ok {
				out = append(out, doc)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 20 {
		t.Fatalf("%d stored documents", len(out))
	}
	return out
}

// mapRoundTrip is what the map document writes back for data.
func mapRoundTrip(t *testing.T, data string) string {
	t.Helper()
	m, err := shape.Decode([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := shape.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestConfDocKeepsStoredBytes: a stored conference document decoded as a
// ConfDoc and encoded is written back in the bytes the map document
// writes for it: its own bytes for one the map code wrote (the golden
// creations, a running conference's), the map code's canonical bytes
// for a hand-edited one.
func TestConfDocKeepsStoredBytes(t *testing.T) {
	docs := storedDocs(t)
	docs = append(docs,
		// A running conference with the server's own members.
		`{"bitrate":2048,"chairman_mt_id":"1","conf_id":"1110000","duration":0,"name":"r","speaker_mt_id":"2","vc_mix":{"members":[{"mt_id":"1"}],"mode":1},"vc_poll":{"keep_time":10,"state":1},"viplist":[{"mt_id":"3"}]}`,
		// Hand-edited: spaces, odd number forms, nulls, escapes, a nested unknown member.
		`{ "name" : "a\u00e9<b>&", "bitrate": "2048", "duration": 1.0, "max_join_mt": 8e0, "mute": -0, "silence": null,
		  "creator": {"account":"x","account_type":1,"mobile":"","name":"n","telephone":"","x":1},
		  "invite_members": [], "vips": [], "x_vendor": {"b":[1,2.50,{}],"a":null}, "conf_type": 18446744073709551616 }`,
		`{}`,
		`{"creator":null,"speaker":{"account":"1","account_type":5},"video_formats":[{"format":5,"resolution":12,"frame":30,"bitrate":2048}]}`,
	)
	for _, data := range docs {
		d, err := decodeConfDoc([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		got, err := d.encode()
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if want := mapRoundTrip(t, data); string(got) != want {
			t.Errorf("stored %s\nwritten %s\nwant    %s", data, got, want)
		}
	}
}

// TestConfDocTypesWhatItHolds: the members the creation stores are typed,
// those of another form are kept as they were.
func TestConfDocTypesWhatItHolds(t *testing.T) {
	d, err := decodeConfDoc([]byte(`{"bitrate":"2048","conf_id":"1110000","creator":{"account":"a","account_type":1,"mobile":"","name":"n","telephone":""},"duration":1.5,"invite_members":[],"max_join_mt":192,"name":"n","start_time":"2026-03-01T09:00:00+00:00","vc_mix":{"mode":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := d.Name.Get(); !ok || v != "n" {
		t.Errorf("name %v", d.Name)
	}
	if v, ok := d.MaxJoinMt.Get(); !ok || v != 192 {
		t.Errorf("max_join_mt %v", d.MaxJoinMt)
	}
	if d.ConfID.Or("") != "1110000" || d.StartTime.Or("") != "2026-03-01T09:00:00+00:00" {
		t.Errorf("conf_id %v start_time %v", d.ConfID, d.StartTime)
	}
	if d.Creator == nil || d.Creator.Account != "a" {
		t.Errorf("creator %+v", d.Creator)
	}
	if d.InviteMembers == nil || len(d.InviteMembers) != 0 {
		t.Errorf("invite_members %v: present and empty", d.InviteMembers)
	}
	if d.Bitrate.Set || d.Duration.Set {
		t.Errorf("bitrate %v duration %v: of another form, not typed", d.Bitrate, d.Duration)
	}
	for k, want := range map[string]string{"bitrate": `"2048"`, "duration": `1.5`, "vc_mix": `{"mode":1}`} {
		if got := d.Extra[k]; !bytes.Equal(got, []byte(want)) {
			t.Errorf("kept %s = %s, want %s", k, got, want)
		}
	}
	if len(d.Extra) != 3 {
		t.Errorf("kept %v", d.Extra)
	}
	// A change of a typed member is written; a kept one of the same name
	// is replaced by the typed member.
	d.Bitrate.Value, d.Bitrate.Set = 1024, true
	b, err := d.encode()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if string(m["bitrate"]) != "1024" || bytes.Count(b, []byte(`"bitrate"`)) != 1 {
		t.Errorf("written %s", b)
	}
}

// BenchmarkConfDocDecode compares reading a stored conference document
// as the map (shape.Decode) and as a ConfDoc.
func BenchmarkConfDocDecode(b *testing.B) {
	data := []byte(`{"auto_end":1,"bitrate":2048,"call_interval":20,"call_mode":2,"call_times":3,"chairman_mt_id":"1","closed_conf":1,"conf_id":"1110002","conf_type":0,"create_type":1,"creator":{"account":"a","account_type":1,"mobile":"","name":"admin","telephone":""},"dual_mode":0,"duration":90,"end_time":"2026-03-01T10:30:00+00:00","invite_members":[{"account":"1000001","account_type":5,"bitrate":2048,"name":"a","protocol":0}],"invited_mt_num":1,"max_join_mt":8,"meeting_id":"m","meeting_room_name":"","mix_enable":1,"mute":0,"name":"full","need_password":0,"platform_id":"p","poll_enable":0,"speaker_mt_id":"2","start_time":"2026-03-01T09:00:00+00:00","user_domain_moid":"d","user_domain_name":"default","vc_mix":{"members":[{"mt_id":"1"}],"mode":1},"vmp_enable":0}`)
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := shape.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := decodeConfDoc(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestConferenceMembersReadAsTheMap: the creation members' accessors
// read as record.Str and record.Int read the document.
func TestConferenceMembersReadAsTheMap(t *testing.T) {
	c := confFromMap(t, map[string]any{"name": json.Number("12"), "meeting_id": "m", "password": nil,
		"end_time": "2026-03-01T10:00:00+00:00", "bitrate": "2048", "conf_type": json.Number("1"),
		"closed_conf": json.Number("1.0"), "mix_enable": json.Number("1"), "vmp_enable": map[string]any{}})
	if c.Name() != "12" || c.MeetingID() != "m" || c.Password() != "" || c.EndTimeText() != "2026-03-01T10:00:00+00:00" {
		t.Errorf("name %q meeting_id %q password %q end_time %q", c.Name(), c.MeetingID(), c.Password(), c.EndTimeText())
	}
	if c.Bitrate() != 2048 || c.ConfType() != 1 || c.ClosedConf() != 1 || c.MixEnable() != 1 || c.VMPEnable() != 0 {
		t.Errorf("bitrate %d conf_type %d closed_conf %d mix_enable %d vmp_enable %d", c.Bitrate(), c.ConfType(), c.ClosedConf(), c.MixEnable(), c.VMPEnable())
	}
}
