// Package watchdog fails a media test run that deadlocks or whose write
// into a media sink is stuck, at once and with every goroutine's stack,
// instead of letting it hang until go test's -timeout (ten minutes by
// default) kills it with a dump that no longer says what waited on what.
//
// The media test packages (internal/sfu, internal/rtc, internal/recorder)
// call Run from their TestMain. It reads the goroutines' stacks every few
// seconds: a goroutine blocked on a mutex for a minute or more, or one
// blocked for a minute inside a write of forwarded media (a down track's
// write, a sink's WriteRTP), is a deadlock or a stuck write, since no lock
// of the media plane is held for more than a packet's work. The runtime
// reports a wait in whole minutes, so the run fails about a minute after
// the deadlock. Nothing here measures how fast a test runs.
package watchdog

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// period is how often the stacks are read.
const period = 10 * time.Second

// Run runs the tests of m under the watchdog and returns their exit code
// (for os.Exit). A deadlock or a stuck write prints the stuck goroutines
// and the full dump to stderr and ends the process with exit code 2.
func Run(m *testing.M) int {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		watch(stop, period, os.Stderr, func() { os.Exit(2) })
	}()
	code := m.Run()
	close(stop)
	<-done
	return code
}

// watch reads the stacks every period until stop, and reports to w and
// calls fail on the first stuck goroutine.
func watch(stop <-chan struct{}, every time.Duration, w io.Writer, fail func()) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		// A blocked goroutine's wait is timed from the first collection
		// that sees it blocked: collect, so that a wait shows its length.
		runtime.GC()
		dump := Stacks()
		if stuck := Stuck(dump); len(stuck) > 0 {
			fmt.Fprintf(w, "--- FAIL: watchdog: %d goroutine(s) stuck (deadlock or stuck write) in %s\n",
				len(stuck), strings.Join(Tests(dump), ", "))
			for _, g := range stuck {
				fmt.Fprintf(w, "\n%s\n", g)
			}
			fmt.Fprintf(w, "\n=== all goroutines\n%s\nFAIL\n", dump)
			fail()
			return
		}
	}
}

// Stacks returns every goroutine's stack, as a panic prints them.
func Stacks() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// header is a goroutine's first line: "goroutine 7 [sync.Mutex.Lock, 2
// minutes]:" (the wait is printed from one minute on).
var header = regexp.MustCompile(`^goroutine \d+ \[(.*)\]:$`)

// lockWaits are the states of a goroutine waiting for a lock.
var lockWaits = map[string]bool{"sync.Mutex.Lock": true, "sync.RWMutex.Lock": true, "sync.RWMutex.RLock": true}

// writeFrames mark a goroutine that is writing forwarded media into a sink.
var writeFrames = []string{"sfu.(*downTrack).writeRTP(", ".WriteRTP("}

// Stuck returns the stacks, in a dump of Stacks, of the goroutines that
// wait for a lock for a minute or more, and of those blocked for a minute
// or more while writing media.
func Stuck(dump []byte) []string {
	var out []string
	for _, g := range bytes.Split(dump, []byte("\n\n")) {
		first, _, _ := strings.Cut(string(g), "\n")
		m := header.FindStringSubmatch(first)
		if m == nil {
			continue
		}
		parts := strings.Split(m[1], ", ")
		minutes := 0
		for _, p := range parts[1:] {
			if n, ok := strings.CutSuffix(p, " minutes"); ok {
				minutes, _ = strconv.Atoi(n)
			}
		}
		if minutes < 1 {
			continue
		}
		writing := false
		for _, f := range writeFrames {
			writing = writing || bytes.Contains(g, []byte(f))
		}
		if lockWaits[parts[0]] || writing {
			out = append(out, string(g))
		}
	}
	return out
}

// testFunc is a test function's frame in a stack.
var testFunc = regexp.MustCompile(`(?m)^\S+\.(Test\w+)\(`)

// Tests names the test functions that appear in a dump: the tests that
// were running.
func Tests(dump []byte) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range testFunc.FindAllSubmatch(dump, -1) {
		if n := string(m[1]); !seen[n] && n != "TestMain" {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return []string{"no running test"}
	}
	return out
}
