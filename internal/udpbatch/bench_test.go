//go:build linux

package udpbatch

import (
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"
)

// BenchmarkFanOut writes one 120-byte datagram (an Opus packet in SRTP) to
// each of 100 destinations per op, through a plain socket (one sendto a
// datagram, pion's path) and through a Conn, side by side. cpu-ns/dgram is
// the process's CPU time (user and system) per datagram, the figure of
// issue 43; the sinks do not read (the kernel drops what overflows their
// buffers alike for both).
//
//	go test ./internal/udpbatch -run '^$' -bench FanOut -benchtime 2000x
func BenchmarkFanOut(b *testing.B) {
	sinks := make([]netip.AddrPort, 100)
	for i := range sinks {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		sinks[i] = c.LocalAddr().(*net.UDPAddr).AddrPort()
	}
	p := make([]byte, 120)
	b.Run("plain", func(b *testing.B) {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		_ = c.SetWriteBuffer(4 << 20)
		cpu := cpuTime()
		for b.Loop() {
			for _, s := range sinks {
				if _, err := c.WriteToUDPAddrPort(p, s); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*len(sinks)), "cpu-ns/dgram")
		b.ReportMetric(1, "dgrams/syscall")
	})
	b.Run("batched", func(b *testing.B) {
		c, err := Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		_ = c.SetWriteBuffer(4 << 20)
		before := c.Stats()
		cpu := cpuTime()
		for b.Loop() {
			for _, s := range sinks {
				if _, err := c.WriteToAddrPort(p, s); err != nil {
					b.Fatal(err)
				}
			}
		}
		want := before.Wrote + before.Dropped + uint64(b.N*len(sinks))
		for st := c.Stats(); st.Wrote+st.Dropped < want; st = c.Stats() {
			time.Sleep(100 * time.Microsecond) // the writer goroutine's last batch
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*len(sinks)), "cpu-ns/dgram")
		st := c.Stats()
		b.ReportMetric(float64(st.Wrote-before.Wrote)/float64(max(st.WriteCalls-before.WriteCalls, 1)), "dgrams/syscall")
	})
}

// BenchmarkHeldFanOut is a forwarder's fan-out as the SFU does it: one
// packet to 50 subscribers under a Hold, then a pause (the next packet of
// a publisher comes 20 ms later, 2 ms here: ten publishers), so that every
// fan-out finds the Conn idle. cpu-ns/dgram is the process's CPU time a
// datagram: the system calls, and the hand-off to a writer goroutine when
// there is one.
//
//	go test ./internal/udpbatch -run '^$' -bench HeldFanOut -benchtime 500x
func BenchmarkHeldFanOut(b *testing.B) {
	sinks := make([]netip.AddrPort, 50)
	for i := range sinks {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		sinks[i] = c.LocalAddr().(*net.UDPAddr).AddrPort()
	}
	p := make([]byte, 120)
	c, err := Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	before := c.Stats()
	cpu := cpuTime()
	for b.Loop() {
		c.Hold()
		for _, s := range sinks {
			if _, err := c.WriteToAddrPort(p, s); err != nil {
				b.Fatal(err)
			}
		}
		c.Release()
		time.Sleep(2 * time.Millisecond)
	}
	want := before.Wrote + before.Dropped + uint64(b.N*len(sinks))
	for st := c.Stats(); st.Wrote+st.Dropped < want; st = c.Stats() {
		time.Sleep(100 * time.Microsecond)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N*len(sinks)), "cpu-ns/dgram")
	st := c.Stats()
	b.ReportMetric(float64(st.Wrote-before.Wrote)/float64(max(st.WriteCalls-before.WriteCalls, 1)), "dgrams/syscall")
}

// cpuTime is the process's user and system CPU time so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
