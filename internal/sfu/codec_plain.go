package sfu

import (
	"strings"

	"github.com/pion/webrtc/v4"
)

// plainAudio are the audio codecs of SIP terminals (PCMU, PCMA, G.722, RFC
// 3551 static payload types) offered to browsers besides Opus, so that a
// WHEP viewer or the join page receives a SIP terminal's audio as it comes,
// without transcoding (docs/sip-media.md "Media"). Browsers negotiate them; the
// down track picks Opus first and switches payload type per source.
var plainAudio = []webrtc.RTPCodecParameters{
	{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypePCMU, ClockRate: 8000, Channels: 1}, PayloadType: 0},
	{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypePCMA, ClockRate: 8000, Channels: 1}, PayloadType: 8},
	{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeG722, ClockRate: 8000, Channels: 1}, PayloadType: 9},
}

func registerPlainAudio(m *webrtc.MediaEngine) error {
	for _, c := range plainAudio {
		if err := m.RegisterCodec(c, webrtc.RTPCodecTypeAudio); err != nil {
			return err
		}
	}
	return nil
}

// audioPreference is what a new publisher should send so that the room's
// SIP terminals hear it without transcoding (issue 26 "the SFU negotiates
// the same codecs with browsers in a conference that holds SIP
// terminals"): when a terminal accepts no Opus, the first plain codec it
// accepts, then Opus; nil when every terminal accepts Opus. A publisher
// that joined before the terminal keeps what it negotiated.
func (rm *room) audioPreference() []webrtc.RTPCodecParameters {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for _, m := range rm.members {
		l := m.owner.local
		if l == nil || l.opts.AudioOut == nil || acceptsMime(l.opts.AudioCodecs, webrtc.MimeTypeOpus) {
			continue
		}
		for _, c := range l.opts.AudioCodecs {
			for _, p := range plainAudio {
				if strings.EqualFold(c.MimeType, p.MimeType) {
					return []webrtc.RTPCodecParameters{p, opusCodec}
				}
			}
		}
	}
	return nil
}

// videoPreference is the same for a camera: H.264 when a terminal that
// receives video accepts it and not VP8 (SIP terminals speak H.264); ""
// otherwise. preferVideo (local_screen.go) orders the offer's codecs.
func (rm *room) videoPreference() string {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	for _, m := range rm.members {
		l := m.owner.local
		if l == nil || l.opts.VideoOut == nil || acceptsMime(l.opts.VideoCodecs, webrtc.MimeTypeVP8) {
			continue
		}
		if acceptsMime(l.opts.VideoCodecs, webrtc.MimeTypeH264) {
			return webrtc.MimeTypeH264
		}
	}
	return ""
}

func acceptsMime(cs []LocalCodec, mime string) bool {
	for _, c := range cs {
		if strings.EqualFold(c.MimeType, mime) {
			return true
		}
	}
	return false
}

// prefer orders the codecs of a publisher's transceivers of that kind in
// the answer (the offerer sends the first, RFC 3264 section 6.1).
func prefer(pc *webrtc.PeerConnection, kind webrtc.RTPCodecType, pref []webrtc.RTPCodecParameters) {
	for _, tr := range pc.GetTransceivers() {
		if tr.Kind() == kind {
			_ = tr.SetCodecPreferences(pref) // a codec the offer lacks leaves the offer's order
		}
	}
}
