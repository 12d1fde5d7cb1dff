// Package ops is Confer's operations surface: health and readiness
// probes, Prometheus metrics and the per-request log line
// (docs/operations.md). server.Server wraps its API handler with Handler.
package ops

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Paths served by Handler before the API.
const (
	PathHealth  = "/healthz"
	PathReady   = "/readyz"
	PathMetrics = "/metrics"
)

// HeaderRequestID carries the request id in replies (and, when a proxy
// set a sane one, in requests).
const HeaderRequestID = "X-Request-Id"

// Store is what readiness checks: the store answers and its schema is
// migrated. sqlstore.DB satisfies it.
type Store interface {
	Ping(ctx context.Context) error
	SchemaVersion(ctx context.Context) (int, error)
}

// Config is what Handler needs.
type Config struct {
	Logger  *slog.Logger // one Info line per request
	Store   Store        // nil: /readyz answers ready
	Metrics *Metrics     // nil: no /metrics and no request metrics
}

// Info is what the API handler tells the request log about a request; the
// handler finds it with FromContext and fills it in.
type Info struct {
	mu       sync.Mutex
	ID       string
	Module   string // catalogue module, "" when no endpoint matched
	Endpoint string // catalogue endpoint name
	Domain   string // the caller's user domain name, when authenticated
	Code     int    // envelope error_code; 0 on success
}

// Set records the matched endpoint.
func (i *Info) Set(module, endpoint string) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.Module, i.Endpoint = module, endpoint
	i.mu.Unlock()
}

// SetDomain records the caller's user domain.
func (i *Info) SetDomain(domain string) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.Domain = domain
	i.mu.Unlock()
}

// SetCode records the reply's error_code (0 on success).
func (i *Info) SetCode(code int) {
	if i == nil {
		return
	}
	i.mu.Lock()
	i.Code = code
	i.mu.Unlock()
}

type infoKey struct{}

// FromContext returns the request's Info, nil outside Handler.
func FromContext(ctx context.Context) *Info {
	i, _ := ctx.Value(infoKey{}).(*Info)
	return i
}

// Handler serves /healthz, /readyz and /metrics, and passes every other
// request to next with an Info in its context, then logs one line for it
// and counts it.
func Handler(cfg Config, next http.Handler) http.Handler {
	o := New(cfg)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.Probe(w, r) {
			return
		}
		w, r, end := o.Begin(w, r)
		defer end()
		next.ServeHTTP(w, r)
	})
}

// Ops is Handler's work as calls, for a server that dispatches requests
// itself instead of wrapping handlers (issue 40): Probe answers the
// probes and the metrics, Begin and its end frame a request's log line.
type Ops struct {
	cfg     Config
	metrics http.Handler
}

// New makes the probes and the request log of cfg.
func New(cfg Config) *Ops {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	o := &Ops{cfg: cfg}
	if cfg.Metrics != nil {
		o.metrics = cfg.Metrics.Handler()
	}
	return o
}

// Probe answers /healthz, /readyz and /metrics; false for another path.
func (o *Ops) Probe(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case PathHealth:
		writeJSON(w, http.StatusOK, probeReply{Status: "ok"})
		return true
	case PathReady:
		ready(w, r, o.cfg.Store)
		return true
	case PathMetrics:
		if o.metrics != nil {
			o.metrics.ServeHTTP(w, r)
			return true
		}
	}
	return false
}

// Begin starts a request's log line: the writer and request to serve it
// with (an Info in its context), and end, which logs the line and counts
// the request once it is served.
func (o *Ops) Begin(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	start := time.Now()
	info := &Info{ID: requestID(r.Header.Get(HeaderRequestID))}
	w.Header().Set(HeaderRequestID, info.ID)
	sw := &statusWriter{ResponseWriter: w}
	end := func() {
		now := time.Now()
		d := now.Sub(start)
		info.mu.Lock()
		mod, ep, dom, code := info.Module, info.Endpoint, info.Domain, info.Code
		info.mu.Unlock()
		if ep == "" {
			ep, mod = "unknown", "unknown"
		}
		status := sw.status
		if status == 0 {
			status = http.StatusOK
		}
		logRequest(r.Context(), o.cfg.Logger, now, info.ID, r.Method, ep, mod, dom, code, status, d)
		if o.cfg.Metrics != nil {
			o.cfg.Metrics.observe(mod, ep, code, d)
		}
	}
	return sw, r.WithContext(context.WithValue(r.Context(), infoKey{}, info)), end
}

// logRequest writes the request line. It is Logger.LogAttrs without the
// caller's program counter, which only a handler with AddSource writes
// (and would always be the same line of Handler): runtime.Callers was
// about a quarter of the line's cost with ops' handler (performance issue
// 23). No path, query, header or body: they may carry tokens, cookies and
// passwords.
func logRequest(ctx context.Context, l *slog.Logger, now time.Time, id, method, ep, mod, dom string, code, status int, d time.Duration) {
	h := l.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	r := slog.NewRecord(now, slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("request_id", id),
		slog.String("method", method),
		slog.String("endpoint", ep),
		slog.String("module", mod),
		slog.String("domain", dom),
		slog.Int("code", code),
		slog.Int("status", status),
		slog.Duration("duration", d))
	_ = h.Handle(ctx, r)
}

// probeReply is the body of /healthz and /readyz. Its members are in
// name order, as encoding/json wrote the map it replaces, so the bytes
// are the same; a member left out is absent, except schema_version, which
// is written (0 too) once the store answered.
type probeReply struct {
	Error         string `json:"error,omitempty"`
	SchemaVersion *int   `json:"schema_version,omitempty"`
	Status        string `json:"status"`
	Store         string `json:"store,omitempty"`
}

func ready(w http.ResponseWriter, r *http.Request, st Store) {
	if st == nil {
		writeJSON(w, http.StatusOK, probeReply{Status: "ready"})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := st.Ping(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, probeReply{Status: "unavailable", Store: "unreachable", Error: err.Error()})
		return
	}
	v, err := st.SchemaVersion(ctx)
	if err != nil || v < 1 {
		msg := "no migration applied"
		if err != nil {
			msg = err.Error()
		}
		writeJSON(w, http.StatusServiceUnavailable, probeReply{Status: "unavailable", Store: "ok", SchemaVersion: &v, Error: msg})
		return
	}
	writeJSON(w, http.StatusOK, probeReply{Status: "ready", Store: "ok", SchemaVersion: &v})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// requestID keeps a caller's id when it is short and plain, else makes one.
func requestID(in string) string {
	if n := len(in); n > 0 && n <= 64 {
		ok := true
		for _, c := range in {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
				ok = false
				break
			}
		}
		if ok {
			return in
		}
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusWriter remembers the HTTP status; it keeps Flush and Unwrap for
// the push long-poll and websocket transports.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack lets the websocket transport take over the connection.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return http.NewResponseController(w.ResponseWriter).Hijack()
}
