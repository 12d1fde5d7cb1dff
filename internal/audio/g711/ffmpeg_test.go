package g711

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFFmpeg: the encoders give the bytes of ffmpeg's pcm_mulaw and
// pcm_alaw encoders for the same samples.
func TestFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	dir := t.TempDir()
	pcm := make([]int16, 0, 65536)
	for s := -32768; s <= 32767; s++ {
		pcm = append(pcm, int16(s))
	}
	raw := filepath.Join(dir, "in.raw")
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, pcm)
	if err := os.WriteFile(raw, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		format string
		enc    func([]byte, []int16) []byte
	}{{"mulaw", EncodeUlaw}, {"alaw", EncodeAlaw}} {
		out := filepath.Join(dir, c.format)
		cmd := exec.Command("ffmpeg", "-v", "error", "-f", "s16le", "-ar", "8000", "-ac", "1", "-i", raw, "-f", c.format, out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg: %v: %s", err, msg)
		}
		want, _ := os.ReadFile(out)
		got := c.enc(nil, pcm)
		diff := 0
		for i := range got {
			if i < len(want) && got[i] != want[i] {
				diff++
			}
		}
		if len(want) != len(got) || diff > 0 {
			t.Errorf("%s: %d of %d bytes differ from ffmpeg (%d bytes)", c.format, diff, len(got), len(want))
		}
	}
}
