package tone

import "testing"

func TestLevel(t *testing.T) {
	pcm := Sine(440, 8000, 48000, 0, 4800)
	for i, s := range Sine(880, 4000, 48000, 0, 4800) {
		pcm[i] += s
	}
	if l := Level(pcm, 440, 48000); l < 7600 || l > 8400 {
		t.Errorf("440 Hz level %.0f, want about 8000", l)
	}
	if l := Level(pcm, 880, 48000); l < 3600 || l > 4400 {
		t.Errorf("880 Hz level %.0f, want about 4000", l)
	}
	if l := Level(pcm, 660, 48000); l > 400 {
		t.Errorf("660 Hz level %.0f, want about 0", l)
	}
}
