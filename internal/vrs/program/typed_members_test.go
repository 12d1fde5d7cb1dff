package program

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/shape"
)

// The parts and transcoded members, typed, are stored in the bytes the
// maps they replaced had (keys in name order), and read back in both
// forms: as set, and as decoded from the store.
func TestTypedMembersKeepTheStoredBytes(t *testing.T) {
	p := Program{}
	SetParts(&p, 7, []FileInfo{{Rel: "d/7.webm", Bytes: 10, Duration: 1500 * time.Millisecond, Container: "webm"},
		{Rel: "d/7-2.webm", Duration: time.Second}})
	SetTranscoded(&p, 3, 2)
	b, err := Encode(p.Doc)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"audio_codec":"","container":"webm","duration":3,"duration_ms":2500,"file":"d/7.webm","files":[{"prgid":7,"prgtype":"webm","relativepath":"/recordings/"}],"height":0,` +
		`"parts":[{"duration_ms":1500,"file":"d/7.webm","gap":false,"size":10},{"duration_ms":1000,"file":"d/7-2.webm","gap":true,"size":0}],` +
		`"size":10,"suffix":"webm","transcoded":{"picmergerstyle":2,"restype":3},"video_codec":"","width":0}`
	if string(b) != want {
		t.Fatalf("stored\n%s\nwant\n%s", b, want)
	}
	if r, s, ok := Transcoded(p); !ok || r != 3 || s != 2 {
		t.Fatalf("Transcoded as set = %d %d %v", r, s, ok)
	}
	back, err := decodeDoc(b)
	if err != nil {
		t.Fatal(err)
	}
	if r, s, ok := Transcoded(Program{Doc: back}); !ok || r != 3 || s != 2 {
		t.Fatalf("Transcoded as stored = %d %d %v", r, s, ok)
	}
	if _, _, ok := Transcoded(Program{}); ok {
		t.Fatal("Transcoded of a program without one is ok")
	}
}

// A stored document of any form is written back as the map document
// wrote it: a member the type does not know, or of a form its member
// does not hold, is kept as read (Extra), and the typed members a
// change sets replace the kept forms.
func TestDocKeepsWhatItDoesNotHold(t *testing.T) {
	for _, data := range []string{
		`{}`, `null`,
		`{"id":7,"name":"a","x_new":[1,{"b":null}]}`,
		`{"id":"7","name":null,"size":1.0,"duration":-0,"bitrate":1e3,"live":true}`,
		`{"files":[{"prgid":1,"prgtype":"asf","relativepath":"/u/","x":1}],"transcoded":{"restype":3}}`,
		`{"files":null,"parts":[],"members":[{"mt_id":"1","alias":"x"}],"prgstate":"1"}`,
		`{"conf_name":"\u003c\u2028","Name":"case","name":"x", "vodnum" : 2 }`,
		`{"segment_ms":12,"segment_ms":13}`,
	} {
		d, err := decodeDoc([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		got, err := Encode(d)
		if err != nil {
			t.Fatal(err)
		}
		m, err := shape.Decode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := shape.Encode(m)
		if string(got) != string(want) {
			t.Errorf("%s: written back as\n%s\nwant\n%s", data, got, want)
		}
	}
	// The documents both writers write are held by the type alone.
	for _, data := range []string{
		`{"anonymous":1,"audio_codec":"opus","bitrate":2048,"conf_id":"1","conf_name":"vc\u003c","container":"webm","create_time":"2026-12-06T10:05:00+08:00","dual_stream":1,"duration":299,"duration_ms":299400,"file":"d1/502.webm","files":[{"prgid":502,"prgtype":"webm","relativepath":"/recordings/"}],"height":720,"id":502,"main_stream":1,"members":[{"mt_id":"1"}],"name":"rec-b","parts":[{"duration_ms":1500,"file":"d1/503.webm","gap":true,"size":0}],"publish_mode":1,"rec_id":"502","recorder_mode":3,"recorder_type":2,"size":123456,"start_time":"2026-12-06T10:00:00+08:00","suffix":"webm","video_codec":"vp8","vrs_id":"vrs-1","watermark":0,"width":1280}`,
		`{"bitrate":1024,"conf_id":"1234567","conf_name":"c","createtime":1796522400,"downloadnum":0,"dual_stream":1,"files":[{"prgid":1,"prgtype":"asf","relativepath":"/uploadmedia/"}],"folderid":0,"id":1,"issuetime":0,"live":1,"name":"r","prgalias":"r","prgallduration":3,"prgallsize":4,"prgauthmode":1,"prgdesc":"d","prgencmode":1,"prggid":1,"prgskid":"","prgstate":0,"prgwatermark":1,"publish":1,"recorded_ms":0,"roomid":3,"segment_ms":1796522400123,"source":"recroom","start_time":"2026-12-06T10:00:00+08:00","streamjsonpath":"","suffix":"asf","transcoded":{"picmergerstyle":2,"restype":3},"userdomainmoid":"d1","vodnum":0,"vrs_id":"vrs-1","vrsmoid":"vrs-1"}`,
	} {
		if d, err := decodeDoc([]byte(data)); err != nil || d.Extra != nil {
			t.Errorf("%s: kept %v, %v", data, d.Extra, err)
		}
	}
	d, err := decodeDoc([]byte(`{"vodnum":"3","folderid":null,"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	p := Program{Doc: d}
	CountPlay(&p)
	SetFolder(&p, 2)
	if got, _ := Encode(p.Doc); string(got) != `{"folderid":2,"vodnum":4,"x":1}` {
		t.Fatalf("changed: %s", got)
	}
}

// The kept members are read as the map document read them: a files list
// of another form, a transcoded member missing one of its members or
// null, a nested object's members in any order.
func TestKeptMembersRead(t *testing.T) {
	d, err := decodeDoc([]byte(`{"files":[{"prgid":"5","prgtype":7,"relativepath":"/u/","x":1},3,null],"transcoded":{"restype":3},"x":{"b":1, "a":[ 2 ,"<"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := Program{Doc: d}
	if got := Files(p); len(got) != 1 || got[0] != (FileEntry{Prgid: 5, Prgtype: "7", Relativepath: "/u/"}) {
		t.Errorf("files = %v", got)
	}
	if r, s, ok := Transcoded(p); r != 3 || s != 0 || !ok {
		t.Errorf("transcoded = %d, %d, %v", r, s, ok)
	}
	if got, _ := Encode(d); string(got) != `{"files":[{"prgid":"5","prgtype":7,"relativepath":"/u/","x":1},3,null],"transcoded":{"restype":3},"x":{"a":[2,"\u003c"],"b":1}}` {
		t.Errorf("written back as %s", got)
	}
	if d, err = decodeDoc([]byte(`{"transcoded":null}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := Transcoded(Program{Doc: d}); ok {
		t.Error("a null transcoded reads as one recorded")
	}
}
