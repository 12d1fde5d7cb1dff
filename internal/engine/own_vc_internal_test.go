package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// A monitor with every part, as vc's monitor start stores it.
const vcMonitorJSON = `{"audio_format":{"chn_num":1,"format":2},"dst":{"ip":"10.0.0.9","port":7000},"heartbeat_at":1796540400000,"key":"k1",` +
	`"mode":2,"src":{"encrypt":{"key":"","mode":0},"media_formats":{"bitrate":1024,"chn_num":0,"max_frame":30,"sampling":0},` +
	`"mt_chn_idx":0,"mt_id":"3","payload_formats":{"active_payload":"106","real_payload":"96"},"rtcp":{"ip":"10.0.0.1","port":7001},"type":1},` +
	`"video_format":{"bitrate":1024,"format":5,"frame":30,"resolution":13}}`

// TestVCMembersKeepTheStoredBytes: vc's members of a conference document
// (own_vc.go) read and written unchanged keep their bytes, those of the
// form vc writes leave Doc for the typed fields, and a member that does
// not read stays in Doc as it was.
func TestVCMembersKeepTheStoredBytes(t *testing.T) {
	for _, tc := range []struct {
		data  string
		typed bool // the members read into VCState (else they stay in Doc)
		other bool // a member of another form, read leniently
	}{
		{`{"name":"a","vc_playback":{"anchor_at":1796540400000,"file_id":3,"file_name":"weekly","paused_at":0,"play_dual_stream":1,"pos_ms":5000,"rec_id":"12","state":2,"total_ms":90000,"vrs_id":"vrs1"}}`, true, false},
		{`{"name":"a","vc_playback":{"anchor_at":0,"file_id":3,"file_name":"","paused_at":0,"play_dual_stream":0,"pos_ms":0,"rec_id":"1","state":0,"total_ms":0,"vrs_id":7}}`, true, false},
		{`{"name":"a","vc_playback":{"anchor_at":0,"file_id":3,"file_name":"\u003cb\u003e\u0026","paused_at":0,"play_dual_stream":0,"pos_ms":0,"rec_id":"1","state":1,"total_ms":0,"vrs_id":null}}`, true, false},
		{`{"name":"a","vc_monitors":[]}`, true, false},
		{`{"name":"a","vc_monitors":[` + vcMonitorJSON + `]}`, true, false},
		{`{"name":"a","vc_monitors":[{"dst":{"ip":"10.0.0.9","port":7000},"heartbeat_at":1,"mode":1,"src":{"mt_chn_idx":0,"mt_id":"","type":2}}]}`, true, false},
		{`{"name":"a","vc_inspections":[]}`, true, false},
		{`{"name":"a","vc_inspections":[{"dst":{"mt_chn_idx":0,"mt_id":"1"},"mode":1,"src":{"mt_chn_idx":0,"mt_id":"2","type":1}},{"dst":{"mt_chn_idx":1,"mt_id":"1"},"mode":2,"src":{"mt_chn_idx":0,"mt_id":"1","type":2}}]}`, true, false},
		{`{"name":"a","sms":{"message":"hello \u003e","mts":[{"mt_id":"1"},{"mt_id":"2"}],"roll_num":255,"roll_speed":2,"send_time":"2026-03-01T09:01:03+00:00","type":1}}`, true, false},
		{`{"name":"a","sms":{"message":"","mts":[],"roll_num":1,"roll_speed":1,"send_time":"2026-03-01T09:01:03+00:00","type":0}}`, true, false},
		{`{"name":"a","sms":{"message":"m","mts":null,"roll_num":1,"roll_speed":1,"send_time":"","type":0}}`, true, false},
		// Of another form, read leniently: a member the server does not
		// write, a number where it writes a string's JSON as it was sent,
		// an element that does not read, an optional member stored empty.
		{`{"name":"a","vc_playback":{"extra":1,"file_id":3,"state":2}}`, true, true},
		{`{"name":"a","vc_monitors":[{"dst":{"ip":"10.0.0.9","port":7000},"heartbeat_at":1,"key":"","mode":1,"src":{"mt_chn_idx":0,"mt_id":"1","type":1}}]}`, true, true},
		{`{"name":"a","vc_monitors":["x",null,{"heartbeat_at":"42"},{"dst":{"ip":"10.0.0.9","port":7000},"heartbeat_at":1,"mode":1,"src":{"mt_chn_idx":0,"mt_id":"1","type":1}}]}`, true, true},
		{`{"name":"a","vc_inspections":[{"dst":{"mt_id":"1"},"mode":1,"src":{"mt_id":"2","type":1}}]}`, true, true},
		{`{"name":"a","vc_inspections":[{"mode":"1"}]}`, true, true},
		// Not read at all: they stay in Doc.
		{`{"name":"a","vc_playback":null}`, false, false},
		{`{"name":"a","vc_playback":"x"}`, false, false},
		{`{"name":"a","vc_playback":{"state":"2"}}`, false, false},
		{`{"name":"a","vc_playback":{"anchor_at":1.5e12,"file_id":3}}`, false, false},
		{`{"name":"a","vc_playback":[]}`, false, false},
		{`{"name":"a","vc_monitors":null}`, false, false},
		{`{"name":"a","vc_monitors":{}}`, false, false},
		{`{"name":"a","vc_inspections":"none"}`, false, false},
		{`{"name":"a","sms":7}`, false, false},
	} {
		c, err := decode(store.Record{Data: []byte(tc.data)})
		if err != nil {
			t.Fatal(err)
		}
		read, inDoc := false, false
		for i, r := range c.VCState.vcRead() {
			read = read || r
			_, in := c.Doc.Extra[vcMembers[i]]
			inDoc = inDoc || in
		}
		if read != tc.typed || inDoc == tc.typed {
			t.Errorf("%s: read into VCState %v, left in Doc %v", tc.data, read, inDoc)
		}
		other := false
		for _, o := range c.VCState.other {
			other = other || o != nil
		}
		if other != tc.other {
			t.Errorf("%s: of another form %v, want %v", tc.data, other, tc.other)
		}
		got, _, err := encodeConf(c)
		if err != nil || string(got) != tc.data {
			t.Errorf("%s written back as %s (%v)", tc.data, got, err)
		}
		if !c.ownValid() {
			t.Errorf("%s: an unchanged conference is not kept as it was read", tc.data)
		}
	}
}

// TestVCMembersWrittenAsBefore: what vc writes is stored as it stored it
// in the document map before the members were typed (record.Stored of the
// same JSON, then shape.Encode), and reads back as it was written.
func TestVCMembersWrittenAsBefore(t *testing.T) {
	var mon Monitor
	if err := json.Unmarshal([]byte(vcMonitorJSON), &mon); err != nil {
		t.Fatal(err)
	}
	s := VCState{
		Playback: &Playback{AnchorAt: 1796540400000, FileID: 3, FileName: "a<b>&é", PlayDualStream: 1, PosMs: 5000,
			RecID: "12", State: 1, TotalMs: 90000, PausedAt: 1796540401000, VrsID: json.RawMessage(`{"b":1,"a":"x"}`)},
		Monitors: []Monitor{mon, {Dst: model.VCConfsMonitorsListReplyMonitorDst{IP: "::1", Port: 9}, Mode: 1,
			Src: model.VCConfsMonitorsListReplyMonitorSrc{Type: 4}, AudioFormat: json.RawMessage(`{"z":[1, 2],"a":null}`)}},
		Inspections: []Inspection{{Mode: 1, Dst: model.VCConfsInspectionChannelsListReplyInspectionDst{MtID: "1"},
			Src: model.VCConfsInspectionChannelsListReplyInspectionSrc{Type: 1, MtID: "2", MtChnIdx: 3}}},
		SMS: &SMS{Message: "\u2028<hi>", Type: 1, RollNum: 255, RollSpeed: 3, Mts: []model.VCConfsSMSSendRequestMt{{MtID: "4"}},
			SendTime: "2026-03-01T09:01:03+00:00"},
	}
	before, err := shape.Encode(map[string]any{"name": "a", "vc_playback": record.Stored(s.Playback),
		"vc_monitors": record.Stored(s.Monitors), "vc_inspections": record.Stored(s.Inspections), "sms": record.Stored(s.SMS)})
	if err != nil {
		t.Fatal(err)
	}
	c := Conference{VCState: s}
	c.SetName("a")
	got, _, err := encodeConf(c)
	if err != nil || string(got) != string(before) {
		t.Fatalf("written as %s, before %s (%v)", got, before, err)
	}
	if len(c.Doc.Extra) != 0 || c.Name() != "a" {
		t.Fatalf("encoding left members in Doc: %v", c.Doc)
	}
	// The formats as sent are not what decoding gives: the write is not
	// kept for its bytes (ownValid), the next read decodes them.
	if c.ownValid() {
		t.Fatal("a conference whose formats are not as stored is kept as written")
	}
	back, err := decode(store.Record{Data: got})
	if err != nil {
		t.Fatal(err)
	}
	// The formats come back as stored (their members in name order).
	s = s.vcClone()
	s.Playback.VrsID, s.Monitors[1].AudioFormat = json.RawMessage(`{"a":"x","b":1}`), json.RawMessage(`{"a":null,"z":[1,2]}`)
	if !reflect.DeepEqual(back.VCState, s) {
		t.Fatalf("read back %+v, want %+v", back.VCState, s)
	}
	if !back.ownValid() {
		t.Fatal("a conference read is not kept as written")
	}
}

// TestVCMembersOfStoredBytesInAnotherOrder: a member whose stored bytes
// are not as the server writes them (spaces, members out of name order:
// a hand edit) is read as the map document read it, its formats in name
// order, and written as the map document wrote it.
func TestVCMembersOfStoredBytesInAnotherOrder(t *testing.T) {
	for _, data := range []string{
		`{"name":"a","vc_playback":{"vrs_id":{"b":1,"a":[1, 2]},"file_id":3,"anchor_at":0,"file_name":"","paused_at":0,"play_dual_stream":0,"pos_ms":0,"rec_id":"1","state":2,"total_ms":0}}`,
		`{"name":"a","vc_monitors":[ {"video_format":{"resolution":13,"bitrate":1024},"dst":{"port":7000,"ip":"10.0.0.9"},"heartbeat_at":1,"mode":2,"src":{"type":1,"mt_id":"1","mt_chn_idx":0}} ]}`,
		`{"name":"a","vc_monitors":[{"video_format":{"z":1,"a":2},"extra":1}]}`,
	} {
		doc, err := shape.Decode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		want, err := shape.Encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		c, err := decode(store.Record{Data: []byte(data)})
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := encodeConf(c); err != nil || string(got) != string(want) {
			t.Errorf("%s written as %s, the map document wrote %s (%v)", data, got, want, err)
		}
		if !c.ownValid() {
			t.Errorf("%s: read and unchanged, not kept as written", data)
		}
	}
	c, err := decode(store.Record{Data: []byte(`{"vc_playback":{"vrs_id":{"b":1,"a":[1, 2]},"file_id":3}}`)})
	if err != nil || c.Playback == nil || string(c.Playback.VrsID) != `{"a":[1,2],"b":1}` {
		t.Fatalf("vrs_id read as %s (%v)", c.Playback.VrsID, err)
	}
}

// TestVCMemberOfAnotherFormChanged: a member of another form is written
// in this release's form once it changed, without what did not read; a
// conference that holds it changed is not kept for the written bytes (a
// fresh read has it in this release's form).
func TestVCMemberOfAnotherFormChanged(t *testing.T) {
	data := `{"name":"a","vc_monitors":["x",{"dst":{"ip":"10.0.0.9","port":7000},"extra":1,"heartbeat_at":1,"mode":1,"src":{"mt_chn_idx":0,"mt_id":"1","type":1}}]}`
	c, err := decode(store.Record{Data: []byte(data)})
	if err != nil || len(c.Monitors) != 1 {
		t.Fatalf("%+v %v", c.Monitors, err)
	}
	c.Monitors[0].HeartbeatAt = 2
	got, _, err := encodeConf(c)
	want := `{"name":"a","vc_monitors":[{"dst":{"ip":"10.0.0.9","port":7000},"heartbeat_at":2,"mode":1,"src":{"mt_chn_idx":0,"mt_id":"1","type":1}}]}`
	if err != nil || string(got) != want {
		t.Fatalf("written as %s, want %s (%v)", got, want, err)
	}
	if c.ownValid() {
		t.Fatal("a changed member of another form is kept as written")
	}
	c.Monitors[0].HeartbeatAt = 1 // what was read: as stored again
	if got, _, _ := encodeConf(c); string(got) != data {
		t.Fatalf("written back as %s, want %s", got, data)
	}
}

// TestVCStateCopies: a copy of a conference (the doc cache's) shares
// nothing of vc's members that a writer changes.
func TestVCStateCopies(t *testing.T) {
	data := `{"name":"a","sms":{"message":"m","mts":[{"mt_id":"1"}],"roll_num":1,"roll_speed":1,"send_time":"","type":0},` +
		`"vc_inspections":[{"dst":{"mt_chn_idx":0,"mt_id":"1"},"mode":1,"src":{"mt_chn_idx":0,"mt_id":"2","type":1}}],"vc_monitors":[` + vcMonitorJSON + `],` +
		`"vc_playback":{"anchor_at":0,"file_id":3,"file_name":"","paused_at":0,"play_dual_stream":0,"pos_ms":0,"rec_id":"1","state":2,"total_ms":0,"vrs_id":"v"}}`
	c, err := decode(store.Record{Data: []byte(data)})
	if err != nil {
		t.Fatal(err)
	}
	cp := c.clone()
	cp.Playback.State = 0
	cp.Monitors[0].Src.Rtcp.Port = 1
	cp.Monitors[0].Src.MediaFormats.Bitrate = 1
	cp.Monitors[0].Src.PayloadFormats.RealPayload = ""
	cp.Monitors[0].Src.Encrypt.Mode = 2
	cp.Inspections[0].Mode = 2
	cp.SMS.Mts[0].MtID = "9"
	if got, _, err := encodeConf(c); err != nil || string(got) != data {
		t.Fatalf("the original changed with its copy: %s (%v)", got, err)
	}
	empty, err := decode(store.Record{Data: []byte(`{"vc_inspections":[],"vc_monitors":[]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if cp := empty.clone(); cp.Monitors == nil || cp.Inspections == nil {
		t.Fatal("an empty list copied as none")
	}
}
