package mixer

import (
	"math"
	"sync"

	"github.com/confer-platform/confer/internal/audio"
)

// Jitter buffer limits, in packets.
const (
	maxQueue = 25 // 500 ms of 20 ms packets: more is dropped, oldest first
	catchUp  = 6  // a queue this long after a burst is cut back to the prefill
	maxGap   = 3  // a gap of more lost packets than this resynchronises
)

// Input is one participant's audio: RTP payloads in, through a jitter
// buffer and a decoder, 20 ms frames at 48 kHz out.
type Input struct {
	m   *Mixer
	id  string
	dec audio.Decoder

	prefill int

	mu      sync.Mutex // guards queue, next and started (Push and the tick)
	queue   []packet   // by sequence number, oldest first
	next    uint16     // the sequence number to play next
	started bool

	// The tick's own state (the mixer's tick is single-threaded).
	pcm   []int16 // decoded samples not yet mixed
	frame []int16 // this tick's frame; nil when the input had no audio
	level float64 // smoothed amplitude (RMS) for choosing the loudest
	// hushed: the last packet decoded was a silent one (its RFC 6464
	// level): the decoder is in a silence and the silent packets after it
	// need not be decoded.
	hushed bool
	// silent: this tick's frame is silence (no sample beyond ±silentPeak),
	// so the input is not mixed in: its N−1 mix would be the full mix,
	// and it would take an encoder of its own for nothing.
	silent bool
}

// silentPeak is the largest sample of a silent frame (−84 dBFS).
const silentPeak = 2

var zeroFrame [audio.Frame]int16

type packet struct {
	seq     uint16
	payload []byte
	quiet   bool // its RFC 6464 level says it is silent: not decoded
}

// QuietLevel is the RFC 6464 level (−dBov) at or above which a packet is
// silent for the mix: it is not decoded, and its frame is silence. −80
// dBov is an amplitude of about 3 in 32767, nothing heard in any mix; a
// browser sends 127 for its silences.
const QuietLevel = 80

// before reports whether sequence number a comes before b (RFC 3550
// arithmetic modulo 2^16).
func before(a, b uint16) bool { return int16(a-b) < 0 }

// Push queues one RTP payload (copied) with its sequence number. Safe for
// concurrent use; it does not decode.
func (in *Input) Push(seq uint16, payload []byte) { in.PushLevel(seq, payload, -1) }

// PushLevel is Push with the packet's RFC 6464 audio level (0 loudest,
// 127 silence; negative: not known). A packet at QuietLevel or quieter,
// after one that was decoded as silent, is not decoded when its codec can
// tell its duration without decoding (audio.Skipper): its frame is
// silence, as if it had been decoded, and the decoder, left in the
// silence it decoded last, goes on with the next loud packet as after a
// pause in a talk (DTX). This spares the mixer the
// decoding of the participants who do not talk, the most of a room.
func (in *Input) PushLevel(seq uint16, payload []byte, level int) {
	if len(payload) == 0 {
		return
	}
	p := packet{seq: seq, payload: append([]byte(nil), payload...), quiet: level >= QuietLevel}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.started && before(seq, in.next) {
		return // too late: its time has passed
	}
	i := len(in.queue)
	for i > 0 && before(seq, in.queue[i-1].seq) {
		i--
	}
	if i > 0 && in.queue[i-1].seq == seq {
		return // a duplicate
	}
	in.queue = append(in.queue, packet{})
	copy(in.queue[i+1:], in.queue[i:])
	in.queue[i] = p
	if len(in.queue) > maxQueue {
		in.queue = in.queue[1:]
		if in.started {
			in.next = in.queue[0].seq
		}
	}
	select { // the clock mixes as soon as every input is ready (clock.go)
	case in.m.kick <- struct{}{}:
	default:
	}
}

// readiness tells whether the input takes part in the next frame
// (expected: it is playing, or has enough queued to start) and whether
// that frame's audio is here (ready: decoded samples left, or the next
// packet queued). Called by the clock with tickMu held.
func (in *Input) readiness() (expected, ready bool) {
	if len(in.pcm) >= audio.Frame {
		return true, true
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.started {
		return len(in.queue) >= in.prefill, len(in.queue) >= in.prefill
	}
	for _, p := range in.queue {
		if !before(p.seq, in.next) {
			gap := p.seq - in.next
			return true, gap == 0 || gap > maxGap
		}
	}
	return true, false
}

// Close removes the input from its mixer.
func (in *Input) Close() { in.m.removeInput(in) }

// step is the jitter buffer's next action: a packet to decode, a lost one
// to conceal, or nothing (underrun).
func (in *Input) step(prefill int) (p packet, conceal, ok bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.started {
		if len(in.queue) < prefill {
			return packet{}, false, false
		}
		in.started, in.next = true, in.queue[0].seq
	}
	if len(in.queue) >= catchUp+prefill {
		in.queue = in.queue[len(in.queue)-prefill:] // a burst: play from the newest
		in.next = in.queue[0].seq
	}
	if len(in.queue) == 0 {
		in.started = false // a pause (or the end of a talk spurt): prefill again
		return packet{}, false, false
	}
	head := in.queue[0]
	for before(head.seq, in.next) { // queued before a resynchronisation
		if in.queue = in.queue[1:]; len(in.queue) == 0 {
			return packet{}, false, false
		}
		head = in.queue[0]
	}
	switch gap := head.seq - in.next; {
	case gap == 0:
		in.queue = in.queue[1:]
		in.next++
		return head, false, true
	case gap > maxGap:
		in.queue = in.queue[1:]
		in.next = head.seq + 1
		return head, false, true
	default: // the next packet is lost (its successor is here): conceal it
		in.next++
		return packet{}, true, true
	}
}

// pull decodes this tick's frame into in.frame (nil without audio) and
// updates the level; it returns the frames it concealed, the quiet
// packets it did not decode, and whether it underran (it was playing and
// had no audio).
func (in *Input) pull(prefill int) (concealed, skipped uint64, underrun bool) {
	playing := in.isPlaying() || len(in.pcm) > 0
	for len(in.pcm) < audio.Frame {
		p, conceal, ok := in.step(prefill)
		if !ok {
			underrun = playing
			break
		}
		if conceal {
			if in.hushed { // a loss within a silence is silence
				in.pcm = append(in.pcm, zeroFrame[:]...)
			} else {
				in.pcm = in.dec.Conceal(in.pcm)
			}
			concealed++
			continue
		}
		if p.quiet && in.hushed {
			if sk, ok := in.dec.(audio.Skipper); ok {
				if pcm, ok := sk.Skip(in.pcm, p.payload); ok {
					in.pcm = pcm
					skipped++
					continue
				}
			}
		}
		// The first silent packet after a loud one is decoded: the
		// decoder's state is then that of a silence, from which the next
		// loud packet starts as after a pause (no echo of the voice before
		// the silence, in a concealment or the first frame after it).
		in.hushed = p.quiet
		var err error
		if in.pcm, err = in.dec.Decode(in.pcm, p.payload); err != nil {
			in.pcm = in.dec.Conceal(in.pcm) // a malformed packet is as good as lost
			concealed++
		}
	}
	if len(in.pcm) == 0 {
		in.frame = nil
		in.level *= 0.9
		return concealed, skipped, underrun
	}
	if cap(in.frame) < audio.Frame {
		in.frame = make([]int16, audio.Frame)
	}
	in.frame = in.frame[:audio.Frame]
	n := copy(in.frame, in.pcm)
	clear(in.frame[n:]) // an underrun in the middle of a frame: the rest is silence
	in.pcm = in.pcm[:copy(in.pcm, in.pcm[n:])]
	var sum float64
	in.silent = true
	for _, s := range in.frame {
		sum += float64(s) * float64(s)
		if s > silentPeak || s < -silentPeak {
			in.silent = false
		}
	}
	rms := math.Sqrt(sum / audio.Frame)
	if rms > in.level {
		in.level = rms // rises at once, decays over about 200 ms
	} else {
		in.level = 0.9*in.level + 0.1*rms
	}
	return concealed, skipped, underrun
}

func (in *Input) isPlaying() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.started
}
