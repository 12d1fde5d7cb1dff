// Package audio turns the RTP payloads of the conference's audio codecs
// into 48 kHz mono samples and back, 20 ms at a time: Opus (through
// internal/audio/opus, libopus in WebAssembly), G.711 µ-law and A-law
// (PCMU, PCMA) and G.722, resampled between their rate and 48 kHz. The
// mixer (internal/mixer) decodes every participant with a Decoder and
// encodes each distinct output with an Encoder.
package audio

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/confer-platform/confer/internal/audio/g711"
	"github.com/confer-platform/confer/internal/audio/opus"
)

// Rate is the mixer's sample rate; Frame is the samples of one 20 ms frame.
const (
	Rate  = 48000
	Frame = Rate / 50
)

// ErrUnsupported is returned for a codec the mixer cannot decode or encode.
var ErrUnsupported = errors.New("audio: codec not supported by the mixer")

// Decoder decodes one participant's RTP payloads.
type Decoder interface {
	// Decode appends the 48 kHz mono samples of one payload to dst.
	Decode(dst []int16, payload []byte) ([]int16, error)
	// Conceal appends 20 ms standing in for a lost packet.
	Conceal(dst []int16) []int16
	Close()
}

// Skipper is a Decoder that can stand silence in for a payload without
// decoding it: Skip appends as many zero samples as the payload holds and
// reports false when it cannot tell (the payload must then be decoded).
// The mixer skips the packets a sender marks as silent (RFC 6464).
type Skipper interface {
	Skip(dst []int16, payload []byte) ([]int16, bool)
}

// Encoder encodes one output, 20 ms per RTP payload.
type Encoder interface {
	// Encode appends the payload of one 20 ms frame (Frame samples at 48
	// kHz, mono) to dst.
	Encode(dst []byte, pcm []int16) ([]byte, error)
	Close()
}

// Codec names a codec by its RTP MIME subtype (RFC 3551, RFC 7587),
// case-insensitively: "opus", "PCMU", "PCMA", "G722"; a "audio/" prefix
// is allowed.
func name(mime string) string {
	return strings.ToLower(strings.TrimPrefix(strings.ToLower(mime), "audio/"))
}

// Supported reports nil when the mixer can decode and encode mime, or why
// not.
func Supported(mime string) error {
	switch name(mime) {
	case "pcmu", "pcma", "g722":
		return nil
	case "opus":
		if err := opus.Available(); err != nil {
			return fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsupported, mime)
}

// FrameTicks is the RTP timestamp advance of 20 ms of mime (G.722's RTP
// clock is 8 kHz although it samples at 16 kHz, RFC 3551 section 4.5.2).
func FrameTicks(mime string) uint32 {
	if name(mime) == "opus" {
		return 960
	}
	return 160
}

// NewDecoder returns a decoder of mime.
func NewDecoder(mime string) (Decoder, error) {
	switch name(mime) {
	case "pcmu":
		return &g711Decoder{decode: g711.UlawToLinear, up: newUpsampler(6)}, nil
	case "pcma":
		return &g711Decoder{decode: g711.AlawToLinear, up: newUpsampler(6)}, nil
	case "g722":
		return newG722Decoder()
	case "opus":
		d, err := opus.NewDecoder(Rate, 1)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		return &opusDecoder{d: d, pcm: make([]int16, 5760)}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupported, mime)
}

// NewEncoder returns an encoder of mime.
func NewEncoder(mime string) (Encoder, error) {
	switch name(mime) {
	case "pcmu":
		return &g711Encoder{encode: g711.LinearToUlaw, down: newDownsampler(6)}, nil
	case "pcma":
		return &g711Encoder{encode: g711.LinearToAlaw, down: newDownsampler(6)}, nil
	case "g722":
		return newG722Encoder()
	case "opus":
		e, err := newOpusEncoder(OpusComplexity)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrUnsupported, err)
		}
		return &opusEncoder{e: e, buf: make([]byte, 1500)}, nil
	}
	return nil, fmt.Errorf("%w: %s", ErrUnsupported, mime)
}

type g711Decoder struct {
	decode func(byte) int16
	up     *upsampler
	tmp    []int16
	last   int // samples (8 kHz) of the last packet, for concealment
}

func (d *g711Decoder) Decode(dst []int16, p []byte) ([]int16, error) {
	d.tmp = d.tmp[:0]
	for _, b := range p {
		d.tmp = append(d.tmp, d.decode(b))
	}
	d.last = len(p)
	return d.up.process(dst, d.tmp), nil
}

// Conceal gives 20 ms of silence for a lost packet: G.711 has no
// concealment of its own, and Confer does not do the optional one of
// G.711 Appendix I (docs/media.md: lost G.711 and G.722 packets are heard
// as silence).
func (d *g711Decoder) Conceal(dst []int16) []int16 {
	d.tmp = append(d.tmp[:0], make([]int16, 160)...)
	return d.up.process(dst, d.tmp)
}

func (d *g711Decoder) Close() {}

type g711Encoder struct {
	encode func(int16) byte
	down   *downsampler
	tmp    []int16
}

func (e *g711Encoder) Encode(dst []byte, pcm []int16) ([]byte, error) {
	e.tmp = e.down.process(e.tmp[:0], pcm)
	for _, s := range e.tmp {
		dst = append(dst, e.encode(s))
	}
	return dst, nil
}

func (e *g711Encoder) Close() {}

type opusDecoder struct {
	d   *opus.Decoder
	pcm []int16
}

func (d *opusDecoder) Decode(dst []int16, p []byte) ([]int16, error) {
	n, err := d.d.Decode(p, d.pcm)
	if err != nil {
		return dst, err
	}
	return append(dst, d.pcm[:n]...), nil
}

// Skip appends the silence of an Opus packet's duration, read from its
// table-of-contents byte (RFC 6716 section 3.1) without decoding it.
func (d *opusDecoder) Skip(dst []int16, p []byte) ([]int16, bool) {
	n := opusSamples(p)
	if n <= 0 || n > len(d.pcm) {
		return dst, false
	}
	return appendZeros(dst, n), true
}

// opusSamples is the duration of an Opus packet at 48 kHz, or 0 when the
// packet is malformed (RFC 6716 section 3.1).
func opusSamples(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	config := int(p[0] >> 3)
	var frame int // samples at 48 kHz
	switch {
	case config < 12: // SILK: 10, 20, 40, 60 ms
		frame = []int{480, 960, 1920, 2880}[config%4]
	case config < 16: // hybrid: 10, 20 ms
		frame = []int{480, 960}[config%2]
	default: // CELT: 2.5, 5, 10, 20 ms
		frame = []int{120, 240, 480, 960}[config%4]
	}
	switch p[0] & 3 {
	case 0:
		return frame
	case 1, 2:
		return 2 * frame
	}
	if len(p) < 2 || p[1]&0x3f == 0 {
		return 0
	}
	return int(p[1]&0x3f) * frame
}

func appendZeros(dst []int16, n int) []int16 {
	dst = slices.Grow(dst, n)
	k := len(dst)
	dst = dst[:k+n]
	clear(dst[k:])
	return dst
}

func (d *opusDecoder) Conceal(dst []int16) []int16 {
	n, err := d.d.Conceal(d.pcm[:Frame])
	if err != nil {
		n = 0
	}
	dst = append(dst, d.pcm[:n]...)
	return append(dst, make([]int16, Frame-n)...)
}

func (d *opusDecoder) Close() { d.d.Close() }

// OpusComplexity is the mixer's Opus encoder complexity (libopus 0 to
// 10). Measured under wazero (docs/benchmarks.md "Mixed audio"), 3 costs
// about 0.7 of 5 and 0.45 of 10 per frame, and keeps a voice as close to
// the input's spectrum as 10 (TestOpusComplexityQuality) and every tone
// of a four-talker mix in every frame (TestOpusKeepsEveryTone,
// TestMixKeepsEveryTalker in internal/mixer). 1, half the cost of 5,
// keeps them too (the least a talker measured in 32,000 frames: 2,012,
// against 2,157 at 3); it was left for 3 when the mixer soak's former
// tones, harmonics of one pitch, seemed to lose talkers
// (docs/benchmarks/mixing.md "The soak's gaps at frame 29,397").
const OpusComplexity = 3

// newOpusEncoder is the mixer's Opus encoder: 32 kbit/s voice with
// in-band FEC for a lost packet, at complexity cx.
func newOpusEncoder(cx int) (*opus.Encoder, error) {
	e, err := opus.NewEncoder(Rate, 1, opus.AppVoIP)
	if err != nil {
		return nil, err
	}
	if err := errors.Join(e.SetBitrate(32000), e.SetInbandFEC(true), e.SetPacketLossPerc(5), e.SetComplexity(cx)); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

type opusEncoder struct {
	e   *opus.Encoder
	buf []byte
}

func (e *opusEncoder) Encode(dst []byte, pcm []int16) ([]byte, error) {
	n, err := e.e.Encode(pcm, e.buf)
	if err != nil {
		return dst, err
	}
	return append(dst, e.buf[:n]...), nil
}

func (e *opusEncoder) Close() { e.e.Close() }
