package sip

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// sipgo's log (issue 38; docs/sip.md "Logs"): the SIP stack logs through
// the server's logger (its format, --log-format json included), with the
// text of messages redacted and each kind of record rate-limited. A
// malformed datagram is logged by sipgo with its whole text ("data"): a
// flood of them from one sender wrote megabytes a second, and a
// REGISTER's Authorization appeared verbatim. Here a message's text is
// replaced by its length, and a record (by its message) is written at
// most logBurst times per logWindow; the next says that the others of
// its kind are left out until the window ends.

const (
	logWindow = 10 * time.Second
	logBurst  = 5
)

// redactedKeys are attributes that carry a message's text.
var redactedKeys = map[string]bool{"data": true, "msg": true, "sipmsg": true, "req": true, "res": true, "request": true, "response": true}

// logLimits counts the records of each message in the current window.
type logLimits struct {
	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

// admit tells whether a record with message m is written, and whether
// it is the first one left out in this window.
func (l *logLimits) admit(m string, now time.Time) (ok, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.start) >= logWindow {
		l.start, l.counts = now, map[string]int{}
	}
	l.counts[m]++
	return l.counts[m] <= logBurst, l.counts[m] == logBurst+1
}

// sipLogHandler wraps the server's handler for sipgo.
type sipLogHandler struct {
	inner  slog.Handler
	limits *logLimits
}

func newSIPLogger(base *slog.Logger) *slog.Logger {
	return slog.New(&sipLogHandler{inner: base.Handler().WithAttrs([]slog.Attr{slog.String("component", "sipgo")}),
		limits: &logLimits{counts: map[string]int{}}})
}

func (h *sipLogHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

func (h *sipLogHandler) Handle(ctx context.Context, r slog.Record) error {
	ok, first := h.limits.admit(r.Message, r.Time)
	if first {
		out := slog.NewRecord(r.Time, r.Level, "sip stack: further records left out", r.PC)
		out.AddAttrs(slog.String("of", r.Message), slog.Duration("for", logWindow))
		return h.inner.Handle(ctx, out)
	}
	if !ok {
		return nil
	}
	out := slog.NewRecord(r.Time, r.Level, "sip stack: "+r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redact(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *sipLogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redact(a)
	}
	return &sipLogHandler{inner: h.inner.WithAttrs(red), limits: h.limits}
}

func (h *sipLogHandler) WithGroup(name string) slog.Handler {
	return &sipLogHandler{inner: h.inner.WithGroup(name), limits: h.limits}
}

// redact replaces a message's text by its length, and any value that
// holds a SIP header line of credentials.
func redact(a slog.Attr) slog.Attr {
	if redactedKeys[strings.ToLower(a.Key)] {
		return slog.Int(a.Key+"_bytes", len(a.Value.String()))
	}
	if a.Value.Kind() == slog.KindString || a.Value.Kind() == slog.KindAny {
		v := a.Value.String()
		if strings.Contains(strings.ToLower(v), "authorization") || len(v) > 256 {
			return slog.Int(a.Key+"_bytes", len(v))
		}
	}
	return a
}
