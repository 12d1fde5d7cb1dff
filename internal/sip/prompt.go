package sip

import (
	_ "embed"
	"math/rand/v2"
	"time"

	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/audio"
)

// The spoken prompt for a conference's password (docs/sip.md "Calling
// in"): "Please enter the conference password, followed by the hash
// key.", made offline with espeak-ng and stored as 8 kHz G.711 µ-law
// (about 4 s, 32 kB):
//
//	espeak-ng -v en -s 150 -w p.wav "Please enter the conference password, followed by the hash key."
//	ffmpeg -i p.wav -ar 8000 -ac 1 -f mulaw prompts/password.ulaw
//
// It is played through the call's RTP in the terminal's codec (decoded
// and encoded by internal/audio, as the mixer does) once the call is
// answered, until its end or the caller's first digit.
//
//go:embed prompts/password.ulaw
var passwordPrompt []byte

// promptFrame is 20 ms of 8 kHz G.711.
const promptFrame = 160

// playPrompt sends prompt to the terminal's audio m-line in its codec,
// 20 ms a packet, until it ends or stop is closed.
func (c *call) playPrompt(prompt []byte, stop <-chan struct{}) {
	c.mu.Lock()
	codec := c.media.Audio
	c.mu.Unlock()
	if codec == nil || c.leg == nil || c.leg.audio == nil {
		return
	}
	mime := "audio/" + codec.Name
	if audio.Supported(mime) != nil {
		return // Opus without its module: no prompt
	}
	dec, err := audio.NewDecoder("audio/PCMU")
	if err != nil {
		return
	}
	defer dec.Close()
	enc, err := audio.NewEncoder(mime)
	if err != nil {
		return
	}
	defer enc.Close()
	h := rtp.Header{Version: 2, SSRC: c.leg.audio.ssrc, SequenceNumber: uint16(rand.Uint32()), Timestamp: rand.Uint32(), Marker: true}
	ticks := audio.FrameTicks(mime)
	tk := time.NewTicker(20 * time.Millisecond)
	defer tk.Stop()
	var pcm []int16
	var payload []byte
	for off := 0; off+promptFrame <= len(prompt); off += promptFrame {
		select {
		case <-stop:
			return
		case <-tk.C:
		}
		if pcm, err = dec.Decode(pcm[:0], prompt[off:off+promptFrame]); err != nil || len(pcm) != audio.Frame {
			return
		}
		if payload, err = enc.Encode(payload[:0], pcm); err != nil {
			return
		}
		_, _ = c.leg.audio.WriteRTP(&h, payload)
		h.Marker = false
		h.SequenceNumber++
		h.Timestamp += ticks
	}
}
