package sip

import "testing"

func TestG711Level(t *testing.T) {
	t.Parallel()
	loud := make([]byte, 160)
	quiet := make([]byte, 160)
	for i := range loud {
		if i%2 == 0 {
			loud[i] = 0x80 // µ-law: +32124, near full scale
		} else {
			loud[i] = 0x00 // µ-law: -32124
		}
		quiet[i] = 0xff // µ-law: 0
	}
	if l, ok := g711Level("PCMU", loud); !ok || l > 1 {
		t.Errorf("loud µ-law level %d, want about 0", l)
	}
	if l, ok := g711Level("PCMU", quiet); !ok || l != 127 {
		t.Errorf("silent µ-law level %d, want 127", l)
	}
	for i := range quiet {
		quiet[i] = 0xd5 // A-law: the smallest positive sample
	}
	if l, ok := g711Level("PCMA", quiet); !ok || l < 70 {
		t.Errorf("quiet A-law level %d, want below -70 dBov", l)
	}
	if _, ok := g711Level("opus", quiet); ok {
		t.Error("opus measured")
	}
}
