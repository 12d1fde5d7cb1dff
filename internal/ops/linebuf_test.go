package ops

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the flushing goroutine.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuffer) String() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

// Info lines are held and written together; a warning writes everything
// at once, in order; Flush writes the rest.
func TestLineBuffer(t *testing.T) {
	out := &syncBuffer{}
	lb := NewLineBuffer(out, time.Hour) // the timer never fires in the test
	log := slog.New(FlushFrom(slog.NewTextHandler(lb, nil), lb, slog.LevelWarn)).With("node", "n1")
	for i := 0; i < 3; i++ {
		log.Info("request", "i", i)
	}
	if s, _ := out.String(); s != "" {
		t.Fatalf("info lines written before a flush: %q", s)
	}
	log.Warn("trouble")
	s, writes := out.String()
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if writes != 1 || len(lines) != 4 || !strings.Contains(lines[0], "i=0") || !strings.Contains(lines[3], "trouble") ||
		!strings.Contains(lines[3], "node=n1") {
		t.Fatalf("after a warning: %d writes of %q", writes, s)
	}
	log.Info("last")
	if err := lb.Flush(); err != nil {
		t.Fatal(err)
	}
	if s, writes := out.String(); writes != 2 || !strings.HasSuffix(s, "msg=last node=n1\n") {
		t.Fatalf("after Flush: %d writes of %q", writes, s)
	}
}

// The delay writes held lines without a flush; a full buffer is written
// at once.
func TestLineBufferDelayAndSize(t *testing.T) {
	out := &syncBuffer{}
	lb := NewLineBuffer(out, time.Millisecond)
	_, _ = lb.Write([]byte("one\n"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		if s, _ := out.String(); s == "one\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the held line was never written")
		}
		time.Sleep(time.Millisecond)
	}
	big := NewLineBuffer(out, time.Hour)
	_, _ = big.Write(bytes.Repeat([]byte("x"), lineBufferMax))
	if s, _ := out.String(); len(s) != 4+lineBufferMax {
		t.Fatalf("a full buffer was held: %d bytes written", len(s))
	}
}
