package sfu

import (
	"sync"
	"time"

	"github.com/pion/webrtc/v4"
)

// A participant's channels as the SFU carries them: the tracks it
// publishes and the tracks it receives (its own sessions and those linked
// to it, a SIP call's local endpoint included), with the codec, the
// picture size of the last key frame and the measured bitrate. The engine
// reports them as the terminal's channel arrays (reference 05
// "获取与会终端信息": v_snd_chn, v_rcv_chn, dv_snd_chn, dv_rcv_chn,
// a_snd_chn, a_rcv_chn) through the media contract.

// ChannelKind is what a channel carries.
type ChannelKind int

const (
	ChannelAudio  ChannelKind = iota
	ChannelVideo              // the main video
	ChannelScreen             // the dual stream (content, a screen share)
)

// Channel is one channel of a participant.
type Channel struct {
	Kind     ChannelKind
	Send     bool   // the participant sends it; false: it receives it
	MimeType string // codec, e.g. video/H264; "" while a receiving track forwards nothing
	Fmtp     string // the codec's SDP fmtp parameters, when known
	Width    int    // picture size of the last key frame; 0 unknown
	Height   int
	Bitrate  int // kbit/s (rateMeter)
	// Call quality (quality.go): packet loss in percent over the last
	// second and interarrival jitter in milliseconds; for a received
	// channel as the participant's receiver reports say (Reported false
	// before its first report).
	LossPct  float64
	JitterMs float64
	Reported bool
}

// Channels returns the channels of participant mtID of conference
// confID; ok is false when this node carries no such participant.
func (s *SFU) Channels(confID, mtID string) (chs []Channel, ok bool) {
	rm := s.room(confID, false)
	if rm == nil {
		return nil, false
	}
	rm.mu.Lock()
	m := rm.members[mtID]
	if m == nil {
		rm.mu.Unlock()
		return nil, false
	}
	var recvs []*receiver
	for _, r := range []*receiver{m.audio, m.video, m.screen} {
		if r != nil {
			recvs = append(recvs, r)
		}
	}
	var downs []*downTrack
	var mixed []*session
	for sess := range m.sessions {
		downs = append(downs, sess.downs...)
		if sess.mixOut != nil {
			mixed = append(mixed, sess)
		}
	}
	rm.mu.Unlock()
	now := time.Now()
	for _, r := range recvs {
		chs = append(chs, r.channel(now))
	}
	for _, d := range downs {
		chs = append(chs, d.channel(now))
	}
	for _, sess := range mixed { // the audio mix it hears (mix.go)
		chs = append(chs, Channel{Kind: ChannelAudio, MimeType: sess.mixOut.Codec().MimeType,
			Bitrate: sess.mixMeter.kbps(now, sess.mixOut.Bytes())})
	}
	return chs, true
}

// channel is what a participant sends on r.
func (r *receiver) channel(now time.Time) Channel {
	c := Channel{Kind: kindOf(r.kind, r.screen), Send: true, MimeType: r.mime, Fmtp: r.fmtp,
		Bitrate: r.meter.kbps(now, r.bytes.Load()), Reported: true}
	c.Width, c.Height = r.frameSize()
	for l := numLayers - 1; l >= 0; l-- { // the best layer that arrives
		if r.rx[l].arriving() {
			c.LossPct, c.JitterMs = r.rx[l].quality(r.clockRate)
			break
		}
	}
	return c
}

// frameSize is the picture size of the highest layer that has shown a
// key frame.
func (r *receiver) frameSize() (int, int) {
	for l := numLayers - 1; l >= 0; l-- {
		if v := r.size[l].Load(); v != 0 {
			return int(v >> 16), int(v & 0xffff)
		}
	}
	return 0, 0
}

// channel is what a participant receives on d: the codec and picture of
// the source it forwards now.
func (d *downTrack) channel(now time.Time) Channel {
	d.mu.Lock()
	src, layer := d.src, d.curLayer
	d.mu.Unlock()
	c := Channel{Kind: kindOf(d.kind, d.mode == srcDual), Bitrate: d.meter.kbps(now, d.bytes.Load())}
	c.LossPct, c.JitterMs, c.Reported = d.rr.quality()
	if src != nil {
		c.MimeType, c.Fmtp = src.mime, src.fmtp
		if v := src.size[layer].Load(); v != 0 {
			c.Width, c.Height = int(v>>16), int(v&0xffff)
		} else {
			c.Width, c.Height = src.frameSize()
		}
	}
	return c
}

func kindOf(k webrtc.RTPCodecType, screen bool) ChannelKind {
	switch {
	case k == webrtc.RTPCodecTypeAudio:
		return ChannelAudio
	case screen:
		return ChannelScreen
	}
	return ChannelVideo
}

// rateMeterMin is the shortest interval a rate is measured over; a query
// sooner gets the previous figure.
const rateMeterMin = time.Second

// rateMeter turns a byte counter into a bitrate: the average since the
// previous measurement (at least rateMeterMin before), or since the track
// opened.
type rateMeter struct {
	mu    sync.Mutex
	at    time.Time
	bytes uint64
	last  int
}

func newRateMeter() rateMeter { return rateMeter{at: time.Now()} }

// kbps measures the rate of total, a counter of bytes, at now.
func (m *rateMeter) kbps(now time.Time, total uint64) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at.IsZero() {
		m.at, m.bytes = now, total
		return 0
	}
	if el := now.Sub(m.at); el >= rateMeterMin || (m.last == 0 && el > 0) {
		m.last = int(float64(total-m.bytes) * 8 / 1000 / el.Seconds())
		if el >= rateMeterMin {
			m.at, m.bytes = now, total
		}
	}
	return m.last
}
