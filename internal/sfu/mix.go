package sfu

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/mixer"
)

// The conference's audio mix (docs/mixing.md). A local
// endpoint that takes one audio stream (a SIP terminal, a recording, a
// live broadcast, a monitor) opens with LocalOptions.MixedAudio: instead
// of one forwarded publisher it receives the room's mix in its codec, a
// member without its own voice (N−1). The room runs a mixer while at
// least one such endpoint is open; every participant's audio is then
// decoded into it, whatever else receives it. What is mixed follows the
// engine: the loudest Config.MixTalkers talkers when no mix runs, the
// loudest of the members in a smart mix, exactly the members in a custom
// mix; muted participants are not mixed, silenced ones hear nothing.

// DefaultMixTalkers is how many talkers are mixed at once when no mix runs.
const DefaultMixTalkers = 4

// roomMix is a room's mixer and what feeds it; guarded by its mu.
type roomMix struct {
	mu      sync.Mutex
	mx      *mixer.Mixer
	inputs  map[*receiver]*mixer.Input
	outputs int // mixed local endpoints and mixed viewers: the mixer runs while > 0

	// The full mix in Opus for the watching viewers that hear it (TV wall
	// channels, Grant.MixedAudio): one output, forwarded by a receiver of
	// its own to every such viewer's audio track; room.mixFull is it.
	full    *receiver
	fullOut *mixer.Output
	viewers int
}

// ErrNoMixer refuses a receiver of the mix on a node where the mixer's
// codec cannot run: never silence instead of a mix.
var ErrNoMixer = errors.New("sfu: this media node cannot mix audio")

// opusLocalCodec is the full mix's codec for WebRTC viewers.
var opusLocalCodec = LocalCodec{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, PayloadType: 111}

// startMixer starts the room's mixer if it is not running; x.mu held.
func (x *roomMix) startMixer() {
	if x.mx == nil {
		x.mx = mixer.New(mixer.Config{})
		x.inputs = map[*receiver]*mixer.Input{}
		x.mx.Start()
	}
}

// checkMixable refuses a mixed endpoint whose codec the mixer cannot
// encode, or when Opus, the browsers' codec, cannot be decoded here
// (audio.ErrUnsupported): never silence instead of a mix.
func checkMixable(o LocalOptions) error {
	if !o.MixedAudio || o.AudioOut == nil || len(o.AudioCodecs) == 0 {
		return nil
	}
	for _, mime := range []string{o.AudioCodecs[0].MimeType, webrtc.MimeTypeOpus} {
		if err := audio.Supported(mime); err != nil {
			return fmt.Errorf("sfu: mixed audio in %s: %w", o.AudioCodecs[0].MimeType, err)
		}
	}
	return nil
}

// addMixOutput gives a mixed endpoint its output, starting the room's
// mixer if it is the first.
func (rm *room) addMixOutput(sess *session, o LocalOptions) error {
	c := o.AudioCodecs[0]
	self := ""
	if sess.member != nil {
		self = sess.member.mtID
	}
	rm.mix_.mu.Lock()
	defer rm.mix_.mu.Unlock()
	rm.mix_.startMixer()
	out, err := rm.mix_.mx.Output(self, mixer.Codec{MimeType: c.MimeType, PayloadType: c.PayloadType}, o.AudioOut)
	if err != nil {
		return err
	}
	rm.mix_.outputs++
	rm.mu.Lock() // Channels reads it
	sess.mixOut, sess.mixMeter = out, newRateMeter()
	rm.mu.Unlock()
	return nil
}

// addMixViewer makes a watching viewer hear the full mix in Opus
// (Grant.MixedAudio: a TV wall channel), starting the room's mixer and
// the full mix's output if it is the first. ErrNoMixer (503) when Opus
// cannot run here.
func (rm *room) addMixViewer(sess *session) error {
	if err := audio.Supported(webrtc.MimeTypeOpus); err != nil {
		return &httpError{http.StatusServiceUnavailable, ErrNoMixer.Error() + ": " + err.Error(), fmt.Errorf("%w: %w", ErrNoMixer, err)}
	}
	x := &rm.mix_
	x.mu.Lock()
	defer x.mu.Unlock()
	x.startMixer()
	if x.full == nil {
		r := newLocalReceiver(nil, nil, webrtc.RTPCodecTypeAudio, &opusLocalCodec, false)
		out, err := x.mx.Output("", mixer.Codec{MimeType: opusLocalCodec.MimeType, PayloadType: opusLocalCodec.PayloadType}, mixForwarder{r})
		if err != nil {
			return &httpError{http.StatusServiceUnavailable, ErrNoMixer.Error() + ": " + err.Error(), fmt.Errorf("%w: %w", ErrNoMixer, err)}
		}
		x.full, x.fullOut = r, out
		rm.mu.Lock() // sourceFor reads it
		rm.mixFull = r
		rm.mu.Unlock()
	}
	x.viewers++
	x.outputs++
	sess.mixView = true
	return nil
}

// mixForwarder forwards the full mix's packets to its viewers' tracks.
type mixForwarder struct{ r *receiver }

func (f mixForwarder) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	f.r.forward(&rtp.Packet{Header: *h, Payload: payload}, layerLow)
	return len(payload), nil
}

// dropMixOutput removes a closing session's output or its hearing of the
// full mix; syncMix stops the mixer after the last.
func (rm *room) dropMixOutput(sess *session) {
	x := &rm.mix_
	switch {
	case sess.mixOut != nil:
		sess.mixOut.Close()
		x.mu.Lock()
		x.outputs--
		x.mu.Unlock()
	case sess.mixView:
		x.mu.Lock()
		defer x.mu.Unlock()
		x.outputs--
		if x.viewers--; x.viewers == 0 && x.fullOut != nil {
			x.fullOut.Close()
			x.full, x.fullOut = nil, nil
			rm.mu.Lock()
			rm.mixFull = nil
			rm.mu.Unlock()
		}
	}
}

// syncMix brings the mixer in line with the room (rewire calls it after
// every change): an input per participant's audio, the selection, mute
// and silence.
func (rm *room) syncMix() {
	x := &rm.mix_
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.mx == nil {
		return
	}
	if x.outputs == 0 {
		for r := range x.inputs {
			r.mixIn.Store(nil)
		}
		// Not waited for: syncMix may run inside a write of the mixer's
		// own tick (an endpoint that closes on a write error).
		go x.mx.Close()
		x.mx, x.inputs = nil, nil
		x.full, x.fullOut, x.viewers = nil, nil, 0
		return
	}
	want := map[*receiver]string{}
	muted, silenced := map[string]bool{}, map[string]bool{}
	sel := mixer.Selection{Loudest: rm.sfu.cfg.MixTalkers}
	rm.mu.Lock()
	for id, m := range rm.members {
		if m.audio != nil {
			want[m.audio] = id
		}
	}
	for id, f := range rm.flags {
		muted[id], silenced[id] = f.muted, f.silenced
	}
	if rm.mix != nil {
		sel.Members = make([]string, 0, len(rm.mix))
		for id := range rm.mix {
			sel.Members = append(sel.Members, id)
		}
		if !rm.mixSmart {
			sel.Loudest = 0 // a custom mix: exactly its members
		}
	}
	rm.mu.Unlock()
	for r, in := range x.inputs {
		if _, ok := want[r]; !ok {
			r.mixIn.Store(nil)
			in.Close()
			delete(x.inputs, r)
		}
	}
	for r, id := range want {
		if x.inputs[r] != nil {
			continue
		}
		in, err := x.mx.Input(id, r.mime)
		if err != nil {
			continue // a codec the mixer cannot decode (audio.Supported): not heard in the mix
		}
		x.inputs[r] = in
		r.mixIn.Store(in)
	}
	x.mx.SetSelection(sel)
	for id, on := range muted {
		x.mx.SetMuted(id, on)
	}
	for id, on := range silenced {
		x.mx.SetSilenced(id, on)
	}
}
