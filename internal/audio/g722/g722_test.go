package g722

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/confer-platform/confer/internal/audio/tone"
)

// TestRoundTrip: a 440 Hz and a 5 kHz tone (the upper band) come back
// from the encoder and decoder at their level.
func TestRoundTrip(t *testing.T) {
	pcm := tone.Sine(440, 6000, 16000, 0, 16000)
	for i, s := range tone.Sine(5000, 3000, 16000, 0, 16000) {
		pcm[i] += s
	}
	out := NewDecoder().Decode(nil, NewEncoder().Encode(nil, pcm))
	if len(out) != len(pcm) {
		t.Fatalf("%d samples back of %d", len(out), len(pcm))
	}
	tail := out[8000:]
	if l := tone.Level(tail, 440, 16000); l < 5000 || l > 7000 {
		t.Errorf("440 Hz at %.0f, want about 6000", l)
	}
	if l := tone.Level(tail, 5000, 16000); l < 2300 || l > 3700 {
		t.Errorf("5 kHz at %.0f, want about 3000", l)
	}
	if l := tone.Level(tail, 1000, 16000); l > 300 {
		t.Errorf("1 kHz at %.0f, want none", l)
	}
}

// TestFFmpeg: ffmpeg's G.722 decoder hears what the encoder encodes, and
// the decoder hears what ffmpeg's encoder encodes.
func TestFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	dir := t.TempDir()
	pcm := tone.Sine(660, 6000, 16000, 0, 16000)
	code := filepath.Join(dir, "ours.g722")
	if err := os.WriteFile(code, NewEncoder().Encode(nil, pcm), 0o600); err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(dir, "ffmpeg.raw")
	run(t, "ffmpeg", "-v", "error", "-f", "g722", "-i", code, "-f", "s16le", "-ar", "16000", "-ac", "1", raw)
	b, _ := os.ReadFile(raw)
	got := make([]int16, len(b)/2)
	binary.Read(bytes.NewReader(b), binary.LittleEndian, got)
	if l := tone.Level(got[len(got)/2:], 660, 16000); l < 5000 || l > 7000 {
		t.Errorf("ffmpeg decodes our 660 Hz at %.0f, want about 6000", l)
	}

	in := filepath.Join(dir, "in.raw")
	var w bytes.Buffer
	binary.Write(&w, binary.LittleEndian, pcm)
	os.WriteFile(in, w.Bytes(), 0o600)
	theirs := filepath.Join(dir, "theirs.g722")
	run(t, "ffmpeg", "-v", "error", "-f", "s16le", "-ar", "16000", "-ac", "1", "-i", in, "-f", "g722", theirs)
	c, _ := os.ReadFile(theirs)
	out := NewDecoder().Decode(nil, c)
	if l := tone.Level(out[len(out)/2:], 660, 16000); l < 5000 || l > 7000 {
		t.Errorf("we decode ffmpeg's 660 Hz at %.0f, want about 6000", l)
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if msg, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", name, err, msg)
	}
}
