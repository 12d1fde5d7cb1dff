// Package server turns the catalogue and the module handlers into one
// http.Handler: it decodes the wire conventions, routes, gates by release
// and API-Level, authenticates, runs the handler and writes the envelope.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/amc"
	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/krtc"
	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/ops"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/router"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/system"
	"github.com/confer-platform/confer/internal/upu"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/vrs"
	"github.com/confer-platform/confer/internal/wire"
)

// Config is what a Server needs.
type Config struct {
	Store   store.Store
	Clock   clock.Clock
	Release release.Release
	Auth    auth.Config
	MaxBody int64 // request body limit; wire.DefaultMaxBody when 0
	Logger  *slog.Logger

	Conference engine.Config // zero: engine.DefaultConfig()
	// AuditRetention is how long the stored audit trail keeps an entry
	// (audit_trail.go): zero DefaultAuditRetention, negative none.
	AuditRetention time.Duration
	// Media makes the media backend from the engine's events (nil: the
	// simulated backend over the store's terminal directory with
	// SimulatedTerminals, else media.Unrouted).
	Media func(media.Events) media.Backend
	// SimulatedTerminals: numbers that no real endpoint takes (no SIP
	// route) are played by the simulated backend and its terminal
	// directory; off, they go offline with the outcome media.NoRoute
	// (conferd --simulated-terminals, docs/sip.md "Which numbers are
	// called").
	SimulatedTerminals bool
	MC                 mc.Config
	NMS                nms.Config   // this node (name, machine room, port) and the alarm thresholds (docs/nms.md)
	Push               push.Options // zero: push defaults (docs/push.md)
	// RTC configures the node's SFU (docs/media.md "Configuration"); the
	// zero value works on one machine with ephemeral ports.
	RTC sfu.Config
	// NoRTC runs without real media: no SFU, WHIP, WHEP or join page.
	NoRTC bool
	// SIP, when set (and with the SFU), runs the node's SIP user agent
	// (docs/sip.md).
	SIP *sip.Config
	// MediaURL is the base URL at which clients and the other nodes reach
	// this node's media plane (conferd --media-url): with several nodes on
	// one database, a conference's media lives on one of them and the
	// others redirect to it (docs/media-nodes.md); "" (one node)
	// serves every conference here.
	MediaURL string
	// MediaLease is how long a node's ownership of a conference's media
	// holds without renewal (conferd --media-lease; rtc.DefaultLease when
	// 0): once it lapses another node takes the conference over
	// (docs/media-nodes.md "Failover").
	MediaLease time.Duration
	// MonitorNets are the destinations of monitors' RTP (docs/live.md
	// "Monitors"); nil: vc.DefaultMonitorNets, empty: no destination.
	MonitorNets []netip.Prefix
	// Recording is where recordings go (docs/recording.md).
	Recording RecordingConfig
	Limits    Limits // zero fields: DefaultLimits (limits.go, docs/operations.md "Limits")
	// AllowedOrigins are the origins (scheme://host[:port]) besides this
	// one whose pages may send cookie-carrying requests that change state
	// (origin.go; conferd --allowed-origins).
	AllowedOrigins []string
}

// Server serves the platform API.
type Server struct {
	cfg      Config
	sfu      *sfu.SFU        // nil with NoRTC
	composer *rtc.Composer   // nil without ffmpeg or RTC
	sip      *sip.UA         // nil without Config.SIP
	rtcAuth  *rtc.Authorizer // admits WHIP, WHEP and join page requests
	owners   *rtc.Owners     // which node serves a conference's media
	hls      *live.HLS       // broadcasts' HLS (live.go); nil without ffmpeg or media
	rtmp     *live.RTMP      // broadcasts' RTMP pushes (live.go); nil without ffmpeg or media
	liveRun  *rtc.LiveMedia  // playbacks, monitors and viewers on the SFU (live.go); nil without media
	recRun   *rtc.Recordings // running recordings on the SFU (recording.go); nil without media or folder
	auth     *auth.Service
	handlers api.Registry
	routes   router.Router[*route]
	log      *slog.Logger
	confs    *engine.Conferences
	vc       *vc.Module
	engine   *engine.Engine
	mc       *mc.Module
	nms      *nms.Module
	vrs      *vrs.Module
	push     *push.Server // nil when the store keeps no event log
	metrics  *ops.Metrics
	web      web // what ServeHTTP dispatches to by path (dispatch.go)
	limits   Limits
	bodies   bodyBudget
	trail    *auditTrail      // the stored audit trail (audit_trail.go)
	group    *lifecycle.Group // every background goroutine of the node (Start, Go, Stop)
	stopOnce sync.Once
}

type route struct {
	ep *catalog.Endpoint
	h  api.Handler
}

// New builds a Server: every catalogue endpoint is routed, with its handler
// or, until a module serves it, the "not implemented" answer.
func New(cfg Config) (*Server, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = wire.DefaultMaxBody
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, handlers: api.Registry{}, log: cfg.Logger, limits: cfg.Limits.withDefaults(), group: lifecycle.NewGroup()}
	s.bodies.limit, s.bodies.perAddr = s.limits.BodyMemory, s.limits.BodyMemoryPerIP
	s.auth = auth.New(cfg.Store, cfg.Clock, cfg.Auth)
	s.trail = newAuditTrail(cfg.Store, cfg.Clock, s.log, cfg.AuditRetention)
	if cfg.Conference == (engine.Config{}) {
		cfg.Conference = engine.DefaultConfig()
	}
	newMedia, err := s.newMedia(cfg)
	if err != nil {
		return nil, err
	}
	s.engine, s.vc = NewEngine(cfg.Store, cfg.Clock, cfg.Conference, newMedia, s.log)
	s.rtcAuth.Confs = s.engine.Conferences()
	s.confs = s.engine.Conferences()
	s.mc = mc.New(cfg.Store, cfg.Clock, s.confs, cfg.MC)
	s.nms = nms.New(cfg.Store, cfg.Clock, s.confs, cfg.Release.Version(), cfg.NMS)
	s.vrs = vrs.New(cfg.Store, cfg.Clock, s.auth, s.confs, s.nms.Node())
	// The route tables of the modules (docs/architecture.md "Routes").
	for _, routes := range []api.Routes{
		system.Routes(s.auth, cfg.Clock),
		s.mc.Routes(),
		s.vc.Routes(),
		amc.New(cfg.Store, cfg.Clock, s.confs, s.auth, amc.Config{}).Routes(),
		krtc.New(cfg.Store, cfg.Clock, s.confs).Routes(),
		upu.New(cfg.Store, cfg.Clock, s.confs, s.auth.Config().SessionTTL).Routes(),
		s.nms.Routes(),
		s.vrs.Routes(),
		(&rtc.Module{Tokens: s.rtcTokens(), Confs: s.confs}).Routes(), // media tokens (docs/media.md)
	} {
		if err := s.handlers.Add(routes); err != nil {
			return nil, err
		}
	}
	if events, ok := cfg.Store.(store.EventLog); ok {
		s.push = push.New(push.Config{Events: events, Store: cfg.Store, Sessions: s.auth, Logger: s.log,
			Resources: s.PushResources(), Options: cfg.Push})
	}

	s.metrics = ops.NewMetrics(s.gauges())
	s.metrics.Registry().MustRegister(s.trail.collectors()...) // docs/operations.md "Audit trail"
	if s.push != nil {
		s.metrics.Registry().MustRegister(s.push.Collectors()...) // docs/push.md "Metrics"
	}
	if s.sip != nil {
		s.metrics.Registry().MustRegister(sipCollectors(s.sip)...) // docs/sip.md "Metrics"
	}
	if s.sfu != nil {
		s.metrics.Registry().MustRegister(rtcCollectors(s.sfu)...) // docs/sfu-internals.md "Batched UDP I/O"
		s.metrics.Registry().MustRegister(mixerCollectors()...)    // docs/operations.md "Metrics"
	}
	var probe ops.Store
	if p, ok := cfg.Store.(ops.Store); ok {
		probe = p
	}
	s.setupRecording(cfg.Recording)             // recorders, programs' files, metrics (recording.go)
	s.setupLive(cfg.Recording, cfg.MonitorNets) // playbacks, watching viewers, monitors' RTP, metrics (live.go)
	// What ServeHTTP hands each request to by its path (dispatch.go).
	s.web = s.newWeb(ops.New(ops.Config{Logger: s.log, Store: probe, Metrics: s.metrics}))

	eps := catalog.All()
	for i := range eps {
		ep := &eps[i]
		h := s.handlerOf(ep.Name)
		for _, p := range ep.Paths() {
			if err := s.routes.Add(ep.Method, p, &route{ep: ep, h: h}); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// redact hides the account_token that the token heartbeat carries in its
// path, so that no token reaches a log line.
func redact(path string) string {
	if i := strings.Index(path, "/token/"); i >= 0 {
		rest := path[i+len("/token/"):]
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			return path[:i] + "/token/***" + rest[j:]
		}
		return path[:i] + "/token/***"
	}
	return path
}

// Tick runs the time-driven work that is due at the clock's now: booked
// conferences that start, conferences whose duration ends, calls that are
// answered, fail or are retried, meeting files that expire. conferd calls
// it every second; tests call it after moving the fake clock.
func (s *Server) Tick(ctx context.Context) error {
	defer s.wakePush()
	return errors.Join(
		s.engine.RunDue(ctx),     // conferences' starts and ends, then calls
		s.vc.RunDueTimeline(ctx), // finished polls, ended playbacks, silent monitors
		s.vc.RunDueMedia(ctx),    // terminals' vmp flags after rotations
		s.vc.RunDueLive(ctx),     // viewers of released monitors, stopped broadcasts and walls
		s.nms.RunDue(ctx),        // this node's report, terminal statistics, alarms
		s.vrs.RunDue(ctx),        // transcoding tasks
		s.mc.ExpireFiles(ctx),
		s.trail.runDue(ctx), // audit entries past their retention
	)
}

// Sweep runs the slow housekeeping: stored meeting files that no record
// names. conferd calls it every five minutes.
func (s *Server) Sweep(ctx context.Context) error { return s.mc.SweepOrphanFiles(ctx) }

// Push returns the push service (CometD at /api/v1/publish), nil when the
// store keeps no event log.
func (s *Server) Push() *push.Server { return s.push }

// Start runs the node, once, after New (which starts nothing): the
// recordings this node's last stop interrupted become programs and the
// programs are compared with the recording files, before anything else
// runs (docs/recording.md "The recording system's files"); then the SIP
// user agent serves, and in the server's goroutine group the push service
// tails the event log and expires its clients and idle HLS streams stop.
// Stop ends all of it.
// conferd calls Start before serving; testserver for every Env.
func (s *Server) Start(ctx context.Context) error {
	if _, err := s.vc.RecoverRecordings(ctx); err != nil {
		s.log.Error("recordings: ending the recordings interrupted by the last stop failed", "err", err)
	}
	if _, err := s.ReconcileRecordings(ctx); err != nil {
		s.log.Error("recordings: reconciling programs and files failed", "err", err)
	}
	if s.sip != nil {
		s.sip.Serve() // its goroutines are the user agent's, ended by its Close
	}
	s.group.Go(s.trail.run) // the stored audit trail (audit_trail.go)
	if s.owners != nil {
		s.group.Go(s.owners.RunLeases) // media owners' leases (docs/media-nodes.md "Failover")
	}
	if s.push != nil {
		s.group.Go(s.push.Run)
	}
	if s.hls != nil {
		s.group.Go(s.hls.Run) // idle HLS streams stop
	}
	return ctx.Err()
}

// Go runs f in the server's goroutine group (conferd's tick and janitor):
// Stop cancels its context and waits for it before the store may close.
// Once Stop began it runs nothing and returns false.
func (s *Server) Go(f func(ctx context.Context)) bool { return s.group.Go(f) }

// Stop stops the node in order (docs/architecture.md "One lifecycle"):
// the goroutine group takes no new goroutine and its context ends (the
// tick and janitor return, push answers its held connects and closes its
// websockets); the running recordings' files are finalised and the
// playbacks' streams stopped; the media plane closes (SIP calls, HLS and
// RTMP, the compositor, the SFU); then Stop waits for every goroutine of
// the group (recording and playback watchers finishing a write) at most
// until ctx ends. Once it returns nothing of the server writes to the
// store, which the caller may close. Stop is idempotent.
func (s *Server) Stop(ctx context.Context) error {
	s.stopOnce.Do(func() {
		s.group.Close()
		s.closeRecordings() // files final before the SFU's taps close
		s.closePlaybacks()
		s.closeRTC()
	})
	return s.group.Wait(ctx)
}

func (s *Server) wakePush() {
	if s.push != nil {
		s.push.Wake()
	}
}

// Auth returns the server's authentication service.
func (s *Server) Auth() *auth.Service { return s.auth }

// Handlers returns the attached handlers, by endpoint name.
func (s *Server) Handlers() api.Registry { return s.handlers }

func notImplemented(ctx context.Context, r *api.Request) (wire.Object, error) {
	return nil, wire.Errorf(wire.CodeNotImplemented, "endpoint %s %s (%s) is not implemented yet", r.Endpoint.Method, r.Endpoint.Path, r.Endpoint.Name)
}

// Metrics returns the server's Prometheus metrics.
func (s *Server) Metrics() *ops.Metrics { return s.metrics }

// serveHTTP serves one API request; a panic becomes 99999, never HTTP 500.
func (s *Server) serveHTTP(w http.ResponseWriter, hr *http.Request) {
	info := ops.FromContext(hr.Context())
	if s.push != nil && push.IsPath(hr.URL.Path) {
		info.Set("push", "push.publish")
		release, err := s.bodies.reserve(hr, push.MaxBody) // bodies.go
		if err != nil {
			info.SetCode(CodeBusy)
			wire.WriteError(w, err)
			return
		}
		defer release()
		s.push.ServeHTTP(w, hr) // CometD at /api/v1/publish (docs/push.md)
		return
	}
	if hr.Method != http.MethodGet {
		defer s.wakePush() // publish this request's changes without waiting for the next poll
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "method", hr.Method, "path", redact(hr.URL.Path), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			info.SetCode(wire.CodeSystemError)
			wire.WriteError(w, wire.E(wire.CodeSystemError))
		}
	}()
	reply, cookies, raw, err := s.serve(hr)
	if err != nil {
		we := wire.AsError(err)
		switch {
		case we.Code == wire.CodeSystemError && store.Unavailable(err):
			// The database is out of reach (a restart): the client may
			// retry as it would a busy node (issue 38 item 13).
			s.log.Warn("request failed: the database is unavailable", "method", hr.Method, "path", redact(hr.URL.Path), "err", err)
			we = wire.Errorf(CodeBusy, "the database is unavailable for now; retry later")
		case we.Code == wire.CodeSystemError && errors.Is(err, media.ErrMoving):
			// The conference's media owner is out of reach while its
			// lease runs: another node takes the media over when it
			// lapses (issue 35 item 5, docs/media-nodes.md "Failover").
			s.log.Warn("request failed: the conference's media node is out of reach", "method", hr.Method, "path", redact(hr.URL.Path), "err", err)
			we = wire.Errorf(CodeBusy, "the conference's media is moving to another node; retry in a few seconds")
		}
		info.SetCode(we.Code)
		if we.Code == wire.CodeSystemError {
			s.log.Error("request failed", "method", hr.Method, "path", redact(hr.URL.Path), "err", err)
		}
		wire.WriteError(w, we)
		return
	}
	for _, c := range cookies {
		loginCookie(c, hr) // origin.go
		http.SetCookie(w, c)
	}
	if b, ok := raw.([]byte); ok { // a reply the handler encoded itself (vc.confs.list)
		h := w.Header()
		h.Set("Content-Type", wire.ContentType)
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b)
		return
	}
	if raw != nil {
		wire.WriteJSON(w, raw)
		return
	}
	wire.WriteJSON(w, wire.Success(reply))
}

func (s *Server) serve(hr *http.Request) (wire.Object, []*http.Cookie, any, error) {
	release, err := s.bodies.reserve(hr, s.cfg.MaxBody) // bodies.go
	if err != nil {
		return nil, nil, nil, err
	}
	defer release()
	args, err := wire.ReadArgs(hr, s.cfg.MaxBody)
	if err != nil {
		return nil, nil, nil, err
	}
	defer args.Close() // temporary files of an upload
	method := hr.Method
	if method == http.MethodPost {
		switch o := args.Override(); o {
		case "":
		case http.MethodPut, http.MethodDelete:
			method = o // seed 000 "Common rules" 6
		default:
			return nil, nil, nil, wire.InvalidParam("_method", "must be PUT or DELETE")
		}
	}
	rt, params, found, ok := s.routes.Match(method, hr.URL.Path)
	if !found {
		return nil, nil, nil, wire.Errorf(wire.CodeNoSuchEndpoint, "no endpoint at %s", hr.URL.Path)
	}
	if !ok {
		return nil, nil, nil, wire.Errorf(wire.CodeMethodNotAllow, "method %s is not allowed on %s (allowed: %s)",
			method, hr.URL.Path, strings.Join(s.routes.Methods(hr.URL.Path), ", "))
	}
	req := &api.Request{Endpoint: rt.ep, PathParams: params, Args: args, Platform: s.cfg.Release}
	info := ops.FromContext(hr.Context())
	info.Set(string(rt.ep.Module), rt.ep.Name)
	if c, err := hr.Cookie(system.CookieName); err == nil {
		req.Cookie = c.Value
	}
	req.BaseURL = baseURL(hr)
	req.Client = clientAddr(hr)
	req.Debug = args.Query.Get("debug") == "1"
	reply, err := s.run(hr.Context(), req, rt.h, func() (int, error) { return wire.HeaderAPILevel(hr.Header) })
	if req.Principal != nil {
		info.SetDomain(req.Principal.DomainName)
	}
	if err != nil {
		if fields, ok := compat.Answered(rt.ep.Name, req.Effective, wire.AsError(err).Code); ok {
			return fields, nil, nil, nil // an older release's success, in its shapes
		}
		return nil, nil, nil, err
	}
	if req.Debug && method != http.MethodGet {
		return reply, nil, nil, nil
	}
	compat.Reply(rt.ep.Name, req.Effective, reply, req.SetCookies)
	return reply, req.SetCookies, req.Raw, nil
}

// gauges are the platform counts /metrics reads when scraped.
func (s *Server) gauges() ops.Gauges {
	count := func(kind, state string) func(ctx context.Context) (int, error) {
		return func(ctx context.Context) (int, error) {
			_, n, err := s.cfg.Store.ListRecords(ctx, store.RecordQuery{Kind: kind, States: []string{state}, Count: 1})
			return n, err
		}
	}
	g := ops.Gauges{
		RunningConferences: count(record.KindConf, engine.StateRunning),
		OnlineTerminals:    count(record.KindMT, engine.StateOnline),
		CallsAttempted:     &s.engine.Calls().Attempted,
		CallsFailed:        &s.engine.Calls().Failed,
	}
	if s.push != nil {
		g.PushClients = s.push.Clients
	}
	return g
}
