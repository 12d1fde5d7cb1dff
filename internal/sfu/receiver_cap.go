package sfu

import (
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
)

// Bandwidth caps towards the publisher (docs/sip-media.md "Bandwidth",
// RFC 5104 TMMBR, REMB): a subscriber that declares a cap (a SIP
// terminal's b=TIAS, b=AS or TMMBR: Local.CapVideo) receives a simulcast
// source in the layer that fits; a source of one layer has nothing to
// choose from, so the least cap among the down tracks following it is
// asked of its publisher: a REMB to a WebRTC publisher, OnBitrateRequest
// to a local one (a SIP terminal: TMMBR). A WebRTC subscriber's own
// estimate is not asked for (docs/sip-media.md says why).

// liftBps is what a REMB asks once the last cap ended: REMB has no way
// to withdraw a limit, and the publisher's own estimate stays the
// bound under it.
const liftBps = 100_000_000

// updateCap asks the publisher for the least cap of the down tracks
// following r, when it changed; no lock of the SFU may be held.
func (r *receiver) updateCap() {
	if r == nil || r.kind != webrtc.RTPCodecTypeVideo || r.simulcast.Load() || r.sess == nil {
		return
	}
	least := 0
	for _, d := range *r.downs.Load() {
		if c := int(d.capBps.Load()); c > 0 && (least == 0 || c < least) {
			least = c
		}
	}
	r.capMu.Lock()
	changed := least != r.capAsked
	r.capAsked = least
	r.capMu.Unlock()
	if changed {
		// The request leaves on a goroutine of its own (the callback may
		// write into a socket, the caller may be inside a rewire); each
		// sends the cap current when it runs, under capMu, so the last
		// request sent is the latest cap.
		go r.askCap()
	}
}

// askCap sends the current cap (0: none) to the publisher.
func (r *receiver) askCap() {
	r.capMu.Lock()
	defer r.capMu.Unlock()
	bps := r.capAsked
	if l := r.sess.local; l != nil {
		if l.opts.OnBitrateRequest != nil {
			l.opts.OnBitrateRequest(bps)
		}
		return
	}
	if r.sess.pc == nil {
		return
	}
	r.mu.Lock()
	var ssrcs []uint32
	for l := range numLayers {
		if r.has[l] {
			ssrcs = append(ssrcs, r.ssrc[l])
		}
	}
	r.mu.Unlock()
	if bps == 0 {
		bps = liftBps
	}
	_ = r.sess.pc.WriteRTCP([]rtcp.Packet{&rtcp.ReceiverEstimatedMaximumBitrate{Bitrate: float32(bps), SSRCs: ssrcs}})
}
