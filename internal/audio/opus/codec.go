package opus

import (
	"encoding/binary"
	"fmt"
)

// Application is the encoder's tuning (OPUS_APPLICATION_*).
type Application int32

const (
	AppVoIP     Application = 2048
	AppAudio    Application = 2049
	AppLowDelay Application = 2051
)

// Encoder encodes 16-bit PCM frames into Opus packets.
type Encoder struct {
	in       *instance
	st       uint32
	channels int
}

// NewEncoder returns an encoder for rate (8000, 12000, 16000, 24000 or
// 48000 Hz) and 1 or 2 channels.
func NewEncoder(rate, channels int, app Application) (*Encoder, error) {
	in, err := newInstance()
	if err != nil {
		return nil, err
	}
	st, err := in.call("enc_new", uint64(rate), uint64(channels), uint64(uint32(app)), uint64(in.errp))
	if err == nil && st == 0 {
		err = in.lastError()
	}
	if err != nil {
		in.close()
		return nil, err
	}
	return &Encoder{in: in, st: uint32(st), channels: channels}, nil
}

func (in *instance) lastError() error {
	b, ok := in.mem.Read(in.errp, 4)
	if !ok {
		return Error(-3)
	}
	return Error(int32(binary.LittleEndian.Uint32(b)))
}

func (e *Encoder) ctl(name string, v int) error {
	r, err := e.in.call(name, uint64(e.st), uint64(uint32(int32(v))))
	if err == nil && r < 0 {
		err = Error(r)
	}
	return err
}

// SetBitrate sets the target bit rate in bits per second.
func (e *Encoder) SetBitrate(bps int) error { return e.ctl("enc_set_bitrate", bps) }

// SetComplexity sets the computational complexity, 0 to 10.
func (e *Encoder) SetComplexity(c int) error { return e.ctl("enc_set_complexity", c) }

// SetInbandFEC turns in-band forward error correction on or off.
func (e *Encoder) SetInbandFEC(on bool) error { return e.ctl("enc_set_inband_fec", b2i(on)) }

// SetPacketLossPerc tells the encoder the expected loss, in percent.
func (e *Encoder) SetPacketLossPerc(p int) error { return e.ctl("enc_set_packet_loss", p) }

// SetDTX turns discontinuous transmission on or off.
func (e *Encoder) SetDTX(on bool) error { return e.ctl("enc_set_dtx", b2i(on)) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Encode encodes one frame (2.5, 5, 10, 20, 40 or 60 ms of interleaved
// samples) into out and returns the packet's length.
func (e *Encoder) Encode(pcm []int16, out []byte) (int, error) {
	if e.in == nil {
		return 0, fmt.Errorf("opus: encoder closed")
	}
	if len(pcm) > maxSamples || len(pcm)%e.channels != 0 {
		return 0, Error(-1)
	}
	if !e.in.writePCM(pcm) {
		return 0, Error(-3)
	}
	max := min(len(out), maxPacket)
	n, err := e.in.call("enc_encode", uint64(e.st), uint64(e.in.pcm), uint64(len(pcm)/e.channels), uint64(e.in.pkt), uint64(max))
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, Error(n)
	}
	b, ok := e.in.mem.Read(e.in.pkt, uint32(n))
	if !ok {
		return 0, Error(-3)
	}
	return copy(out, b), nil
}

// Close frees the encoder.
func (e *Encoder) Close() {
	if e.in != nil {
		e.in.close()
		e.in = nil
	}
}

// Decoder decodes Opus packets into 16-bit PCM.
type Decoder struct {
	in       *instance
	st       uint32
	channels int
}

// NewDecoder returns a decoder producing rate Hz and 1 or 2 channels.
func NewDecoder(rate, channels int) (*Decoder, error) {
	in, err := newInstance()
	if err != nil {
		return nil, err
	}
	st, err := in.call("dec_new", uint64(rate), uint64(channels), uint64(in.errp))
	if err == nil && st == 0 {
		err = in.lastError()
	}
	if err != nil {
		in.close()
		return nil, err
	}
	return &Decoder{in: in, st: uint32(st), channels: channels}, nil
}

// Decode decodes one packet into pcm (room for the longest frame expected,
// interleaved) and returns the samples per channel it wrote.
func (d *Decoder) Decode(pkt []byte, pcm []int16) (int, error) { return d.decode(pkt, pcm, false) }

// DecodeFEC decodes the frame before pkt from pkt's in-band redundancy;
// len(pcm) must be that frame's length.
func (d *Decoder) DecodeFEC(pkt []byte, pcm []int16) (int, error) { return d.decode(pkt, pcm, true) }

// Conceal fills pcm (one frame) with the decoder's loss concealment.
func (d *Decoder) Conceal(pcm []int16) (int, error) { return d.decode(nil, pcm, false) }

func (d *Decoder) decode(pkt []byte, pcm []int16, fec bool) (int, error) {
	if d.in == nil {
		return 0, fmt.Errorf("opus: decoder closed")
	}
	if len(pkt) > maxPacket {
		return 0, Error(-4)
	}
	frame := min(len(pcm), maxSamples) / d.channels
	var data uint32
	if len(pkt) > 0 {
		if !d.in.mem.Write(d.in.pkt, pkt) {
			return 0, Error(-3)
		}
		data = d.in.pkt
	}
	n, err := d.in.call("dec_decode", uint64(d.st), uint64(data), uint64(len(pkt)), uint64(d.in.pcm), uint64(frame), uint64(b2i(fec)))
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, Error(n)
	}
	if !d.in.readPCM(pcm[:int(n)*d.channels]) {
		return 0, Error(-3)
	}
	return int(n), nil
}

// Close frees the decoder.
func (d *Decoder) Close() {
	if d.in != nil {
		d.in.close()
		d.in = nil
	}
}
