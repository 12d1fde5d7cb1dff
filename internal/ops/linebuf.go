package ops

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// LineBuffer gathers the lines written to it for at most a short delay
// and writes them to the underlying writer together: conferd logs a line
// per request, and a write(2) per line was about 9 µs of a request's
// 80 to 250 (docs/benchmarks.md "API performance, third pass"). Each Write
// is kept whole (slog writes a record in one call). Lines at Warn and
// above are written at once (FlushFrom); a process killed without
// warning loses at most the last delay's Info lines; Flush before exit.
type LineBuffer struct {
	w     io.Writer
	delay time.Duration

	mu    sync.Mutex
	buf   []byte
	armed bool
}

// lineBufferMax is written at once when reached, whatever the delay.
const lineBufferMax = 64 << 10

// NewLineBuffer buffers writes to w for at most delay.
func NewLineBuffer(w io.Writer, delay time.Duration) *LineBuffer {
	return &LineBuffer{w: w, delay: delay}
}

func (b *LineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= lineBufferMax {
		return len(p), b.flushLocked()
	}
	if !b.armed {
		b.armed = true
		time.AfterFunc(b.delay, func() { _ = b.Flush() })
	}
	return len(p), nil
}

// Flush writes what is buffered.
func (b *LineBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *LineBuffer) flushLocked() error {
	b.armed = false
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	if cap(b.buf) > 4*lineBufferMax {
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
	return err
}

// FlushFrom wraps h so that a record at level or above is written to
// b's writer before Handle returns (warnings and errors are never held).
func FlushFrom(h slog.Handler, b *LineBuffer, level slog.Level) slog.Handler {
	return flushingHandler{h, b, level}
}

type flushingHandler struct {
	slog.Handler
	b     *LineBuffer
	level slog.Level
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= h.level {
		if ferr := h.b.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.b, h.level}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.b, h.level}
}
