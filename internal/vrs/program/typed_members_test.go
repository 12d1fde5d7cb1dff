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
	p := Program{Doc: map[string]any{}}
	SetParts(&p, 7, []FileInfo{{Rel: "d/7.webm", Bytes: 10, Duration: 1500 * time.Millisecond, Container: "webm"},
		{Rel: "d/7-2.webm", Duration: time.Second}})
	SetTranscoded(&p, 3, 2)
	b, err := shape.Encode(p.Doc)
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
	back, err := shape.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if r, s, ok := Transcoded(Program{Doc: back}); !ok || r != 3 || s != 2 {
		t.Fatalf("Transcoded as stored = %d %d %v", r, s, ok)
	}
	if _, _, ok := Transcoded(Program{Doc: map[string]any{}}); ok {
		t.Fatal("Transcoded of a program without one is ok")
	}
}
