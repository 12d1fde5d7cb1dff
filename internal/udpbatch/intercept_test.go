//go:build linux

package udpbatch

import (
	"net/netip"
	"testing"
)

// The intercept sees every datagram first; what it takes no reader sees,
// and it may answer from within (TryWriteToAddrPort: a write that never
// waits).
func TestInterceptTakesAndAnswers(t *testing.T) {
	a, b := loopback(t), loopback(t)
	b.SetIntercept(func(p []byte, from netip.AddrPort) bool {
		if p[0] != 'x' {
			return false
		}
		if !b.TryWriteToAddrPort(append([]byte("answer "), p...), from) {
			t.Error("TryWriteToAddrPort: not queued")
		}
		return true
	})
	for _, s := range []string{"x1", "keep1", "x2", "x3", "keep2"} {
		if _, err := a.WriteToAddrPort([]byte(s), addrOf(b)); err != nil {
			t.Fatal(err)
		}
	}
	buf := make([]byte, MaxDatagram)
	for _, want := range []string{"keep1", "keep2"} {
		n, from, err := b.ReadFromAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(buf[:n]); got != want || from != addrOf(a) {
			t.Fatalf("ReadFromAddrPort = %q from %v, want %q from %v", got, from, want, addrOf(a))
		}
	}
	for _, want := range []string{"answer x1", "answer x2", "answer x3"} {
		n, from, err := a.ReadFromAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(buf[:n]); got != want || from != addrOf(b) {
			t.Fatalf("answer = %q from %v, want %q from %v", got, from, want, addrOf(b))
		}
	}
	if st := b.Stats(); st.Intercepted != 3 {
		t.Errorf("Stats().Intercepted = %d, want 3", st.Intercepted)
	}
	b.SetIntercept(nil)
	if _, err := a.WriteToAddrPort([]byte("x4"), addrOf(b)); err != nil {
		t.Fatal(err)
	}
	if n, _, err := b.ReadFromAddrPort(buf); err != nil || string(buf[:n]) != "x4" {
		t.Fatalf("after SetIntercept(nil): ReadFromAddrPort = %q, %v, want \"x4\"", buf[:n], err)
	}
}
