package watchdog

import (
	"strings"
	"sync"
	"testing"
)

func TestStuck(t *testing.T) {
	testCases := []struct {
		name, dump string
		stuck      int
	}{
		{"a lock waited for two minutes", `goroutine 7 [sync.Mutex.Lock, 2 minutes]:
sync.runtime_SemacquireMutex(...)
github.com/confer-platform/confer/internal/sfu.(*downTrack).setSource(...)`, 1},
		{"a lock waited for less than a minute", `goroutine 7 [sync.Mutex.Lock]:
sync.runtime_SemacquireMutex(...)`, 0},
		{"a read lock, locked to a thread", `goroutine 9 [sync.RWMutex.RLock, 1 minutes, locked to thread]:
sync.runtime_SemacquireRWMutexR(...)`, 1},
		{"a write blocked on a channel", `goroutine 8 [chan send, 3 minutes]:
example.com/sink.(*tap).WriteRTP(...)
github.com/confer-platform/confer/internal/sfu.(*downTrack).writeRTP(...)`, 1},
		{"a reader idle for minutes", `goroutine 10 [IO wait, 5 minutes]:
internal/poll.runtime_pollWait(...)
github.com/pion/ice/v4.(*UDPMuxDefault).connWorker(...)`, 0},
		{"a select for minutes", `goroutine 11 [select, 5 minutes]:
github.com/confer-platform/confer/internal/sfu.(*session).watch(...)`, 0},
	}
	for _, tc := range testCases {
		t.Run(tc.name, func(t *testing.T) {
			dump := tc.dump + "\n\ngoroutine 1 [running]:\nmain.main()\n"
			if got := Stuck([]byte(dump)); len(got) != tc.stuck {
				t.Errorf("Stuck = %q, want %d goroutine(s)", got, tc.stuck)
			}
		})
	}
}

// TestStacksShowLockWaits: the runtime's dump names a goroutine waiting
// for a mutex by the state Stuck looks for, and names the running test.
func TestStacksShowLockWaits(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	waiting := make(chan struct{})
	done := make(chan struct{})
	go func() {
		close(waiting)
		mu.Lock()
		mu.Unlock()
		close(done)
	}()
	<-waiting
	found := false
	for !found {
		dump := Stacks()
		for _, g := range strings.Split(string(dump), "\n\n") {
			if strings.HasPrefix(g, "goroutine ") && strings.Contains(strings.SplitN(g, "\n", 2)[0], "[sync.Mutex.Lock") &&
				strings.Contains(g, "TestStacksShowLockWaits") {
				found = true
			}
		}
		if names := Tests(dump); !strings.Contains(strings.Join(names, " "), "TestStacksShowLockWaits") {
			t.Fatalf("Tests = %v", names)
		}
	}
	mu.Unlock()
	<-done
}
