package g711

import "testing"

// Known values of the G.711 tables: silence, the extremes, a sign.
func TestKnownValues(t *testing.T) {
	for _, c := range []struct {
		s    int16
		u, a byte
	}{{0, 0xff, 0xd5}, {32767, 0x80, 0xaa}, {-32768, 0x00, 0x2a}, {-1, 0x7e, 0x55}, {1000, 0xce, 0xfa}} {
		if got := LinearToUlaw(c.s); got != c.u {
			t.Errorf("µ-law of %d = %#x, want %#x", c.s, got, c.u)
		}
		if got := LinearToAlaw(c.s); got != c.a {
			t.Errorf("A-law of %d = %#x, want %#x", c.s, got, c.a)
		}
	}
	if UlawToLinear(0x80) != 32124 || UlawToLinear(0xff) != 0 {
		t.Errorf("µ-law decode: 0x80 -> %d, 0xff -> %d", UlawToLinear(0x80), UlawToLinear(0xff))
	}
	if AlawToLinear(0xaa) != 32256 || AlawToLinear(0xd5) != 8 {
		t.Errorf("A-law decode: 0xaa -> %d, 0xd5 -> %d", AlawToLinear(0xaa), AlawToLinear(0xd5))
	}
}

// Every code decodes to a value that encodes back to the same code (the
// tables are each other's inverse), and encoding is monotonic.
func TestRoundTrip(t *testing.T) {
	for c := 0; c < 256; c++ {
		if u := LinearToUlaw(UlawToLinear(byte(c))); u != byte(c) && !(c == 0x7f && u == 0xff) {
			t.Errorf("µ-law %#x -> %d -> %#x", c, UlawToLinear(byte(c)), u)
		}
		if a := LinearToAlaw(AlawToLinear(byte(c))); a != byte(c) {
			t.Errorf("A-law %#x -> %d -> %#x", c, AlawToLinear(byte(c)), a)
		}
	}
	prevU, prevA := int16(-32768), int16(-32768)
	for s := -32768; s <= 32767; s += 7 {
		u, a := UlawToLinear(LinearToUlaw(int16(s))), AlawToLinear(LinearToAlaw(int16(s)))
		if u < prevU || a < prevA {
			t.Fatalf("not monotonic at %d", s)
		}
		prevU, prevA = u, a
		if d := int(u) - s; s > -32000 && s < 32000 && (d > 1200 || d < -1200) {
			t.Fatalf("µ-law error %d at %d", d, s)
		}
	}
}
