package ops

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
)

// NewTextHandler returns a slog.Handler that writes the same bytes as
// slog.NewTextHandler(w, opts) in about half the time: the request log
// writes a line per request, and slog's handler was 2.5 µs of a 56 µs
// list request (performance issue 23; BenchmarkRequestLineHandler). It
// formats itself the records whose attributes are strings, integers,
// floats, booleans, durations and times, outside any group; every other
// record, and every handler made by WithAttrs or WithGroup, is slog's
// own, writing to w under the same mutex. With AddSource or ReplaceAttr
// it is slog's handler outright.
func NewTextHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	return newFastHandler(w, opts, false)
}

// NewJSONHandler is NewTextHandler for slog.NewJSONHandler's lines.
func NewJSONHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	return newFastHandler(w, opts, true)
}

func newFastHandler(w io.Writer, opts *slog.HandlerOptions, json bool) slog.Handler {
	mu := &sync.Mutex{}
	// slog's handler writes through the same mutex, so that its lines and
	// ours never interleave; it keeps one Write per line as well.
	lw := &lockedWriter{mu: mu, w: w}
	var fallback slog.Handler
	if json {
		fallback = slog.NewJSONHandler(lw, opts)
	} else {
		fallback = slog.NewTextHandler(lw, opts)
	}
	if opts == nil {
		opts = &slog.HandlerOptions{}
	}
	if opts.AddSource || opts.ReplaceAttr != nil {
		return fallback
	}
	return &fastHandler{json: json, w: w, mu: mu, level: opts.Level, fallback: fallback}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type fastHandler struct {
	json     bool
	w        io.Writer
	mu       *sync.Mutex
	level    slog.Leveler // nil: Info, as slog's nil HandlerOptions
	fallback slog.Handler
}

func (h *fastHandler) Enabled(_ context.Context, l slog.Level) bool {
	min := slog.LevelInfo
	if h.level != nil {
		min = h.level.Level()
	}
	return l >= min
}

func (h *fastHandler) WithAttrs(as []slog.Attr) slog.Handler { return h.fallback.WithAttrs(as) }

func (h *fastHandler) WithGroup(name string) slog.Handler { return h.fallback.WithGroup(name) }

// lineBufs holds line buffers; like slog's, larger ones are dropped.
var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

const lineBufKeep = 16 << 10

func (h *fastHandler) Handle(ctx context.Context, r slog.Record) error {
	bp := lineBufs.Get().(*[]byte)
	var b []byte
	var ok bool
	if h.json {
		b, ok = appendJSONRecord((*bp)[:0], r)
	} else {
		b, ok = appendTextRecord((*bp)[:0], r)
	}
	var err error
	if ok {
		h.mu.Lock()
		_, err = h.w.Write(b)
		h.mu.Unlock()
	}
	if cap(b) <= lineBufKeep {
		*bp = b
		lineBufs.Put(bp)
	}
	if !ok {
		return h.fallback.Handle(ctx, r)
	}
	return err
}

// appendTextRecord appends r as slog's TextHandler with nil options does
// (log/slog handler.go commonHandler.handle), or reports false when r has
// an attribute it leaves to slog.
func appendTextRecord(b []byte, r slog.Record) ([]byte, bool) {
	if !r.Time.IsZero() {
		b = append(b, "time="...)
		b = appendRFC3339Millis(b, r.Time)
		b = append(b, ' ')
	}
	b = append(b, "level="...)
	b = appendLevel(b, r.Level)
	b = append(b, " msg="...)
	b = appendTextString(b, r.Message)
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		b, ok = appendTextAttr(b, a)
		return ok
	})
	return append(b, '\n'), ok
}

func appendTextAttr(b []byte, a slog.Attr) ([]byte, bool) {
	v := a.Value
	k := v.Kind()
	if !plainKind(k) {
		return b, false
	}
	b = append(b, ' ')
	b = appendTextString(b, a.Key)
	b = append(b, '=')
	switch k {
	case slog.KindString:
		b = appendTextString(b, v.String())
	case slog.KindInt64:
		b = strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		b = strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		b = strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
	case slog.KindBool:
		b = strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		b = append(b, v.Duration().String()...)
	case slog.KindTime:
		b = appendRFC3339Millis(b, v.Time())
	}
	return b, true
}

// plainKind reports whether the formatter takes values of kind k: any
// (errors, json.Marshal, TextMarshaler...), groups and LogValuers are
// left to slog.
func plainKind(k slog.Kind) bool {
	switch k {
	case slog.KindString, slog.KindInt64, slog.KindUint64, slog.KindFloat64,
		slog.KindBool, slog.KindDuration, slog.KindTime:
		return true
	}
	return false
}

// appendJSONRecord is appendTextRecord for slog's JSONHandler.
func appendJSONRecord(b []byte, r slog.Record) ([]byte, bool) {
	b = append(b, '{')
	if !r.Time.IsZero() {
		b = append(b, `"time":`...)
		var ok bool
		if b, ok = appendJSONTime(b, r.Time); !ok {
			return b, false
		}
		b = append(b, ',')
	}
	b = append(b, `"level":"`...)
	b = appendLevel(b, r.Level)
	b = append(b, `","msg":"`...)
	b = appendEscapedJSONString(b, r.Message)
	b = append(b, '"')
	ok := true
	r.Attrs(func(a slog.Attr) bool {
		b, ok = appendJSONAttr(b, a)
		return ok
	})
	return append(b, '}', '\n'), ok
}

func appendJSONAttr(b []byte, a slog.Attr) ([]byte, bool) {
	v := a.Value
	k := v.Kind()
	if !plainKind(k) {
		return b, false
	}
	b = append(b, ',', '"')
	b = appendEscapedJSONString(b, a.Key)
	b = append(b, '"', ':')
	ok := true
	switch k {
	case slog.KindString:
		b = append(b, '"')
		b = appendEscapedJSONString(b, v.String())
		b = append(b, '"')
	case slog.KindInt64:
		b = strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		b = strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		b, ok = appendJSONFloat(b, v.Float64())
	case slog.KindBool:
		b = strconv.AppendBool(b, v.Bool())
	case slog.KindDuration: // integer nanoseconds, as json.Marshal
		b = strconv.AppendInt(b, int64(v.Duration()), 10)
	case slog.KindTime:
		b, ok = appendJSONTime(b, v.Time())
	}
	return b, ok
}
