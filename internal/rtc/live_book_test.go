package rtc_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
)

// Monitors of one conference started at once towards one destination
// (two API calls, or a call beside the live sweep) leave one sender, and
// stopping it ends every tap they opened: a sender replaced by another's
// is closed, never dropped from the book still sending (live_book.go
// SendMonitor).
func TestSendMonitorAtOnceLeavesOneSender(t *testing.T) {
	t.Parallel()
	sf, err := sfu.New(sfu.Config{}, quietEvents{}, quietEvents{})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	g := lifecycle.NewGroup()
	defer g.Close()
	lm := rtc.NewLiveMedia(sf, g, nil)
	sink, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	dst := sink.LocalAddr().String()
	const monitors = 8
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range monitors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			spec := media.MonitorSpec{Name: "monitor " + dst, Dst: dst, Source: media.MonitorTerminal, MtID: "1"}
			if err := lm.SendMonitor(context.Background(), "d", "c1", fmt.Sprint("key", i), spec, false); err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	if n := sf.Sessions(); n != 1 {
		t.Errorf("%d taps open after %d monitors to one destination, want 1", n, monitors)
	}
	if !lm.MonitorSending("d", "c1", dst) {
		t.Error("no sender to the destination")
	}
	lm.StopMonitor("d", "c1", dst)
	if n := sf.Sessions(); n != 0 {
		t.Errorf("%d taps still open after the monitor stopped, want 0", n)
	}
}
