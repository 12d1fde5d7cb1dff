package playout

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtp"
)

// Sink receives the packets a player sends (sfu.Local publishes them).
type Sink interface {
	WriteAudio(p *rtp.Packet)
	WriteVideo(p *rtp.Packet)
}

// Clock paces a player; tests inject a manual one.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// After implements Clock.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Options configure a player.
type Options struct {
	AudioPT, VideoPT uint8 // payload types of the packets (the SFU rewrites them per subscriber)
	Clock            Clock // nil: RealClock
	Start            time.Duration
	Paused           bool         // start paused at Start
	OnEnd            func(error)  // called once when the file ends (nil) or cannot be read; not after Stop
	Log              func(string) // optional
}

// Player plays a file into a sink in real time: each frame is sent when
// its media time, counted from where playing (re)started, comes. Pause
// holds the next frame, Resume sends it at once and goes on from there,
// Seek restarts at the last video key frame before the position.
type Player struct {
	f      *File
	sink   Sink
	o      Options
	cmds   chan command
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once

	pos          atomic.Int64 // media time of the last frame sent, ns
	audio, video atomic.Uint64
	paused       atomic.Bool
}

type command struct {
	op   int
	pos  time.Duration
	idle chan struct{} // opIdle: closed when the player next waits
}

const (
	opPause = iota
	opResume
	opSeek
	opIdle
)

// errSeek carries a seek out of a file read.
type errSeek struct{ pos time.Duration }

func (e errSeek) Error() string { return "seek" }

// Play starts a player.
func Play(f *File, sink Sink, o Options) *Player {
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Player{f: f, sink: sink, o: o, cmds: make(chan command, 16), cancel: cancel, done: make(chan struct{})}
	p.pos.Store(int64(o.Start))
	p.paused.Store(o.Paused)
	go p.run(ctx)
	return p
}

// Pause holds the stream where it is.
func (p *Player) Pause() { p.send(command{op: opPause}) }

// Resume continues a paused stream.
func (p *Player) Resume() { p.send(command{op: opResume}) }

// Seek moves the stream to pos (a paused stream stays paused there).
func (p *Player) Seek(pos time.Duration) { p.send(command{op: opSeek, pos: pos}) }

// idle returns once the player has sent every frame due at its clock's
// now and waits (for the clock, a command or its end): the event that
// tests with a manual clock wait for instead of a wall-clock pause.
func (p *Player) idle() {
	c := command{op: opIdle, idle: make(chan struct{})}
	p.send(c)
	select {
	case <-c.idle:
	case <-p.done:
	}
}

func (p *Player) send(c command) {
	select {
	case p.cmds <- c:
	case <-p.done:
	}
}

// Stop ends the player (OnEnd is not called) and waits for it.
func (p *Player) Stop() {
	p.once.Do(func() { p.cancel() })
	<-p.done
}

// Done is closed once the player ended.
func (p *Player) Done() <-chan struct{} { return p.done }

// Position is the media time of the last frame sent.
func (p *Player) Position() time.Duration { return time.Duration(p.pos.Load()) }

// Paused tells whether the player holds the stream.
func (p *Player) Paused() bool { return p.paused.Load() }

// Sent returns the audio and video packets sent so far.
func (p *Player) Sent() (audio, video uint64) { return p.audio.Load(), p.video.Load() }

func (p *Player) run(ctx context.Context) {
	defer close(p.done)
	var audio, video *packetizer
	if p.f.Audio != nil {
		audio = newPacketizer(p.f.Audio, p.o.AudioPT)
	}
	if p.f.Video != nil {
		video = newPacketizer(p.f.Video, p.o.VideoPT)
	}
	paused := p.o.Paused
	target := p.o.Start
	var idlers []chan struct{} // opIdle commands, answered when the player next waits
	defer func() {
		for _, c := range idlers {
			close(c)
		}
	}()
	for {
		from, err := p.f.KeyBefore(ctx, target)
		if err != nil {
			p.end(ctx, err)
			return
		}
		var anchorWall time.Time
		anchorMedia := time.Duration(-1)
		err = p.f.Frames(ctx, from, func(fr Frame) error {
			if anchorMedia < 0 {
				anchorWall, anchorMedia = p.o.Clock.Now(), fr.Time
			}
			handle := func(c command) error {
				switch c.op {
				case opPause:
					paused = true
					p.paused.Store(true)
				case opResume:
					if paused {
						paused = false
						p.paused.Store(false)
						anchorWall, anchorMedia = p.o.Clock.Now(), fr.Time
					}
				case opSeek:
					return errSeek{c.pos}
				case opIdle:
					idlers = append(idlers, c.idle)
				}
				return nil
			}
			for {
				var wait <-chan time.Time
				select {
				case c := <-p.cmds: // commands first, even when frames are late
					if err := handle(c); err != nil {
						return err
					}
					continue
				default:
				}
				if !paused {
					d := anchorWall.Add(fr.Time - anchorMedia).Sub(p.o.Clock.Now())
					if d <= 0 {
						break
					}
					wait = p.o.Clock.After(d)
				}
				for _, c := range idlers {
					close(c)
				}
				idlers = idlers[:0]
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-wait:
				case c := <-p.cmds:
					if err := handle(c); err != nil {
						return err
					}
				}
			}
			if fr.Track == p.f.Video.numberOr() {
				for _, pk := range video.packets(fr) {
					p.sink.WriteVideo(pk)
					p.video.Add(1)
				}
			} else if audio != nil {
				for _, pk := range audio.packets(fr) {
					p.sink.WriteAudio(pk)
					p.audio.Add(1)
				}
			}
			p.pos.Store(int64(fr.Time))
			return nil
		})
		var s errSeek
		if errors.As(err, &s) {
			target = max(s.pos, 0)
			p.pos.Store(int64(target))
			continue
		}
		p.end(ctx, err)
		return
	}
}

// numberOr is the track's number, or an impossible one for no track.
func (t *Track) numberOr() uint64 {
	if t == nil {
		return 1<<64 - 1
	}
	return t.Number
}

func (p *Player) end(ctx context.Context, err error) {
	if ctx.Err() != nil || p.o.OnEnd == nil {
		return
	}
	p.o.OnEnd(err)
}
