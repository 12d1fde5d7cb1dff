package sfu

import (
	"fmt"
	"sync"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/mixer"
)

// The conference's audio mix (docs/media.md "Mixed audio"). A local
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
	outputs int
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
	if rm.mix_.mx == nil {
		rm.mix_.mx = mixer.New(mixer.Config{})
		rm.mix_.inputs = map[*receiver]*mixer.Input{}
		rm.mix_.mx.Start()
	}
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

// dropMixOutput removes a closing session's output; syncMix stops the
// mixer after the last.
func (rm *room) dropMixOutput(sess *session) {
	if sess.mixOut == nil {
		return
	}
	sess.mixOut.Close()
	rm.mix_.mu.Lock()
	rm.mix_.outputs--
	rm.mix_.mu.Unlock()
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
