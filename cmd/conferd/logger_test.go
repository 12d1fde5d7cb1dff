package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/ops"
)

// conferd's logger writes slog's own lines, in both formats, with and
// without the line buffer, with ops' handler rather than slog's
// (performance issue 23).
func TestNewLoggerWritesSlogLines(t *testing.T) {
	r := slog.NewRecord(time.Date(2026, 11, 27, 9, 8, 7, 123456789, time.UTC), slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", "abc"), slog.String("method", "GET"), slog.String("endpoint", "list_confs"),
		slog.String("module", "vc"), slog.String("domain", "a b"), slog.Int("code", 0), slog.Int("status", 200),
		slog.Duration("duration", 1234567*time.Nanosecond))
	for _, format := range []string{"text", "json"} {
		var want bytes.Buffer
		var std slog.Handler = slog.NewTextHandler(&want, nil)
		if format == "json" {
			std = slog.NewJSONHandler(&want, nil)
		}
		std.Handle(context.Background(), r)
		for _, buffered := range []bool{false, true} {
			var got bytes.Buffer
			var lines *ops.LineBuffer
			var w io.Writer = &got
			if buffered {
				lines = ops.NewLineBuffer(&got, time.Hour)
				w = lines
			}
			l, err := newLogger(format, w, lines)
			if err != nil {
				t.Fatal(err)
			}
			switch l.Handler().(type) {
			case *slog.TextHandler, *slog.JSONHandler:
				t.Errorf("%s: conferd's handler is slog's", format)
			}
			if err := l.Handler().Handle(context.Background(), r); err != nil {
				t.Fatal(err)
			}
			if lines != nil {
				lines.Flush()
			}
			if got.String() != want.String() {
				t.Errorf("%s (buffered %v):\nslog:    %q\nconferd: %q", format, buffered, want.String(), got.String())
			}
		}
	}
}
