//go:build linux

package sfu

import (
	"runtime"
	"testing"
	"time"

	"github.com/pion/rtp"
	"golang.org/x/sys/unix"
)

// BenchmarkForward is the CPU of one forwarded audio packet on the whole
// path (issue 43): a publisher's packet through the receiver's fan-out to
// 50 WHEP subscribers (the audio benchmark's 500 over 10 publishers), each
// down track's rewriting, the direct path's AES-GCM and the batched
// port's sendmmsg to the subscribers' real sockets, one fan-out every
// 2 ms (the benchmark's 25,000 datagrams a second). The fan-out runs on
// a goroutine locked to its thread, and the thread's own CPU time
// (getrusage RUSAGE_THREAD), user and system apart, is divided by the
// datagrams sent: a figure per packet that the machine's other load does
// not inflate as it does wall time. The subscribers' own reading, in the
// same process, is not counted.
//
//	go test ./internal/sfu -run '^$' -bench Forward -benchtime 2000x -count 3
func BenchmarkForward(b *testing.B) {
	rg := newRig(b, nil)
	const nsubs = 50
	r, seq := fanOut(b, rg, nsubs)
	// The publisher sends nothing more; the benchmark's packets follow
	// its numbers.
	p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SSRC: 1, SequenceNumber: seq + 100}, Payload: make([]byte, 80)}
	p.Payload[0] = idA
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	step := func() {
		<-tick.C
		p.SequenceNumber++
		p.Timestamp += 960
		r.forward(&p, 0)
	}
	for range 500 { // warm: the pools and the port's queues at their size
		step()
	}
	before := rg.sfu.Stats().Forwarded
	u0, s0 := threadCPU(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		step()
	}
	b.StopTimer()
	u1, s1 := threadCPU(b)
	sent := rg.sfu.Stats().Forwarded - before
	if sent != uint64(b.N)*nsubs {
		b.Fatalf("%d packets forwarded of %d", sent, b.N*nsubs)
	}
	b.ReportMetric(float64(u1-u0)/float64(sent), "user-ns/pkt")
	b.ReportMetric(float64(s1-s0)/float64(sent), "sys-ns/pkt")
	b.ReportMetric(float64(u1-u0+s1-s0)/float64(sent), "cpu-ns/pkt")
}

// threadCPU is the calling thread's user and system CPU time so far, in
// nanoseconds.
func threadCPU(b *testing.B) (user, sys int64) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano(), ru.Stime.Nano()
}
