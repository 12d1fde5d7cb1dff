package sfu

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// logBuffer is a log that tests read while the SFU writes it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRequestsAndDropsLogged: a WHIP session's opening, a refused offer
// and a participant whose connection is lost are logged with the
// conference and the terminal (issue 35 item 3: none of them was).
func TestRequestsAndDropsLogged(t *testing.T) {
	t.Parallel()
	var buf logBuffer
	rg := newRig(t, func(c *Config) { c.Log = slog.New(slog.NewTextHandler(&buf, nil)) })
	a := rg.publish("c1", idA, false, "")
	if code, _, _ := rg.post("/rtc/whip/c1", "pub", "hello"); code != 400 {
		t.Fatalf("garbage offer = %d", code)
	}
	_ = a.pc.Close() // gone without DELETE
	waitFor(t, "the drop logged", func() bool { return strings.Contains(buf.String(), "participant dropped") })
	log := buf.String()
	for _, want := range []string{
		`msg="rtc: session opened" method=WHIP conf_id=c1 mt_id=` + a.mtID,
		`msg="rtc: offer refused" method=WHIP conf_id=c1`,
		`msg="rtc: participant dropped (connection lost)" conf_id=c1 mt_id=` + a.mtID,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
}
