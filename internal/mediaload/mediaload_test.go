package mediaload

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestTrackStatsGapsAndWrap(t *testing.T) {
	var s trackStats
	for _, seq := range []uint16{65533, 65534, 65535, 0, 2, 3, 1} { // 1 late, none lost
		s.add(seq)
	}
	if r, l := s.snapshot(); r != 7 || l != 0 {
		t.Fatalf("received %d lost %d, want 7 0", r, l)
	}
	s.add(10) // 4..9 missing
	if r, l := s.snapshot(); r != 8 || l != 6 {
		t.Fatalf("received %d lost %d, want 8 6", r, l)
	}
}

func TestOpusDuration(t *testing.T) {
	for _, c := range []struct {
		pkt  []byte
		want time.Duration
	}{
		{[]byte{0xF8, 0xFF, 0xFE}, 20 * time.Millisecond}, // CELT FB 20 ms
		{[]byte{0x78, 0}, 20 * time.Millisecond},          // config 15: hybrid FB 20 ms
		{[]byte{0x08 | 1, 0}, 2 * 20 * time.Millisecond},  // SILK NB 20 ms, two frames
		{[]byte{0xF8 | 3, 3}, 3 * 20 * time.Millisecond},  // code 3, three frames
		{[]byte{0xE0}, 2500 * time.Microsecond},           // CELT 2.5 ms
	} {
		if got := opusDuration(c.pkt); got != c.want {
			t.Errorf("opusDuration(%x) = %v, want %v", c.pkt, got, c.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i))
	}
	if p50, p99, max := percentile(ds, 50), percentile(ds, 99), percentile(ds, 100); p50 != 50 || p99 != 99 || max != 100 {
		t.Fatalf("p50 %d p99 %d max %d", p50, p99, max)
	}
	if percentile(nil, 99) != 0 {
		t.Fatal("empty: want 0")
	}
}

func TestProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	deadline := time.Now().Add(time.Minute)
	for n := 0; ; n++ { // burn CPU until /proc counts a tick
		cpu, err := ProcCPU(os.Getpid(), true)
		if err != nil {
			t.Fatal(err)
		}
		if cpu > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no CPU time counted")
		}
	}
	if rss, err := ProcRSS(os.Getpid()); err != nil || rss <= 0 {
		t.Fatalf("rss %d, %v", rss, err)
	}
	if _, err := ProcCPU(-1, false); err == nil {
		t.Fatal("pid -1: want an error")
	}
}

// TestFilesFromFFmpeg reads the Ogg and IVF files ffmpeg makes.
func TestFilesFromFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (Debian package ffmpeg)")
	}
	a, v, err := Generate(t.TempDir(), true, 1)
	if err != nil {
		t.Fatal(err)
	}
	ac, err := ReadOgg(a)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ac.Frames); n < 50 || n > 51 || ac.Frames[0].Duration != 20*time.Millisecond { // the encoder's pre-skip adds a frame
		t.Errorf("audio: %d frames of %v, want 50 or 51 of 20ms", n, ac.Frames[0].Duration)
	}
	vc, err := ReadIVF(v)
	if err != nil {
		t.Fatal(err)
	}
	if len(vc.Frames) != 30 || clipDuration(vc) != 30*(time.Second/30) {
		t.Errorf("video: %d frames lasting %v, want 30 lasting 1s", len(vc.Frames), clipDuration(vc))
	}
	if _, err := ReadOgg(v); err == nil {
		t.Error("ReadOgg of an IVF file: want an error")
	}
	if _, err := ReadIVF(a); err == nil {
		t.Error("ReadIVF of an Ogg file: want an error")
	}
}

// TestJanus runs a tiny workload through Janus's VideoRoom: the driver
// creates the room, publishes and subscribes over Janus's HTTP API.
func TestJanus(t *testing.T) {
	if _, err := exec.LookPath("janus"); err != nil {
		t.Skip("janus not installed (Debian package janus)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	j, err := StartJanus(ctx, t.TempDir(), JanusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Stop()
	rep, err := Run(ctx, Config{
		Target: "janus", URL: j.URL, Rooms: []string{"4242"}, Publishers: 2, Subscribers: 3,
		Audio: SilenceOpus(time.Second), ServerPID: j.PID(), Duration: time.Second, JoinC: 3, Loopback: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Subscribers != 3 || rep.JoinErrors != 0 || rep.NoPacket != 0 || rep.Tracks != 6 {
		t.Fatalf("subscribers %d, errors %d (%s), without a packet %d, tracks %d; want 3, 0, 0, 6 (both publishers each)",
			rep.Subscribers, rep.JoinErrors, rep.FirstError, rep.NoPacket, rep.Tracks)
	}
	if rep.Packets == 0 || rep.ServerCPU <= 0 {
		t.Fatalf("packets %d, server CPU %v: want both", rep.Packets, rep.ServerCPU)
	}
}

func TestConfigBounds(t *testing.T) {
	ok := Config{Target: "whip", URL: "http://127.0.0.1:1", Rooms: []string{"a"}, Publishers: 1, Subscribers: 1,
		Audio: SilenceOpus(time.Second), Duration: time.Second, Loopback: true}
	for name, mod := range map[string]func(*Config){
		"remote URL":  func(c *Config) { c.URL = "http://192.0.2.1:8080" },
		"target":      func(c *Config) { c.Target = "sip" },
		"subscribers": func(c *Config) { c.Subscribers = MaxSubscribers + 1 },
		"publishers":  func(c *Config) { c.Publishers = 0 },
		"rooms":       func(c *Config) { c.Rooms = []string{"a", "b"} },
		"duration":    func(c *Config) { c.Duration = MaxDuration + 1 },
		"no audio":    func(c *Config) { c.Audio = Clip{} },
	} {
		c := ok
		mod(&c)
		if err := c.check(); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
}
