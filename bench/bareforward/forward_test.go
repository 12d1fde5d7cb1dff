package bareforward_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/confer-platform/confer/bench/bareforward"
	"github.com/confer-platform/confer/internal/mediaload"
)

// TestMain lets the test binary be a child of the generator (--procs).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mediaload-child" {
		if err := mediaload.RunChild(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLoadGenerator runs a tiny workload of cmd/confer-mediaload against
// the forwarder in-process: two rooms, a publisher each, three subscribers
// each, received by the test and a child process; every subscriber
// receives its room's audio without a gap.
func TestLoadGenerator(t *testing.T) {
	srv := httptest.NewServer(bareforward.New(true))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := mediaload.Run(ctx, mediaload.Config{
		Target:      "whip",
		URL:         srv.URL,
		Rooms:       []string{"a", "b"},
		Publishers:  2,
		Subscribers: 6,
		Audio:       mediaload.SilenceOpus(time.Second),
		ServerPID:   os.Getpid(),
		Duration:    time.Second,
		JoinC:       3,
		Loopback:    true,
		Procs:       2,
		ChildArgv:   []string{os.Args[0], "mediaload-child"},
	})
	if err != nil {
		t.Fatal(err)
	}
	mediaload.Print(testWriter{t}, rep)
	if rep.Subscribers != 6 || rep.JoinErrors != 0 || rep.NoPacket != 0 {
		t.Fatalf("subscribers %d, join errors %d (%s), without a packet %d; want 6, 0, 0", rep.Subscribers, rep.JoinErrors, rep.FirstError, rep.NoPacket)
	}
	if rep.Tracks != 6 {
		t.Errorf("tracks %d, want 6 (one audio track a subscriber)", rep.Tracks)
	}
	if rep.Packets == 0 || rep.LostTotal != 0 {
		t.Errorf("packets %d, lost %d; want some and none lost", rep.Packets, rep.LostTotal)
	}
	if rep.GeneratorProcs != 2 {
		t.Errorf("generator processes %d, want 2", rep.GeneratorProcs)
	}
	if rep.ServerCPU <= 0 || rep.ServerRSS <= 0 {
		t.Errorf("server CPU %v, RSS %d: want both from /proc", rep.ServerCPU, rep.ServerRSS)
	}
}

// TestVideo sends VP8 too when ffmpeg can make it.
func TestVideo(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (Debian package ffmpeg; .ci/run installs it): no VP8 to send")
	}
	dir := t.TempDir()
	audio, video, err := mediaload.Generate(dir, true, 2)
	if err != nil {
		t.Fatalf("making the media with ffmpeg: %v", err)
	}
	a, err := mediaload.ReadOgg(audio)
	if err != nil {
		t.Fatal(err)
	}
	v, err := mediaload.ReadIVF(video)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(bareforward.New(true))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := mediaload.Run(ctx, mediaload.Config{
		Target: "whip", URL: srv.URL, Rooms: []string{"v"}, Publishers: 1, Subscribers: 2,
		Audio: a, Video: v, Duration: time.Second, JoinC: 2, Loopback: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	mediaload.Print(testWriter{t}, rep)
	if rep.Subscribers != 2 || rep.Tracks != 4 || rep.NoPacket != 0 || rep.LostTotal != 0 {
		t.Fatalf("subscribers %d, tracks %d, without a packet %d, lost %d; want 2, 4 (audio and video each), 0, 0",
			rep.Subscribers, rep.Tracks, rep.NoPacket, rep.LostTotal)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) { w.t.Log(string(b)); return len(b), nil }
