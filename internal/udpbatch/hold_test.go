//go:build linux

package udpbatch

import (
	"sync"
	"testing"
)

// A fan-out under Hold leaves in full batches: 200 datagrams queued by
// 4 goroutines holding the Conn at once go out in 4 sendmmsg calls of 64,
// 64, 64 and 8 (WriteBatch 64), not one call for each wake-up of the
// writer, and every datagram arrives.
func TestHoldSendsFullBatches(t *testing.T) {
	a, b := loopback(t), loopback(t)
	const writers, each = 4, 50
	a.Hold() // the fan-out's own hold, around everyone's writes
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		a.Hold()
		go func() {
			defer wg.Done()
			defer a.Release()
			for range each {
				if _, err := a.WriteToAddrPort(make([]byte, 100), addrOf(b)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	a.Release()
	buf := make([]byte, MaxDatagram)
	for range writers * each {
		if _, _, err := b.ReadFromAddrPort(buf); err != nil {
			t.Fatal(err)
		}
	}
	_ = a.Close()
	st := a.Stats()
	if st.Wrote != writers*each || st.Dropped != 0 {
		t.Fatalf("wrote %d, dropped %d; want %d, 0", st.Wrote, st.Dropped, writers*each)
	}
	if want := uint64((writers*each + WriteBatch - 1) / WriteBatch); st.WriteCalls != want {
		t.Fatalf("%d sendmmsg calls for %d datagrams under Hold, want %d (full batches)", st.WriteCalls, st.Wrote, want)
	}
}

// Release of the last Hold sends what was queued under it, even one
// datagram; a write with no Hold leaves at once.
func TestReleaseSendsTheRest(t *testing.T) {
	a, b := loopback(t), loopback(t)
	buf := make([]byte, MaxDatagram)
	a.Hold()
	a.Hold()
	if _, err := a.WriteToAddrPort([]byte("held"), addrOf(b)); err != nil {
		t.Fatal(err)
	}
	a.Release()
	a.Release()
	if n, _, err := b.ReadFromAddrPort(buf); err != nil || string(buf[:n]) != "held" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if _, err := a.WriteToAddrPort([]byte("free"), addrOf(b)); err != nil {
		t.Fatal(err)
	}
	if n, _, err := b.ReadFromAddrPort(buf); err != nil || string(buf[:n]) != "free" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}
