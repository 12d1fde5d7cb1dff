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

// TestLacking: the four talkers' tones are told apart within one 20 ms
// frame at 48 kHz, whatever their phases, and a missing one is found.
func TestLacking(t *testing.T) {
	const frame = 960
	for start := 0; start < 48000; start += 4801 {
		for missing := -1; missing < len(Talkers); missing++ {
			pcm := make([]int16, frame)
			for k, f := range Talkers {
				if k == missing {
					continue
				}
				for i, s := range Sine(f, TalkerAmp, 48000, start+k*137, frame) {
					pcm[i] += s
				}
			}
			if got := Lacking(pcm, 48000, Talkers[:]...); got != missing {
				t.Errorf("start %d, tone %d missing: Lacking says %d", start, missing, got)
			}
			if missing >= 0 {
				if l := Level(pcm, Talkers[missing], 48000); l > 10 {
					t.Errorf("start %d: %v Hz not sent measures %.0f, want about 0 (no leakage)", start, Talkers[missing], l)
				}
			}
		}
	}
}
