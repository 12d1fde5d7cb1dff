//go:build linux

package udpbatch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

func loopback(t testing.TB) *Conn {
	t.Helper()
	c, err := Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadBuffer(8 << 20)
	_ = c.SetWriteBuffer(8 << 20)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func addrOf(c *Conn) netip.AddrPort { return c.LocalAddr().(*net.UDPAddr).AddrPort() }

// Datagrams written by several goroutines at once all arrive, whole, with
// the sender's address, each goroutine's in its order.
func TestConcurrentWritersArriveWhole(t *testing.T) {
	a, b := loopback(t), loopback(t)
	const writers, each = 4, 250
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := make([]byte, 8+(w*each+i)%1200)
				binary.BigEndian.PutUint32(p, uint32(w))
				binary.BigEndian.PutUint32(p[4:], uint32(i))
				for k := 8; k < len(p); k++ {
					p[k] = byte(k + i)
				}
				if _, err := a.WriteToAddrPort(p, addrOf(b)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	next := make([]uint32, writers)
	buf := make([]byte, MaxDatagram)
	for got := 0; got < writers*each; got++ {
		n, from, err := b.ReadFromAddrPort(buf)
		if err != nil {
			t.Fatal(err)
		}
		if from != addrOf(a) {
			t.Fatalf("from %v, want %v", from, addrOf(a))
		}
		w, i := binary.BigEndian.Uint32(buf), binary.BigEndian.Uint32(buf[4:])
		if w >= writers || i != next[w] {
			t.Fatalf("datagram %d of writer %d, want %d", i, w, next[w])
		}
		next[w]++
		if want := 8 + (int(w)*each+int(i))%1200; n != want {
			t.Fatalf("datagram %d/%d is %d bytes, want %d", w, i, n, want)
		}
		for k := 8; k < n; k++ {
			if buf[k] != byte(k+int(i)) {
				t.Fatalf("datagram %d/%d corrupt at %d", w, i, k)
			}
		}
	}
	wg.Wait()
	_ = a.Close() // waits for the writer goroutine: its counts are final
	sa, sb := a.Stats(), b.Stats()
	if sb.Read != writers*each || sb.ReadCalls == 0 || sb.ReadCalls > sb.Read {
		t.Errorf("reader: %+v", sb)
	}
	if sa.Wrote != writers*each || sa.Dropped != 0 || sa.WriteCalls > sa.Wrote {
		t.Errorf("writer: %+v", sa)
	}
	t.Logf("%d datagrams: %d sendmmsg, %d recvmmsg", writers*each, sa.WriteCalls, sb.ReadCalls)
}

// One datagram to each of many destinations, as a forwarder's fan-out,
// reaches every one of them.
func TestFanOut(t *testing.T) {
	src := loopback(t)
	sinks := make([]*Conn, 50)
	for i := range sinks {
		sinks[i] = loopback(t)
	}
	for round := range 20 {
		for _, s := range sinks {
			if _, err := src.WriteTo([]byte{byte(round)}, s.LocalAddr()); err != nil {
				t.Fatal(err)
			}
		}
	}
	buf := make([]byte, 16)
	for i, s := range sinks {
		for round := range 20 {
			n, from, err := s.ReadFrom(buf)
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 || buf[0] != byte(round) || from.String() != src.LocalAddr().String() {
				t.Fatalf("sink %d round %d: %v from %v", i, round, buf[:n], from)
			}
		}
	}
}

// In steady state, a datagram written and read costs no allocation (the
// forwarding path's budget, issue 43).
func TestNoAllocationPerDatagram(t *testing.T) {
	a, b := loopback(t), loopback(t)
	p, buf, to := bytes.Repeat([]byte{7}, 200), make([]byte, MaxDatagram), addrOf(b)
	step := func() {
		if _, err := a.WriteToAddrPort(p, to); err != nil {
			t.Fatal(err)
		}
		if _, _, err := b.ReadFromAddrPort(buf); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%v allocations a datagram", n)
	}
}

// Close ends a blocked read and later writes with net.ErrClosed, and stops
// the writer goroutine (Close returns after it).
func TestClose(t *testing.T) {
	a := loopback(t)
	read := make(chan error, 1)
	go func() {
		_, _, err := a.ReadFromAddrPort(make([]byte, 10))
		read <- err
	}()
	if _, err := a.WriteToAddrPort([]byte("x"), netip.MustParseAddrPort("127.0.0.1:9")); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-read; !errors.Is(err, net.ErrClosed) {
		t.Errorf("blocked read after Close: %v", err)
	}
	if _, err := a.WriteToAddrPort([]byte("x"), netip.MustParseAddrPort("127.0.0.1:9")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("write after Close: %v", err)
	}
	<-a.done
}

// An IPv4 socket refuses an IPv6 destination at once; a v4-mapped one is
// sent as IPv4.
func TestAddressFamily(t *testing.T) {
	a, b := loopback(t), loopback(t)
	if _, err := a.WriteToAddrPort([]byte("x"), netip.MustParseAddrPort("[::1]:9")); err == nil {
		t.Error("an IPv6 destination was accepted by an IPv4 socket")
	}
	mapped := netip.AddrPortFrom(netip.AddrFrom16(addrOf(b).Addr().As16()), addrOf(b).Port())
	if _, err := a.WriteToAddrPort([]byte("m"), mapped); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if n, _, err := b.ReadFromAddrPort(buf); err != nil || string(buf[:n]) != "m" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}

// IPv6 loopback, where the machine has it.
func TestIPv6(t *testing.T) {
	a, err := Listen("udp6", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	defer a.Close()
	b, err := Listen("udp6", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := a.WriteToAddrPort([]byte("six"), addrOf(b)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, from, err := b.ReadFromAddrPort(buf)
	if err != nil || string(buf[:n]) != "six" || from != addrOf(a) {
		t.Fatalf("read %q from %v: %v", buf[:n], from, err)
	}
}

// A datagram the kernel refuses (one to port 0: EINVAL) is dropped and
// counted with its error number, and the next datagram is sent.
func TestRefusedDatagramCounted(t *testing.T) {
	a, b := loopback(t), loopback(t)
	if _, err := a.WriteToAddrPort([]byte("refused"), netip.MustParseAddrPort("127.0.0.1:0")); err != nil {
		t.Fatal(err)
	}
	if _, err := a.WriteToAddrPort([]byte("after"), addrOf(b)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, _, err := b.ReadFromAddrPort(buf)
	if err != nil || string(buf[:n]) != "after" {
		t.Fatalf("read %q, %v; want the datagram after the refused one", buf[:n], err)
	}
	st := a.Stats()
	if st.Dropped != 1 || st.DropErrno != uint64(unix.EINVAL) || st.DroppedUnsent != 0 {
		t.Fatalf("dropped %d, errno %d, unsent %d; want 1, EINVAL (%d), 0", st.Dropped, st.DropErrno, st.DroppedUnsent, uint64(unix.EINVAL))
	}
}
