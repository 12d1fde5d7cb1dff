package playout

import (
	"context"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// testFile makes a 3 s VP8/Opus WebM with ffmpeg (key frame every 30
// frames); skips without ffmpeg.
func testFile(t *testing.T, args ...string) string {
	t.Helper()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg not installed (the Debian ffmpeg package): cannot make a test program")
	}
	out := filepath.Join(t.TempDir(), "prg.webm")
	if len(args) == 0 {
		args = []string{"-c:v", "libvpx", "-g", "30", "-b:v", "300k", "-c:a", "libopus"}
	}
	cmd := append([]string{"-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30",
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "3"}, args...)
	if b, err := exec.Command(ff, append(cmd, out)...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	return out
}

func TestOpenAndFrames(t *testing.T) {
	f, err := Open(testFile(t))
	if err != nil {
		t.Fatal(err)
	}
	if f.Video == nil || f.Video.Mime != MimeVP8 || f.Video.Width != 160 || f.Audio == nil || f.Audio.Mime != MimeOpus {
		t.Fatalf("tracks: video %+v audio %+v", f.Video, f.Audio)
	}
	if f.Duration < 2900*time.Millisecond || f.Duration > 3100*time.Millisecond {
		t.Fatalf("duration %v, want 3 s", f.Duration)
	}
	var video, audio, keys int
	var last time.Duration
	err = f.Frames(context.Background(), 0, func(fr Frame) error {
		if fr.Track == f.Video.Number {
			video++
			if fr.Key {
				keys++
			}
		} else {
			audio++
		}
		last = max(last, fr.Time)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if video != 90 || keys != 3 || audio < 140 || last < 2900*time.Millisecond {
		t.Fatalf("frames: %d video (%d key), %d audio, last at %v", video, keys, audio, last)
	}
	k, err := f.KeyBefore(context.Background(), 1500*time.Millisecond)
	if err != nil || k < time.Second || k > time.Second+40*time.Millisecond {
		t.Fatalf("key before 1.5 s: %v %v, want 1 s", k, err)
	}
}

func TestOpenRejects(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.webm")
	if err := exec.Command("sh", "-c", "echo not a file > "+p).Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(p); err == nil {
		t.Fatal("a text file opened as a program")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.webm")); err == nil {
		t.Fatal("a missing file opened")
	}
}

// manual is a Clock moved by the test.
type manual struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	c  chan time.Time
}

func (m *manual) Now() time.Time { m.mu.Lock(); defer m.mu.Unlock(); return m.now }

func (m *manual) After(d time.Duration) <-chan time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := make(chan time.Time, 1)
	m.waiters = append(m.waiters, waiter{m.now.Add(d), c})
	return c
}

func (m *manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
	kept := m.waiters[:0]
	for _, w := range m.waiters {
		if !w.at.After(m.now) {
			w.c <- m.now
		} else {
			kept = append(kept, w)
		}
	}
	m.waiters = kept
}

type sink struct {
	mu           sync.Mutex
	audio, video []*rtp.Packet
}

func (s *sink) WriteAudio(p *rtp.Packet) { s.mu.Lock(); s.audio = append(s.audio, p); s.mu.Unlock() }
func (s *sink) WriteVideo(p *rtp.Packet) { s.mu.Lock(); s.video = append(s.video, p); s.mu.Unlock() }
func (s *sink) counts() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.audio), len(s.video)
}
func (s *sink) lastVideo() *rtp.Packet {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.video[len(s.video)-1]
}

// settle waits until the player has sent every frame due at the clock's
// now and waits again (an event of the player, not a pause of the test).
func settle(t *testing.T, p *Player, s *sink) (int, int) {
	t.Helper()
	p.idle()
	return s.counts()
}

func TestPlayerPacedPauseSeek(t *testing.T) {
	f, err := Open(testFile(t))
	if err != nil {
		t.Fatal(err)
	}
	clk := &manual{now: time.Unix(1000, 0)}
	s := &sink{}
	ended := make(chan error, 1)
	p := Play(f, s, Options{AudioPT: 111, VideoPT: 96, Clock: clk, OnEnd: func(err error) { ended <- err }})
	defer p.Stop()

	// At the start only the first frames (the first 40 ms) are due.
	settle(t, p, s)
	clk.Advance(40 * time.Millisecond)
	a0, v0 := settle(t, p, s)
	if v0 == 0 || a0 > 3 {
		t.Fatalf("at 0 s: %d audio, %d video packets", a0, v0)
	}
	// One second of media comes with one second of clock.
	for i := 0; i < 10; i++ {
		clk.Advance(100 * time.Millisecond)
		settle(t, p, s)
	}
	a1, v1 := s.counts()
	if pos := p.Position(); pos < 950*time.Millisecond || pos > 1100*time.Millisecond {
		t.Fatalf("position after 1 s: %v", pos)
	}
	if a1 < 45 || v1 <= v0 {
		t.Fatalf("after 1 s: %d audio, %d video packets", a1, v1)
	}
	// Paused, nothing more is sent however long the clock runs.
	p.Pause()
	clk.Advance(500 * time.Millisecond) // the pending wait fires, the command is read first
	a2, v2 := settle(t, p, s)
	clk.Advance(5 * time.Second)
	if a3, v3 := settle(t, p, s); a3 != a2 || v3 != v2 {
		t.Fatalf("paused, packets went on: %d/%d then %d/%d", a2, v2, a3, v3)
	}
	if !p.Paused() {
		t.Fatal("not paused")
	}
	// Seek to 2.5 s while paused, then resume: the timestamps jump to
	// the key frame at 2 s.
	before := s.lastVideo().Timestamp
	p.Seek(2500 * time.Millisecond)
	p.Resume()
	settle(t, p, s)
	after := s.lastVideo().Timestamp
	if d := after - before; d < 90000*9/10 || d > 90000*12/10 {
		t.Fatalf("video timestamp moved by %d after seeking from ~1 s to the key frame at 2 s", d)
	}
	for i := 0; i < 20; i++ {
		clk.Advance(100 * time.Millisecond)
		select {
		case err := <-ended:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		settle(t, p, s)
	}
	t.Fatal("the playback did not end at the end of the file")
}

func TestPlayerH264(t *testing.T) {
	f, err := Open(testFile(t, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-profile:v", "baseline", "-g", "30", "-c:a", "libopus", "-f", "matroska"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Video == nil || f.Video.Mime != MimeH264 {
		t.Fatalf("video %+v", f.Video)
	}
	clk := &manual{now: time.Unix(1000, 0)}
	s := &sink{}
	p := Play(f, s, Options{Clock: clk})
	defer p.Stop()
	settle(t, p, s)
	clk.Advance(100 * time.Millisecond)
	if _, v := settle(t, p, s); v == 0 {
		t.Fatal("no H.264 packet after 100 ms")
	}
	s.mu.Lock()
	first := s.video[0].Payload
	s.mu.Unlock()
	// The key frame starts with the SPS (NAL type 7), alone or in a
	// STAP-A (24) with the PPS.
	if typ := first[0] & 0x1f; typ != 7 && typ != 24 {
		t.Fatalf("first H.264 packet is NAL type %d, want the SPS", typ)
	}
}
