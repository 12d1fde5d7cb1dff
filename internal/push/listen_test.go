package push

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

type fakeWakeups struct{ err error }

func (f *fakeWakeups) C() <-chan struct{} { return nil }
func (f *fakeWakeups) Err() error         { return f.err }

// The tailer reads the log every SafetyPoll while woken by the store,
// every Poll while its listener is down (logged once) or absent.
func TestListenerInterval(t *testing.T) {
	var logs bytes.Buffer
	s := New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Options: Options{Poll: time.Millisecond, SafetyPoll: time.Hour}})
	if got := (&listener{}).interval(s.opt); got != time.Millisecond {
		t.Errorf("without wake-ups: %v, want Poll", got)
	}
	sub := &fakeWakeups{err: errors.New("connection refused")}
	l := &listener{sub: sub}
	for i := 0; i < 2; i++ {
		l.update(s.tail)
		if got := l.interval(s.opt); got != time.Millisecond {
			t.Errorf("listener down: %v, want Poll", got)
		}
	}
	sub.err = nil
	l.update(s.tail)
	if got := l.interval(s.opt); got != time.Hour {
		t.Errorf("listener up: %v, want SafetyPoll", got)
	}
	if n := strings.Count(logs.String(), "not woken"); n != 1 {
		t.Errorf("loss logged %d times, want once:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), "again") {
		t.Errorf("recovery not logged:\n%s", logs.String())
	}
}
