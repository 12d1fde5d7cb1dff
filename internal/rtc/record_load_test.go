//go:build linux

package rtc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/server"
)

func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestRecordingLoad measures the CPU that recordings cost (docs/benchmarks.md
// "Recording"): n recordings of one publisher's 10 s of VP8 and Opus, sent
// at twice real time, for n = 0 (the publisher and the SFU alone), 1, 16
// and 64. It runs only with CONFER_REC_LOAD=1:
//
//	CONFER_REC_LOAD=1 go test -run TestRecordingLoad -v ./internal/rtc
func TestRecordingLoad(t *testing.T) {
	if os.Getenv("CONFER_REC_LOAD") == "" {
		t.Skip("a measurement, not a check: set CONFER_REC_LOAD=1")
	}
	recDir := t.TempDir()
	env, _, conf, pub := recordingConf(t, server.RecordingConfig{Dir: recDir})
	r := &rtc.Recorder{SFU: env.Srv.SFU()}
	const media10s = 10 * time.Second
	var base time.Duration
	for round, n := range []int{0, 1, 16, 64} {
		pub.round = round
		var recs []media.Recording
		for i := range n {
			rec, err := r.Record(context.Background(), conf, media.RecordSpec{Path: filepath.Join(recDir, fmt.Sprintf("%d-%d.webm", n, i))})
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		cpu0, wall0 := cpuTime(t), time.Now()
		pub.sendAt(t, 0, media10s, 2)
		var bytes int64
		for _, rec := range recs {
			info, err := rec.Stop()
			if err != nil {
				t.Fatal(err)
			}
			bytes += info.Bytes
		}
		cpu, wall := cpuTime(t)-cpu0, time.Since(wall0)
		if n == 0 {
			base = cpu
		}
		per := time.Duration(0)
		if n > 0 {
			per = (cpu - base) / time.Duration(n)
		}
		t.Logf("recordings %2d: wall %v, process CPU %v, CPU per recording %v for 10 s of media (%.2f%% of a core at real time), %d bytes written",
			n, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), per.Round(time.Millisecond), 100*per.Seconds()/media10s.Seconds(), bytes)
	}
}
