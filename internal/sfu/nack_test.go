package sfu

import (
	"testing"

	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
)

// A subscriber's NACK (RFC 4585 section 6.2.1) is answered from the SFU's
// send buffer: the packet arrives again (over RTX, unwrapped by pion).
func TestNACKRetransmits(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127})
	sub := rg.subscribe("c1", "?mt_id="+p.mtID, "sub")
	sub.flowing(t, "video/65", 50)

	var ssrc webrtc.SSRC
	for _, tr := range sub.pc.GetTransceivers() {
		if tr.Kind() == webrtc.RTPCodecTypeVideo && tr.Receiver().Track() != nil {
			ssrc = tr.Receiver().Track().SSRC()
		}
	}
	sub.mu.Lock()
	seqs := sub.seqs["video"]
	lost := seqs[len(seqs)-10]
	sub.mu.Unlock()
	seen := func() int {
		sub.mu.Lock()
		defer sub.mu.Unlock()
		n := 0
		for _, s := range sub.seqs["video"] {
			if s == lost {
				n++
			}
		}
		return n
	}
	if err := sub.pc.WriteRTCP([]rtcp.Packet{&rtcp.TransportLayerNack{
		MediaSSRC: uint32(ssrc), Nacks: rtcp.NackPairsFromSequenceNumbers([]uint16{lost}),
	}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the NACKed packet again", func() bool { return seen() >= 2 })
}

// A packet lost on the way from a publisher is asked again with a NACK
// (pion's generator on the SFU's receiving side).
func TestNACKToPublisher(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127, skipSeq: 300})
	waitFor(t, "a NACK for the lost packet 300", func() bool { return p.nacked.has(300) })
}
