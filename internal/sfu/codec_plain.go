package sfu

import "github.com/pion/webrtc/v4"

// plainAudio are the audio codecs of SIP terminals (PCMU, PCMA, G.722, RFC
// 3551 static payload types) offered to browsers besides Opus, so that a
// WHEP viewer or the join page receives a SIP terminal's audio as it comes,
// without transcoding (docs/sip.md "Media"). Browsers negotiate them; the
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
