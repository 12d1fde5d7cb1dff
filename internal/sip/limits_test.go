package sip_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/sip"
)

// syncBuffer is a log sink the user agent's goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// bareUA is a user agent without conferences or media, logging JSON to
// log.
func bareUA(t *testing.T, cfg sip.Config, log io.Writer) *sip.UA {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	ua, err := sip.New(cfg, sip.Deps{Log: slog.New(slog.NewJSONHandler(log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ua.Serve()
	t.Cleanup(func() { ua.Close() })
	return ua
}

// The SIP stack's log (issue 38 item 9): a flood of unparsable datagrams
// (33 kB each, one with a REGISTER's Authorization) is logged in the
// server's format (JSON here), without the messages' text, and at most
// a few records of a kind per window.
func TestSIPLogRedactedAndLimited(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	ua := bareUA(t, sip.Config{}, &log)
	c, err := net.Dial("udp", ua.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	secret := "REGISTER sip:x SIP/2.0\r\nAuthorization: Digest username=\"5550001\", response=\"0123456789abcdef\"\r\nContent-Length: 5\r\n\r\n"
	for i := range 200 {
		junk := strings.Repeat("A", 33000)
		if i == 0 {
			junk = secret
		}
		_, _ = c.Write([]byte(junk))
	}
	// An OPTIONS answered means the flood was read.
	waitFor(t, "an OPTIONS answered after the flood", func() bool {
		return rawReply(t, ua.Addr().String(), request("OPTIONS", "lg1", "")) != ""
	})
	out := log.String()
	if strings.Contains(out, "Digest") || strings.Contains(out, "AAAAAAAAAA") {
		t.Fatalf("the log holds a message's text:\n%.2000s", out)
	}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("a line not in the server's format: %q", sc.Text())
		}
		n++
	}
	if n == 0 || n > 20 {
		t.Errorf("%d log records for 200 bad datagrams, want a few", n)
	}
}

// Per address (issue 38 item 9): datagrams beyond the rate are dropped;
// TCP connections beyond the limit are closed at once; a connection that
// stays silent is closed.
func TestSIPLimitsPerAddress(t *testing.T) {
	t.Parallel()
	cfg := sip.Config{RatePerAddress: 10, TCPPerAddress: 3, TCPSilent: 300 * time.Millisecond}
	ua := bareUA(t, cfg, io.Discard)
	c, err := net.Dial("udp", ua.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 100 {
		_, _ = c.Write([]byte("OPTIONS sip:x SIP/2.0\r\n\r\n"))
	}
	waitFor(t, "datagrams dropped", func() bool { return ua.Stats().Dropped >= 50 })

	addr := ua.Addr().String()
	var conns []net.Conn
	for range 5 {
		tc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer tc.Close()
		conns = append(conns, tc)
	}
	waitFor(t, "two connections refused", func() bool { return ua.Stats().Refused == 2 })
	// The silent ones are closed by the user agent: their reads end.
	for i, tc := range conns {
		_ = tc.SetReadDeadline(time.Now().Add(15 * time.Second))
		if _, err := tc.Read(make([]byte, 1)); err == nil {
			t.Errorf("connection %d: a read got data", i)
		} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("connection %d still open", i)
		}
	}
}
