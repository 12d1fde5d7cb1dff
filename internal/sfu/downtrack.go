package sfu

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// source says what a down track follows.
type source int

const (
	srcFixed     source = iota // one terminal (WHEP ?mt_id=N)
	srcBroadcast               // the speaker, else the most recently active publisher
	srcDual                    // the conference's dual stream (screen share)
)

// downTrack is one outgoing track of a subscriber (LiveKit's DownTrack with
// its forwarder): it follows one receiver at a time and rewrites SSRC,
// payload type, sequence numbers, timestamps and header extension ids, so
// several sources and layers switched onto it form one continuous stream
// (SRTP replay protection drops repeated sequence numbers, RFC 3711 3.3.2).
type downTrack struct {
	id, streamID string
	kind         webrtc.RTPCodecType
	mime         string // codec bound (for interceptors); see pts
	sess         *session
	mode         source
	fixed        string // mt_id of srcFixed
	composed     bool   // srcBroadcast: the composed picture while a composition runs
	packets      atomic.Uint64
	bytes        atomic.Uint64
	octets       atomic.Uint64 // payload bytes written: the sender report's count (reports.go)
	meter        rateMeter     // the bitrate the terminal's channel reports (channels.go)
	rr           rrStats       // what the subscriber's receiver reports say (quality.go)
	capBps       atomic.Int64  // the subscriber's declared cap, bits a second, 0 none (receiver_cap.go)

	// Lock discipline (docs/sfu-internals.md "Lock discipline"): mu guards the
	// forwarding state and is never held across a call out of the track
	// (a write into the sink, a key frame request to the source); wmu
	// orders the writes into the sink, is taken before mu and only by
	// writeRTP and close's barrier, and guards hdr and told.
	wmu   sync.Mutex
	told  *receiver // the source a FormatWriter sink was last told of
	mu    sync.Mutex
	bound bool
	ssrc  uint32
	pt    uint8
	pts   map[string]uint8 // negotiated payload type of each codec (lower-case MIME type)
	// ptSrc and ptOf cache pts of the current source's codec (prepare):
	// a map lookup by string a packet was a tenth of the rewriting.
	ptSrc     *receiver
	ptOf      uint8
	ptOK      bool
	clockRate uint32 // the bound codec's, for sender reports
	levelID   uint8
	ws        RTPWriter // the connection's write stream, or a local endpoint's writer
	src       *receiver
	maxLayer  int // from the rendered size
	bwLayer   int // from the bandwidth estimate
	bwBytes   uint64
	bwAt      time.Time
	// A layer held down by a past congestion is tried again (setBandwidth):
	// bwDownAt is the last step down or trial, bwTrialAt the pending trial
	// (zero: none), bwBackoff the wait before the next one.
	bwDownAt, bwTrialAt time.Time
	bwBackoff           time.Duration
	curLayer            int
	needSync            bool
	started             bool
	// forwarder state
	snOffset  uint16
	tsOffset  uint32
	lastSeq   uint16
	lastTS    uint32
	lastWrite time.Time
	baseSeq   uint16 // packets before it belong to a previous source or layer
	highestIn uint16
	hdr       rtp.Header

	// The direct path (direct.go): directWanted holds the track's writes
	// until the connection is up and startDirect chose direct or pion's
	// writer (pionWS, the connection's write stream).
	directWanted bool
	direct       *directWriter
	pionWS       RTPWriter
}

func newDownTrack(s *session, kind webrtc.RTPCodecType, mime string, mode source, fixed string) *downTrack {
	return &downTrack{
		id: kind.String(), streamID: "confer-" + s.id, kind: kind, mime: mime,
		sess: s, mode: mode, fixed: fixed, maxLayer: layerHigh, bwLayer: layerHigh, needSync: true,
		meter: newRateMeter(),
	}
}

// Bind implements webrtc.TrackLocal: the negotiated SSRC, payload type and
// extension ids of this subscriber's connection.
func (d *downTrack) Bind(ctx webrtc.TrackLocalContext) (webrtc.RTPCodecParameters, error) {
	codecs := ctx.CodecParameters()
	var chosen *webrtc.RTPCodecParameters
	for i, c := range codecs {
		if strings.EqualFold(c.MimeType, d.mime) {
			chosen = &codecs[i]
			break
		}
	}
	if chosen == nil {
		for i, c := range codecs {
			if !strings.EqualFold(c.MimeType, webrtc.MimeTypeRTX) {
				chosen = &codecs[i]
				break
			}
		}
	}
	if chosen == nil {
		return webrtc.RTPCodecParameters{}, webrtc.ErrUnsupportedCodec
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.bound, d.ssrc, d.pt, d.pionWS = true, uint32(ctx.SSRC()), uint8(chosen.PayloadType), ctx.WriteStream()
	switch {
	case d.directWanted:
		d.ws = nil // startDirect decides
	case d.direct != nil:
		d.ws = d.direct
	default:
		d.ws = d.pionWS
	}
	d.mime, d.clockRate, d.ptSrc = chosen.MimeType, chosen.ClockRate, nil
	// A source in another negotiated codec is sent with that codec's
	// payload type: one m-line may carry several (RFC 3264 section 5.1).
	d.pts = map[string]uint8{}
	for _, c := range codecs {
		m := strings.ToLower(c.MimeType)
		if _, ok := d.pts[m]; !ok && m != strings.ToLower(webrtc.MimeTypeRTX) {
			d.pts[m] = uint8(c.PayloadType)
		}
	}
	d.pts[strings.ToLower(d.mime)] = d.pt
	for _, h := range ctx.HeaderExtensions() {
		if h.URI == AudioLevelURI {
			d.levelID = uint8(h.ID)
		}
	}
	return *chosen, nil
}

// Unbind implements webrtc.TrackLocal.
func (d *downTrack) Unbind(webrtc.TrackLocalContext) error {
	d.mu.Lock()
	d.bound = false
	d.mu.Unlock()
	return nil
}

// ID implements webrtc.TrackLocal.
func (d *downTrack) ID() string { return d.id }

// RID implements webrtc.TrackLocal.
func (d *downTrack) RID() string { return "" }

// StreamID implements webrtc.TrackLocal.
func (d *downTrack) StreamID() string { return d.streamID }

// Kind implements webrtc.TrackLocal.
func (d *downTrack) Kind() webrtc.RTPCodecType { return d.kind }

// setSource points the track at r (nil: forward nothing). A change waits for
// a key frame of r, which is asked for at once (PLI on subscribe/switch).
func (d *downTrack) setSource(r *receiver) {
	d.mu.Lock()
	old := d.src
	if old == r {
		d.mu.Unlock()
		return
	}
	d.src, d.needSync = r, true
	layer := layerLow
	if r != nil {
		layer = r.bestLayer(d.want())
	}
	d.mu.Unlock()
	// The cap is read after the move: a CapVideo meanwhile sees d.src
	// and its list as they are now (receiver_cap.go).
	if old != nil {
		old.removeDown(d)
		if d.capBps.Load() > 0 {
			old.updateCap()
		}
	}
	if r != nil {
		r.addDown(d)
		if d.capBps.Load() > 0 {
			r.updateCap()
		}
		r.requestKeyFrame(layer)
	}
}

// want is the layer wanted: the rendered size's, capped by the bandwidth
// estimate's; caller holds d.mu.
func (d *downTrack) want() int { return min(d.maxLayer, d.bwLayer) }

// setMaxLayer sets the highest simulcast layer the subscriber's rendered
// size needs; the switch happens on the new layer's next key frame.
func (d *downTrack) setMaxLayer(l int) {
	d.mu.Lock()
	d.maxLayer = min(max(l, layerLow), layerHigh)
	d.mu.Unlock()
	d.askTarget()
}

// Trials of a higher layer (setBandwidth).
const (
	bwTrialAfter = 5 * time.Second  // the first trial after a step down
	bwTrialMax   = 20 * time.Second // the longest wait after failed trials (a load that ended)
	bwTrialGrace = 5 * time.Second  // the estimate catches up with the tried layer
)

// setBandwidth applies the subscriber's bandwidth estimate (GCC on its
// TWCC feedback). An estimate below 80 % of what this track sends means
// congestion: the cap steps one layer below the current one. An estimate
// that carries the next layer's bitrate lifts the cap one layer.
//
// Without probing GCC's estimate never exceeds 1.5 times what the
// subscriber receives (pion's rate controller), so a subscriber stepped
// down to the lowest layer (a CPU load, a passing congestion) would stay
// there for good: 1.5 times 320x180 is below the next layer's bitrate
// (issue 35: 320x180 long after the load ended). So the layer is tried
// again: once the estimate has not fallen below what is sent for
// bwTrialAfter since the step down, the cap rises one layer; for
// bwTrialGrace the congestion rule waits for the estimate to follow the
// new rate. A trial the congestion rule ends within twice the grace
// doubles the wait before the next one (up to bwTrialMax); a trial that
// holds resets it.
func (d *downTrack) setBandwidth(bps int) {
	if d.kind != webrtc.RTPCodecTypeVideo {
		return
	}
	now := time.Now()
	total := d.bytes.Load()
	d.mu.Lock()
	sent := 0.0
	if el := now.Sub(d.bwAt).Seconds(); !d.bwAt.IsZero() && el > 0 {
		sent = float64(total-d.bwBytes) * 8 / el
	}
	d.bwBytes, d.bwAt = total, now
	old := d.bwLayer
	trial := !d.bwTrialAt.IsZero()
	if d.bwBackoff == 0 {
		d.bwBackoff = bwTrialAfter
	}
	switch {
	case trial && now.Sub(d.bwTrialAt) < bwTrialGrace:
		// the estimate catches up with the tried layer's rate
	case sent > 0 && float64(bps) < 0.8*sent && d.curLayer > layerLow:
		d.bwLayer = min(d.bwLayer, d.curLayer-1)
		if trial {
			d.bwBackoff = min(2*d.bwBackoff, bwTrialMax)
		}
		d.bwDownAt, d.bwTrialAt = now, time.Time{}
	case d.bwLayer < layerHigh && bps >= layerBitrate[d.bwLayer+1]:
		d.bwLayer++
	case d.bwLayer < min(d.maxLayer, layerHigh) && d.curLayer == d.bwLayer && !d.bwDownAt.IsZero() &&
		now.Sub(d.bwDownAt) >= d.bwBackoff && sent > 0 && float64(bps) >= sent:
		d.bwLayer++
		d.bwDownAt, d.bwTrialAt = now, now
	}
	if !d.bwTrialAt.IsZero() && now.Sub(d.bwTrialAt) >= 2*bwTrialGrace {
		d.bwTrialAt, d.bwBackoff = time.Time{}, bwTrialAfter // the trial held
	}
	changed := d.bwLayer != old
	d.mu.Unlock()
	if changed {
		d.askTarget()
	}
}

// askTarget asks the source for a key frame of the layer now wanted.
func (d *downTrack) askTarget() {
	d.mu.Lock()
	r, w := d.src, d.want()
	d.mu.Unlock()
	if r != nil {
		r.requestKeyFrame(r.bestLayer(w))
	}
}

// writeRTP forwards one packet of layer of r, if r is the current source,
// and reports whether it was written; now is when the fan-out began (one
// clock read for all its subscribers). The packet is rewritten under mu
// and written into the sink after mu is released (under wmu, so packets
// leave in the order they were numbered); a key frame wanted from the
// source is asked for after both. The node's count of forwarded packets
// is the caller's (receiver.forward adds a fan-out's at once: one atomic
// on a line every receiver shares, not one a subscriber).
func (d *downTrack) writeRTP(p *rtp.Packet, layer int, r *receiver, now time.Time) (written bool) {
	d.wmu.Lock()
	ws, askKey := d.prepare(p, layer, r, now)
	if ws != nil && d.told != r {
		d.told = r
		if fw, ok := ws.(FormatWriter); ok {
			fw.SourceFormat(r.mime, r.fmtp)
		}
	}
	if ws != nil {
		if n, err := ws.WriteRTP(&d.hdr, p.Payload); err == nil {
			d.packets.Add(1)
			d.bytes.Add(uint64(n))
			d.octets.Add(uint64(len(p.Payload)))
			written = true
		}
	}
	d.wmu.Unlock()
	if askKey >= 0 {
		r.requestKeyFrame(askKey)
	}
	return written
}

// prepare rewrites p into d.hdr and returns the sink to write it to (nil:
// not forwarded) and the layer of r to ask a key frame of (-1: none);
// caller holds d.wmu.
func (d *downTrack) prepare(p *rtp.Packet, layer int, r *receiver, now time.Time) (ws RTPWriter, askKey int) {
	askKey = -1
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.bound || r != d.src {
		return
	}
	if d.ptSrc != r {
		d.ptOf, d.ptOK = d.pts[r.lmime]
		d.ptSrc = r
	}
	pt := d.ptOf
	if !d.ptOK {
		return // the subscriber did not negotiate the source's codec
	}
	if len(p.Payload) == 0 {
		// Padding only (bandwidth probes): not forwarded, and the numbering
		// closes over it so the subscriber sees no loss.
		if !d.needSync && layer == d.curLayer && p.SequenceNumber == d.highestIn+1 {
			d.snOffset--
			d.highestIn = p.SequenceNumber
		}
		return
	}
	if d.needSync || layer != d.curLayer {
		target := r.bestLayer(d.want())
		if layer != target {
			return
		}
		if d.kind == webrtc.RTPCodecTypeVideo && !isKeyFrame(r.mime, p.Payload) {
			askKey = target // throttled; also when the current layer stopped
			return
		}
		d.rebase(p, r.clockRate, now)
		d.curLayer, d.needSync = layer, false
	} else if d.kind == webrtc.RTPCodecTypeVideo {
		if target := r.bestLayer(d.want()); target != layer {
			askKey = target // keep forwarding this layer until the target's key frame
		}
	}
	if int16(p.SequenceNumber-d.baseSeq) < 0 {
		return // older than the switch point
	}
	if int16(p.SequenceNumber-d.highestIn) > 0 {
		d.highestIn = p.SequenceNumber
		if int16(d.highestIn-d.baseSeq) > 1000 {
			d.baseSeq = d.highestIn - 1000
		}
	}
	// The header and its extension are reused (written under d.wmu and
	// d.mu, and WriteRTP marshals before returning): no allocation per
	// packet.
	h, exts := &d.hdr, d.hdr.Extensions[:0]
	*h = rtp.Header{
		Version: 2, Marker: p.Marker, PayloadType: pt, SSRC: d.ssrc,
		SequenceNumber: p.SequenceNumber + d.snOffset, Timestamp: p.Timestamp + d.tsOffset,
		Extensions: exts,
	}
	if r.levelID != 0 && d.levelID != 0 {
		if ext := p.GetExtension(r.levelID); ext != nil {
			_ = h.SetExtension(d.levelID, ext)
		}
	}
	if !d.started || int16(h.SequenceNumber-d.lastSeq) > 0 {
		d.lastSeq, d.lastTS, d.lastWrite = h.SequenceNumber, h.Timestamp, now
	}
	d.started = true
	return d.ws, askKey
}

// drain waits for a write in progress to end: after setSource(nil) and
// drain, nothing more reaches the sink.
func (d *downTrack) drain() {
	d.wmu.Lock()
	d.wmu.Unlock()
}

// rebase makes p follow the last packet written: the next sequence number,
// and a timestamp advanced by the wall time since (at least one tick).
func (d *downTrack) rebase(p *rtp.Packet, clockRate uint32, now time.Time) {
	if d.started {
		d.snOffset = d.lastSeq + 1 - p.SequenceNumber
		ticks := uint32(now.Sub(d.lastWrite).Seconds() * float64(clockRate))
		d.tsOffset = d.lastTS + max(ticks, 1) - p.Timestamp
	}
	d.baseSeq, d.highestIn = p.SequenceNumber, p.SequenceNumber
}

// readRTCP forwards a subscriber's PLI and FIR to the current source's
// publisher; NACKs are answered by pion's responder interceptor.
func (d *downTrack) readRTCP(s *webrtc.RTPSender) {
	for {
		pkts, _, err := s.ReadRTCP()
		if err != nil {
			return
		}
		for _, p := range pkts {
			d.handleRTCP(p)
		}
	}
}

// handleRTCP is what the SFU does with an RTCP packet addressed to d's
// stream: from readRTCP, or from the port's reader (fastrtcp.go).
func (d *downTrack) handleRTCP(p rtcp.Packet) {
	switch p := p.(type) {
	case *rtcp.ReceiverReport:
		d.noteReports(p.Reports)
	case *rtcp.SenderReport:
		d.noteReports(p.Reports)
	case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
		d.mu.Lock()
		r, l := d.src, d.curLayer
		d.mu.Unlock()
		if r != nil {
			r.requestKeyFrame(l)
		}
	}
}
