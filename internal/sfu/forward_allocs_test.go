package sfu

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pion/dtls/v3"
	"github.com/pion/interceptor"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// The forwarding path allocates nothing per packet in steady state (issue
// 43, the allocation budget): one publisher's audio packet goes through
// the receiver's fan-out, each subscriber's down track (rewriting), pion's
// interceptors, SRTP and the ICE UDP port to 20 real subscribers. The
// memory profile, at one sample an allocation while the packets go,
// counts what was allocated under (*receiver).forward: the process's
// other work (ICE keepalives, the subscribers) allocates by the second,
// not by the packet, and is not counted.
func TestForwardAllocations(t *testing.T) {
	for _, plain := range []bool{false, true} {
		t.Run(map[bool]string{false: "batched", true: "plain"}[plain], func(t *testing.T) {
			forwardAllocations(t, plain)
		})
	}
}

func forwardAllocations(t *testing.T, plain bool) {
	rg := newRig(t, func(c *Config) { c.PlainUDP = plain })
	const nsubs = 20
	r, seq := fanOut(t, rg, nsubs)
	p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SSRC: 1, SequenceNumber: seq + 100}, Payload: make([]byte, 80)}
	p.Payload[0] = idA
	step := func() {
		p.SequenceNumber++
		p.Timestamp += 960
		r.forward(&p, 0)
	}
	for range 1000 { // warm: the pools and the port's queues at their size
		step()
	}
	const n = 2000
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	defer func() { runtime.MemProfileRate = rate }()
	before, a0 := rg.sfu.Stats().Forwarded, allocsUnder(t, forwardFunc)
	for range n {
		step()
	}
	written, allocs := rg.sfu.Stats().Forwarded-before, allocsUnder(t, forwardFunc)-a0
	if written != n*nsubs {
		t.Fatalf("%d packets written of %d", written, n*nsubs)
	}
	t.Logf("%d allocations under the fan-out of %d packets", allocs, written)
	if per := float64(allocs) / float64(written); per >= 0.01 {
		t.Errorf("%.3f allocations a forwarded packet, want 0 in steady state", per)
	}
}

const forwardFunc = "internal/sfu.(*receiver).forward"

// allocsUnder counts the allocations of the memory profile (cumulative,
// as of a completed collection) whose stack passes through fn.
func allocsUnder(t *testing.T, fn string) int64 {
	t.Helper()
	runtime.GC()
	runtime.GC()
	var b bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&b, 1); err != nil {
		t.Fatal(err)
	}
	// Records: "I: IB [A: AB] @ pcs", then "#\tpc\tfunction+off\tfile:line"
	// lines (runtime/pprof's text format).
	var total, objs int64
	under := false
	for line := range strings.Lines(b.String()) {
		switch {
		case strings.Contains(line, " @ 0x"):
			if under {
				total += objs
			}
			under, objs = false, 0
			if i := strings.Index(line, "["); i >= 0 {
				_, _ = fmt.Sscanf(line[i+1:], "%d:", &objs)
			}
		case strings.HasPrefix(line, "#") && strings.Contains(line, fn):
			under = true
		}
	}
	if under {
		total += objs
	}
	return total
}

// quietSubscribe connects a WHEP subscriber that reads into one buffer
// and counts, with no interceptors: it allocates nothing per packet, so
// that the figure is the SFU's.
func (rg *testRig) quietSubscribe(conf, query string, got *atomic.Int64) *client {
	rg.t.Helper()
	return rg.quietSubscribeWith(conf, query, got)
}

// quietSubscribeWith is quietSubscribe offering only the SRTP protection
// profiles given (none: pion's defaults).
func (rg *testRig) quietSubscribeWith(conf, query string, got *atomic.Int64, profiles ...dtls.SRTPProtectionProfile) *client {
	rg.t.Helper()
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		rg.t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(0)
	if len(profiles) > 0 {
		se.SetSRTPProtectionProfiles(profiles...)
	}
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se), webrtc.WithInterceptorRegistry(&interceptor.Registry{})).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		rg.t.Fatal(err)
	}
	c := &client{rg: rg, pc: pc, token: "sub", stop: make(chan struct{})}
	rg.t.Cleanup(func() { _ = pc.Close() })
	if _, err := c.pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		rg.t.Fatal(err)
	}
	c.pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		buf := make([]byte, 1500)
		for {
			if _, _, err := t.Read(buf); err != nil {
				return
			}
			got.Add(1)
		}
	})
	c.connect(fmt.Sprintf("/rtc/whep/%s%s", conf, query), http.StatusCreated)
	return c
}

// fanOut publishes one audio track to nsubs quiet subscribers, and sends
// a few packets of the publisher's own until the receiver exists and
// every subscriber's down track follows it (counting packets alone is not
// enough: one subscriber may have two before another has its first). It
// returns the receiver and the last sequence number sent.
func fanOut(tb testing.TB, rg *testRig, nsubs int) (*receiver, uint16) {
	a := rg.publish("c1", idA, false, "")
	var got atomic.Int64
	for range nsubs {
		rg.quietSubscribe("c1", "?mt_id="+a.mtID, &got)
	}
	var seq uint16
	rm := rg.sfu.room("c1", false)
	var r *receiver
	waitFor(tb, "the subscribers' down tracks and first packets", func() bool {
		seq++
		_ = a.audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960}, Payload: []byte{idA, 0xfc, 0xff}})
		rm.mu.Lock()
		if m := rm.members[a.mtID]; m != nil {
			r = m.audio
		}
		rm.mu.Unlock()
		return r != nil && len(*r.downs.Load()) == nsubs && got.Load() >= int64(nsubs)
	})
	return r, seq
}
