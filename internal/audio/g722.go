package audio

import "github.com/confer-platform/confer/internal/audio/g722"

// G.722 samples at 16 kHz: a third of the mixer's rate.
type g722Decoder struct {
	d   *g722.Decoder
	up  *upsampler
	tmp []int16
}

func newG722Decoder() (Decoder, error) {
	return &g722Decoder{d: g722.NewDecoder(), up: newUpsampler(3)}, nil
}

func (d *g722Decoder) Decode(dst []int16, p []byte) ([]int16, error) {
	d.tmp = d.d.Decode(d.tmp[:0], p)
	return d.up.process(dst, d.tmp), nil
}

// Conceal plays 20 ms of silence through the decoder's filters.
func (d *g722Decoder) Conceal(dst []int16) []int16 {
	d.tmp = append(d.tmp[:0], make([]int16, 320)...)
	return d.up.process(dst, d.tmp)
}

func (d *g722Decoder) Close() {}

type g722Encoder struct {
	e    *g722.Encoder
	down *downsampler
	tmp  []int16
}

func newG722Encoder() (Encoder, error) {
	return &g722Encoder{e: g722.NewEncoder(), down: newDownsampler(3)}, nil
}

func (e *g722Encoder) Encode(dst []byte, pcm []int16) ([]byte, error) {
	e.tmp = e.down.process(e.tmp[:0], pcm)
	return e.e.Encode(dst, e.tmp), nil
}

func (e *g722Encoder) Close() {}
