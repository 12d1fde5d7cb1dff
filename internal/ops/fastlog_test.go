package ops

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/rand"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fastTime is the records' fixed time: a millisecond boundary is crossed
// by slog's rounding only with the nanoseconds, so it has some.
var fastTime = time.Date(2026, 11, 27, 9, 8, 7, 123456789, time.UTC)

// handlerPair returns our handler on fb and slog's on sb, JSON or text,
// with nil options.
func handlerPair(json bool, fb, sb *bytes.Buffer) (fast, std slog.Handler) {
	if json {
		return NewJSONHandler(fb, nil), slog.NewJSONHandler(sb, nil)
	}
	return NewTextHandler(fb, nil), slog.NewTextHandler(sb, nil)
}

// format writes r through slog's own handler (json or text, nil options)
// and through ours; both writers get what one Handle wrote.
func format(t testing.TB, json bool, r slog.Record) (fast, std string) {
	t.Helper()
	var fb, sb bytes.Buffer
	fh, sh := handlerPair(json, &fb, &sb)
	if err := fh.Handle(context.Background(), r.Clone()); err != nil {
		t.Fatalf("fast handler: %v", err)
	}
	if err := sh.Handle(context.Background(), r.Clone()); err != nil {
		t.Fatalf("slog handler: %v", err)
	}
	return fb.String(), sb.String()
}

// appendRecord runs our formatter alone: the differential tests check
// that it took the record, so that a fallback cannot hide a difference.
func appendRecord(json bool, r slog.Record) (string, bool) {
	var b []byte
	var ok bool
	if json {
		b, ok = appendJSONRecord(nil, r)
	} else {
		b, ok = appendTextRecord(nil, r)
	}
	return string(b), ok
}

// fragments are the pieces of the random strings: what the text handler
// quotes or not, and what the JSON handler escapes (log/slog
// text_handler.go needsQuoting, json_handler.go appendEscapedJSONString).
var fragments = []string{
	"", " ", "=", `"`, `\`, "'", "a", "Z", "0", "-", "_", ".", "/", ":", "request",
	"key=value", "a b", "\t", "\n", "\r", "\x00", "\x01", "\x1f", "\x7f",
	"<", ">", "&", "<script>", "é", "héllo", "日本語", "😀", "\u00a0", "\u2007",
	"\u200b", "\u2028", "\u2029", "\ufeff", "\ufffd", "\U0010ffff", "\u0301",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "%", "{}", "[]",
	"µs", "true", "null",
}

func randString(rng *rand.Rand) string {
	var sb strings.Builder
	for n := rng.Intn(5); n > 0; n-- {
		if rng.Intn(8) == 0 { // arbitrary bytes
			for m := rng.Intn(4); m >= 0; m-- {
				sb.WriteByte(byte(rng.Intn(256)))
			}
			continue
		}
		sb.WriteString(fragments[rng.Intn(len(fragments))])
	}
	return sb.String()
}

var levels = []slog.Level{
	slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError,
	slog.LevelDebug - 1, slog.LevelDebug - 100, slog.LevelInfo + 1, slog.LevelInfo + 3,
	slog.LevelWarn + 2, slog.LevelError + 1, slog.LevelError + 1000,
	math.MinInt, math.MaxInt, -1, 1,
}

var durations = []time.Duration{
	0, 1, -1, 999, 1000, 1001, 1500, 999999, time.Millisecond, 1500 * time.Microsecond,
	-1500 * time.Microsecond, 999999999, time.Second, 1500 * time.Millisecond, 61 * time.Second,
	time.Hour + time.Nanosecond, 100000 * time.Hour, math.MaxInt64, math.MinInt64,
}

var floats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e21,
	123456789.125, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e100, 100,
}

var locations = []*time.Location{
	time.UTC, time.FixedZone("IST", 5*3600+1800), time.FixedZone("PST", -8*3600),
	time.FixedZone("odd", -(3*3600 + 25*60 + 7)), time.FixedZone("zero", 0),
	time.FixedZone("far", 123*3600+45*60+59), time.FixedZone("-far", -(123*3600 + 1)),
}

// randTime is a time in years 0 to 9999, in several zones, with
// nanoseconds on and off millisecond boundaries.
func randTime(rng *rand.Rand) time.Time {
	var t time.Time
	switch rng.Intn(4) {
	case 0:
		t = fastTime
	case 1:
		t = fastTime.Add(time.Duration(rng.Int63n(int64(1000*time.Hour))) - 500*time.Hour)
	case 2:
		t = time.Date(rng.Intn(10000), time.Month(1+rng.Intn(12)), 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), rng.Intn(1e9), time.UTC)
	case 3:
		t = fastTime.Truncate(time.Millisecond).Add(time.Duration(rng.Intn(3)) * 999999)
	}
	return t.In(locations[rng.Intn(len(locations))])
}

// randAttr is an attribute of a kind the formatter takes.
func randAttr(rng *rand.Rand) slog.Attr {
	key := randString(rng)
	switch rng.Intn(9) {
	case 0:
		return slog.Int(key, rng.Intn(2000)-1000)
	case 1:
		return slog.Int64(key, []int64{math.MinInt64, math.MaxInt64, rng.Int63(), -rng.Int63()}[rng.Intn(4)])
	case 2:
		return slog.Uint64(key, []uint64{0, math.MaxUint64, rng.Uint64()}[rng.Intn(3)])
	case 3:
		if rng.Intn(2) == 0 {
			return slog.Float64(key, floats[rng.Intn(len(floats))])
		}
		return slog.Float64(key, rng.NormFloat64()*math.Pow(10, float64(rng.Intn(60)-30)))
	case 4:
		return slog.Bool(key, rng.Intn(2) == 0)
	case 5:
		if rng.Intn(2) == 0 {
			return slog.Duration(key, durations[rng.Intn(len(durations))])
		}
		return slog.Duration(key, time.Duration(rng.Int63n(1<<uint(1+rng.Intn(62))))*time.Duration(1-2*rng.Intn(2)))
	case 6:
		return slog.Time(key, randTime(rng))
	default:
		return slog.String(key, randString(rng))
	}
}

func randRecord(rng *rand.Rand) slog.Record {
	var tm time.Time // zero: slog writes no time
	if rng.Intn(10) != 0 {
		tm = randTime(rng)
	}
	msg := randString(rng)
	if rng.Intn(10) == 0 {
		msg = ""
	}
	r := slog.NewRecord(tm, levels[rng.Intn(len(levels))], msg, 0)
	for n := rng.Intn(12); n > 0; n-- { // past slog.Record's five inline attributes
		r.AddAttrs(randAttr(rng))
	}
	return r
}

// The formatter writes slog's bytes for thousands of random records, and
// takes every one of them itself.
func TestFastLogMatchesSlog(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	for _, json := range []bool{false, true} {
		for i := 0; i < 5000; i++ {
			r := randRecord(rng)
			own, ok := appendRecord(json, r)
			fast, std := format(t, json, r)
			if !ok {
				t.Fatalf("json=%v: record %d left to slog:\n%s", json, i, std)
			}
			if own != std || fast != std {
				t.Fatalf("json=%v: record %d differs:\nslog: %q\nours: %q", json, i, std, own)
			}
		}
	}
}

// The request line as ops.Handler logs it, in both formats.
func TestFastLogRequestLine(t *testing.T) {
	for _, json := range []bool{false, true} {
		r := requestRecord()
		own, ok := appendRecord(json, r)
		_, std := format(t, json, r)
		if !ok || own != std {
			t.Errorf("json=%v: request line:\nslog: %q\nours: %q (taken %v)", json, std, own, ok)
		}
	}
}

func requestAttrs(d time.Duration) []slog.Attr {
	return []slog.Attr{
		slog.String("request_id", "5f0c7e0a9b1d2c3e4f5a6b7c"),
		slog.String("method", "GET"),
		slog.String("endpoint", "list_confs"),
		slog.String("module", "vc"),
		slog.String("domain", "example.com"),
		slog.Int("code", 0),
		slog.Int("status", 200),
		slog.Duration("duration", d),
	}
}

func requestRecord() slog.Record {
	r := slog.NewRecord(fastTime, slog.LevelInfo, "request", 0)
	r.AddAttrs(requestAttrs(1234567 * time.Nanosecond)...)
	return r
}

type textError struct{}

func (textError) MarshalText() ([]byte, error) { return []byte("marshalled text"), nil }

type valuer struct{}

func (valuer) LogValue() slog.Value { return slog.StringValue("resolved value") }

type groupValuer struct{}

func (groupValuer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("a", "b"), slog.Int("c", 1))
}

// Records the formatter leaves to slog are written by slog's handler,
// through the same writer: the same bytes again.
func TestFastLogFallback(t *testing.T) {
	cases := []struct {
		name  string
		attrs []slog.Attr
		json  bool // leaves the record to slog in JSON only
		taken bool // taken in both: the record drops it
	}{
		{"any", []slog.Attr{slog.Any("x", []int{1, 2})}, false, false},
		{"any nil", []slog.Attr{slog.Any("x", nil)}, false, false},
		{"empty attr", []slog.Attr{{}}, false, false},
		{"error", []slog.Attr{slog.Any("err", errors.New("disk \"full\""))}, false, false},
		{"text marshaler", []slog.Attr{slog.Any("tm", textError{})}, false, false},
		{"bytes", []slog.Attr{slog.Any("raw", []byte("a b\x00"))}, false, false},
		{"log valuer", []slog.Attr{slog.Any("lv", valuer{})}, false, false},
		{"log valuer group", []slog.Attr{slog.Any("lv", groupValuer{})}, false, false},
		{"group", []slog.Attr{slog.Group("g", slog.String("a", "b c"), slog.Int("n", 2))}, false, false},
		{"empty group", []slog.Attr{slog.Group("g")}, false, true},
		{"inline group", []slog.Attr{slog.Group("", slog.String("a", "b"))}, false, false},
		{"after plain ones", []slog.Attr{slog.String("a", "b"), slog.Int("n", 1), slog.Any("x", map[string]int{"k": 1})}, false, false},
		{"NaN", []slog.Attr{slog.Float64("f", math.NaN())}, true, false},
		{"infinity", []slog.Attr{slog.Float64("f", math.Inf(-1))}, true, false},
		{"year 10000", []slog.Attr{slog.Time("t", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))}, true, false},
		{"year -1", []slog.Attr{slog.Time("t", time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC))}, true, false},
	}
	for _, c := range cases {
		for _, json := range []bool{false, true} {
			r := slog.NewRecord(fastTime, slog.LevelWarn, "fallback", 0)
			r.AddAttrs(c.attrs...)
			_, ok := appendRecord(json, r)
			if want := c.taken || c.json && !json; ok != want {
				t.Errorf("%s json=%v: formatter took the record: %v, want %v", c.name, json, ok, want)
			}
			fast, std := format(t, json, r)
			if fast != std {
				t.Errorf("%s json=%v:\nslog: %q\nours: %q", c.name, json, std, fast)
			}
		}
	}
	// A record time slog's JSON handler writes with an error.
	r := slog.NewRecord(time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC), slog.LevelInfo, "far", 0)
	if _, ok := appendRecord(true, r); ok {
		t.Error("JSON record of year 12345 taken")
	}
	if fast, std := format(t, true, r); fast != std {
		t.Errorf("year 12345:\nslog: %q\nours: %q", std, fast)
	}
}

// Handlers made by WithAttrs and WithGroup are slog's, over the same
// writer.
func TestFastLogWith(t *testing.T) {
	for _, json := range []bool{false, true} {
		var fb, sb bytes.Buffer
		fh, sh := handlerPair(json, &fb, &sb)
		for _, l := range []*slog.Logger{slog.New(fh), slog.New(sh)} {
			l.Info("plain", "a", 1)
			l.With("node", "n1", "n", 2).Info("with", "b", "c d")
			l.WithGroup("g").Info("group", "e", 3)
			l.WithGroup("g").With("h", 4).WithGroup("i").Warn("nested", "j", time.Second)
			l.WithGroup("g").Info("empty group")
		}
		fl, sl := stripTimes(fb.String()), stripTimes(sb.String())
		if fl != sl {
			t.Errorf("json=%v:\nslog: %s\nours: %s", json, sl, fl)
		}
		if strings.Count(fl, "\n") != 5 {
			t.Errorf("json=%v: want 5 lines:\n%s", json, fl)
		}
	}
}

// stripTimes drops the times of lines logged through a Logger (now).
func stripTimes(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if j := strings.Index(l, "level"); j > 0 {
			lines[i] = l[j:]
		}
	}
	return strings.Join(lines, "\n")
}

// Enabled keeps slog's levels: Info with nil options, else opts.Level.
func TestFastLogEnabled(t *testing.T) {
	ctx := context.Background()
	h := NewTextHandler(io.Discard, nil)
	if h.Enabled(ctx, slog.LevelDebug) || h.Enabled(ctx, slog.LevelInfo-1) || !h.Enabled(ctx, slog.LevelInfo) || !h.Enabled(ctx, slog.LevelError) {
		t.Error("nil options: want Info and above")
	}
	var lv slog.LevelVar
	lv.Set(slog.LevelWarn)
	h = NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: &lv})
	if h.Enabled(ctx, slog.LevelInfo) || !h.Enabled(ctx, slog.LevelWarn) {
		t.Error("LevelVar Warn: want Warn and above")
	}
	lv.Set(slog.LevelDebug)
	if !h.Enabled(ctx, slog.LevelDebug) {
		t.Error("LevelVar set to Debug: Debug disabled")
	}
	if _, ok := NewTextHandler(io.Discard, &slog.HandlerOptions{AddSource: true}).(*slog.TextHandler); !ok {
		t.Error("AddSource: want slog's handler")
	}
}

// lineWriter fails the test when two Writes overlap or a Write is not
// one whole line.
type lineWriter struct {
	t     *testing.T
	busy  atomic.Bool
	mu    sync.Mutex
	lines []string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	if !w.busy.CompareAndSwap(false, true) {
		w.t.Error("overlapping writes")
	}
	time.Sleep(10 * time.Microsecond) // widen the window
	if bytes.IndexByte(p, '\n') != len(p)-1 {
		w.t.Errorf("a write is not one line: %q", p)
	}
	w.mu.Lock()
	w.lines = append(w.lines, string(p))
	w.mu.Unlock()
	w.busy.Store(false)
	return len(p), nil
}

// Lines written by our formatter and by slog's fallback, from many
// goroutines, never overlap: one Write per line under one mutex.
func TestFastLogConcurrent(t *testing.T) {
	w := &lineWriter{t: t}
	l := slog.New(NewTextHandler(w, nil))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				switch i % 3 {
				case 0:
					l.Info("fast", "g", g)
				case 1:
					l.Info("any", "v", []int{g})
				default:
					l.With("g", g).Info("with")
				}
			}
		}()
	}
	wg.Wait()
	if len(w.lines) != 400 {
		t.Errorf("%d lines, want 400", len(w.lines))
	}
}

// Under FlushFrom, as conferd runs it: Info lines wait in the buffer, a
// warning writes them all, slog's fallback lines included.
func TestFastLogFlushFrom(t *testing.T) {
	var out bytes.Buffer
	lb := NewLineBuffer(&out, time.Hour)
	l := slog.New(FlushFrom(NewJSONHandler(lb, nil), lb, slog.LevelWarn))
	l.Info("request", "status", 200)
	l.With("node", "n1").Info("with")
	if out.Len() != 0 {
		t.Fatalf("Info written at once: %q", out.String())
	}
	l.Warn("slow", "duration", time.Second)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"status":200`) || !strings.Contains(lines[1], `"node":"n1"`) || !strings.Contains(lines[2], `"duration":1000000000`) {
		t.Errorf("after the warning:\n%s", out.String())
	}
}

// The formatter allocates nothing: the buffer is pooled, and the
// duration and level strings are not kept (a regression guard; slog's
// own handler and the Logger's record are outside it).
func TestFastLogAllocs(t *testing.T) {
	ctx := context.Background()
	r := requestRecord()
	r.Level = slog.LevelInfo + 2 // a level between names, whose String allocates
	for _, json := range []bool{false, true} {
		h := NewTextHandler(io.Discard, nil)
		if json {
			h = NewJSONHandler(io.Discard, nil)
		}
		h.Handle(ctx, r)
		if n := testing.AllocsPerRun(200, func() { h.Handle(ctx, r) }); n > 0 {
			t.Errorf("json=%v: %.0f allocations per request line, budget 0", json, n)
		}
	}
}

// FuzzFastLogMatchesSlog compares the two handlers' bytes on a record
// made of the fuzzer's strings and numbers; go test runs the seeds.
func FuzzFastLogMatchesSlog(f *testing.F) {
	for _, s := range fragments {
		f.Add(s, s, int64(len(s)), uint64(1)<<len(s), float64(len(s))/7, int64(len(s))*1e6, 0, false)
	}
	f.Add("request", "request_id", int64(-1), uint64(0), 1e21, int64(1234567), 0, true)
	f.Add("", "", int64(math.MinInt64), uint64(math.MaxUint64), -1e-7, int64(math.MinInt64), 13, false)
	f.Add("a=b", "k\u2028", int64(math.MaxInt64), uint64(7), math.Copysign(0, -1), int64(math.MaxInt64), -9, true)
	f.Add("\xff\xfe", "<&>", int64(0), uint64(0), 1.0/3, int64(-1), 1000, false)
	f.Fuzz(func(t *testing.T, msg, s string, i int64, u uint64, fl float64, d int64, level int, json bool) {
		r := slog.NewRecord(fastTime.Add(time.Duration(d)), slog.Level(level), msg, 0)
		r.AddAttrs(
			slog.String(s, msg), slog.String(msg, s), slog.Int64(s, i), slog.Uint64("u", u),
			slog.Float64("f", fl), slog.Duration("d", time.Duration(d)), slog.Bool(s, i < 0),
			slog.Time("t", time.Unix(0, d).In(locations[uint64(i)%uint64(len(locations))])),
		)
		fast, std := format(t, json, r)
		if fast != std {
			t.Fatalf("json=%v:\nslog: %q\nours: %q", json, std, fast)
		}
		own, ok := appendRecord(json, r)
		if ok && own != std {
			t.Fatalf("json=%v: formatter:\nslog: %q\nours: %q", json, std, own)
		}
		if !ok && !(json && (math.IsNaN(fl) || math.IsInf(fl, 0))) {
			t.Fatalf("json=%v: record left to slog:\n%s", json, std)
		}
	})
}

// BenchmarkRequestLine writes ops.Handler's request line: "slog" as it
// was (Logger.LogAttrs, slog's handler), "fast" as it is (logRequest,
// ops' handler), and "fast-logattrs" with ops' handler alone; text and
// JSON.
func BenchmarkRequestLine(b *testing.B) {
	ctx := context.Background()
	d := 1234567 * time.Nanosecond
	attrs := requestAttrs(d)
	for _, json := range []bool{false, true} {
		format, std, fast := "text", slog.New(slog.NewTextHandler(io.Discard, nil)), slog.New(NewTextHandler(io.Discard, nil))
		if json {
			format, std, fast = "json", slog.New(slog.NewJSONHandler(io.Discard, nil)), slog.New(NewJSONHandler(io.Discard, nil))
		}
		b.Run("slog-"+format, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				std.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
			}
		})
		b.Run("fast-logattrs-"+format, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				fast.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
			}
		})
		b.Run("fast-"+format, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				logRequest(ctx, fast, time.Now(), "5f0c7e0a9b1d2c3e4f5a6b7c", "GET", "list_confs", "vc", "example.com", 0, 200, d)
			}
		})
	}
}

// BenchmarkRequestLineHandler is BenchmarkRequestLine without the Logger:
// the handler's Handle on a ready record.
func BenchmarkRequestLineHandler(b *testing.B) {
	ctx := context.Background()
	r := requestRecord()
	for _, c := range []struct {
		name string
		h    slog.Handler
	}{
		{"slog-text", slog.NewTextHandler(io.Discard, nil)},
		{"fast-text", NewTextHandler(io.Discard, nil)},
		{"slog-json", slog.NewJSONHandler(io.Discard, nil)},
		{"fast-json", NewJSONHandler(io.Discard, nil)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.h.Handle(ctx, r)
			}
		})
	}
}

// recordHandler keeps the records it is handed.
type recordHandler struct{ records []slog.Record }

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordHandler) WithGroup(string) slog.Handler      { return h }

// logRequest hands the handler the record Logger.LogAttrs made before,
// less the program counter; a disabled level writes nothing.
func TestLogRequestRecord(t *testing.T) {
	ctx := context.Background()
	d := 1500 * time.Microsecond
	rec := &recordHandler{}
	l := slog.New(rec)
	l.LogAttrs(ctx, slog.LevelInfo, "request", requestAttrs(d)...)
	logRequest(ctx, l, fastTime, "5f0c7e0a9b1d2c3e4f5a6b7c", "GET", "list_confs", "vc", "example.com", 0, 200, d)
	if len(rec.records) != 2 {
		t.Fatalf("%d records", len(rec.records))
	}
	want, got := rec.records[0], rec.records[1]
	if got.Time != fastTime || got.PC != 0 {
		t.Errorf("time %v pc %d, want %v and 0", got.Time, got.PC, fastTime)
	}
	want.Time, want.PC = got.Time, 0
	var wb, gb bytes.Buffer
	slog.NewJSONHandler(&wb, nil).Handle(ctx, want)
	slog.NewJSONHandler(&gb, nil).Handle(ctx, got)
	if wb.String() != gb.String() {
		t.Errorf("LogAttrs: %s\nlogRequest: %s", wb.String(), gb.String())
	}
	var out bytes.Buffer
	quiet := slog.New(NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	logRequest(ctx, quiet, fastTime, "id", "GET", "e", "m", "", 0, 200, d)
	if out.Len() != 0 {
		t.Errorf("request line at level Warn: %q", out.String())
	}
}
