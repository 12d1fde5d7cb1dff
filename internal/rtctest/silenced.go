package rtctest

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/browsertest"
)

// Silenced checks that a stream a control stopped (a mute, a pause) no
// longer arrives, measured in packets of a reference that keeps flowing
// (sent: what the source sent or the server received), never in wall-clock
// time: a loaded machine delays both alike. It waits until got stays put
// while sent advances by window (the control took effect and the packets
// in flight landed), then it fails if more than 3 arrive (late stragglers of
// a lossy path) while sent advances by window again. A stream that never
// stops fails once sent advanced by 20 windows without such a quiet one.
func Silenced(t testing.TB, what string, got, sent func() int64, window int64) {
	t.Helper()
	budget := sent() + 20*window
	wait := func(cond func() bool, what string) {
		for !cond() {
			if browsertest.Expired(t) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for {
		g, s := got(), sent()
		if s >= budget {
			t.Fatalf("%s: still arriving after %d reference packets", what, 20*window)
		}
		wait(func() bool { return got() != g || sent() >= s+window }, what+": the reference to flow")
		if got() == g {
			break
		}
	}
	g, s := got(), sent()
	wait(func() bool { return sent() >= s+window }, what+": the reference to flow")
	if n := got() - g; n > 3 {
		t.Errorf("%s: %d packets arrived while the reference sent %d", what, n, window)
	}
}
