// Package testserver starts a real Confer server on a loopback listener
// over a real store, with a fake clock, for end-to-end tests.
package testserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"golang.org/x/crypto/bcrypt"
)

// Fixture credentials every Env has.
const (
	LicenseKey    = "test-key"
	LicenseSecret = "test-secret"
	AdminUser     = "admin"
	AdminPassword = "admin-password"
)

// Env is a running server.
type Env struct {
	URL   string
	Clock *clock.Fake
	Store *sqlstore.DB
	Srv   *server.Server
	http  *httptest.Server
}

// Options change an Env.
type Options struct {
	Release    string      // platform release to emulate; the latest when ""
	Auth       auth.Config // auth.DefaultConfig() when zero
	MaxBody    int64
	Conference engine.Config // engine.DefaultConfig() when zero
	MC         mc.Config     // FilesDir defaults to a temporary folder
	Push       push.Options  // push defaults when zero
	// Log, when set, receives the server's log lines (text); they are
	// discarded otherwise.
	Log io.Writer
	// Media makes the media backend (nil: the simulation), for tests that
	// watch what the engine asks of the media plane.
	Media  func(media.Events) media.Backend
	Limits server.Limits // server.DefaultLimits() for the zero fields
	// RTC, when set, runs the node's SFU (WHIP, WHEP, the join page) with
	// this configuration, loopback candidates added; nil runs without.
	RTC *sfu.Config
	// Recording is where recordings go; Dir defaults to a temporary folder.
	Recording server.RecordingConfig
	// SIP, when set (with RTC), runs the node's SIP user agent with this
	// configuration (Addr "127.0.0.1:0" when empty: never :5060 in tests).
	SIP *sip.Config
	// NoSimulatedTerminals turns the simulated terminals off (conferd's
	// default): a number no real endpoint takes goes offline. Tests run
	// with them on, as conferd --simulated-terminals, unless set.
	NoSimulatedTerminals bool
	// AllowedOrigins are other origins whose pages may write with the
	// login cookie (server.Config.AllowedOrigins).
	AllowedOrigins []string
	// OneNode makes StartNode's node serve every conference's media
	// itself, as conferd without --media-url (a node restarted on the
	// same database finds its conferences its own).
	OneNode bool
	// MediaLease is the nodes' media owner lease (server.Config.MediaLease;
	// rtc.DefaultLease when 0), driven by the fake clock.
	MediaLease time.Duration
	// WrapStore, when set, wraps the store the server uses (Env.Store
	// stays the bare one), for tests that watch the server's store
	// operations (metered.Wrap).
	WrapStore func(*sqlstore.DB) store.Store
}

// serverStore is the store the server runs over.
func (o Options) serverStore(st *sqlstore.DB) store.Store {
	if o.WrapStore != nil {
		return o.WrapStore(st)
	}
	return st
}

func (o Options) sip() *sip.Config {
	if o.SIP == nil || o.RTC == nil {
		return nil
	}
	c := *o.SIP
	if c.Addr == "" {
		c.Addr = "127.0.0.1:0"
	}
	return &c
}

func (o Options) rtc() sfu.Config {
	if o.RTC == nil {
		return sfu.Config{}
	}
	c := *o.RTC
	c.Loopback = true
	return c
}

// cheapHashes makes the test binary hash secrets at bcrypt's least cost:
// every login of a test compares at the cost in the stored hash, which at
// cost 10 took seconds of a loaded core under -race (auth.SetTestHashCost;
// conferd keeps bcrypt.DefaultCost, which cmd/conferd's
// TestSecretsHashedAtDefaultCost checks).
func cheapHashes() { auth.SetTestHashCost(bcrypt.MinCost) }

// Start starts a server on dsn with the fixture license and administrator.
func Start(t testing.TB, dsn string, opt Options) *Env {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	cheapHashes()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := auth.ImportLicense(ctx, st, LicenseKey, LicenseSecret, now); err != nil {
		t.Fatal(err)
	}
	// A second Start on the same database (a restart) finds the fixtures.
	if _, err := auth.CreateAccount(ctx, st, auth.DefaultDomain, AdminUser, AdminPassword, true, now); err != nil && !errors.Is(err, store.ErrDuplicate) {
		t.Fatal(err)
	}
	rel := release.Latest
	if opt.Release != "" {
		rel = release.MustParse(opt.Release)
	}
	cfg := opt.Auth
	if cfg == (auth.Config{}) {
		cfg = auth.DefaultConfig()
	}
	clk := clock.NewFake(now)
	if opt.MC.FilesDir == "" {
		opt.MC.FilesDir = t.TempDir()
	}
	if opt.Recording.Dir == "" {
		opt.Recording.Dir = t.TempDir()
	}
	logTo := opt.Log
	if logTo == nil {
		logTo = io.Discard
	}
	srv, err := server.New(server.Config{Store: opt.serverStore(st), Clock: clk, Release: rel, Auth: cfg, MaxBody: opt.MaxBody,
		Logger:     slog.New(slog.NewTextHandler(logTo, nil)),
		Conference: opt.Conference, MC: opt.MC, Push: opt.Push, Media: opt.Media, SimulatedTerminals: !opt.NoSimulatedTerminals,
		RTC: opt.rtc(), NoRTC: opt.RTC == nil, SIP: opt.sip(), Limits: opt.Limits, Recording: opt.Recording,
		AllowedOrigins: opt.AllowedOrigins})
	if err != nil {
		t.Fatal(err)
	}
	// The http.Server and listener wrapper conferd runs: timeouts and
	// connection caps (server.Limits).
	hs := httptest.NewUnstartedServer(srv)
	hs.Config = srv.HTTPServer()
	hs.Listener = srv.WrapListener(hs.Listener)
	hs.Start()
	t.Cleanup(hs.Close)
	// Background work (the push service's event tailer, SIP); the server
	// stops first at cleanup, which also releases held push connects
	// before hs.Close, and waits for its goroutines before the store
	// closes.
	if err := srv.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	return &Env{URL: hs.URL, Clock: clk, Store: st, Srv: srv, http: hs}
}

// Tick runs the server's time-driven work at the fake clock's now.
func (e *Env) Tick(t testing.TB) {
	t.Helper()
	if err := e.Srv.Tick(context.Background()); err != nil {
		t.Fatalf("Tick: %v", err)
	}
}

// Advance moves the fake clock and runs the work that became due.
func (e *Env) Advance(t testing.TB, d time.Duration) {
	t.Helper()
	e.Clock.Advance(d)
	e.Tick(t)
}

// Client is an API client that keeps a token and a session cookie.
type Client struct {
	t      testing.TB
	env    *Env
	Token  string
	Cookie string
	Level  string // API-Level header; "" sends none
}

// Client returns a client with no token and no session.
func (e *Env) Client(t testing.TB) *Client { return &Client{t: t, env: e} }

// Reply is a decoded reply.
type Reply struct {
	HTTP *http.Response
	Body map[string]any
	Raw  string
}

// Code returns error_code, or -1 when absent.
func (r Reply) Code() int {
	if v, ok := r.Body["error_code"].(float64); ok {
		return int(v)
	}
	return -1
}

// OK tells whether success is 1.
func (r Reply) OK() bool { return r.Body["success"] == float64(1) }

// Do sends a request. For GET and DELETE, params go to the query string;
// otherwise they are the form body. account_token is added when the client
// has one and params lack it.
func (c *Client) Do(method, path string, params url.Values) Reply {
	c.t.Helper()
	if params == nil {
		params = url.Values{}
	}
	if c.Token != "" && !params.Has("account_token") {
		params.Set("account_token", c.Token)
	}
	target := c.env.URL + path
	var body io.Reader
	if method == http.MethodGet || method == http.MethodDelete {
		if len(params) > 0 {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			target += sep + params.Encode()
		}
	} else {
		body = strings.NewReader(params.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return c.Send(req)
}

// Send sends a prepared request with the client's cookie and API-Level.
func (c *Client) Send(req *http.Request) Reply {
	c.t.Helper()
	if c.Cookie != "" {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
	}
	if c.Level != "" {
		req.Header.Set("API-Level", c.Level)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := Reply{HTTP: resp, Raw: string(raw)}
	if err := json.Unmarshal(raw, &r.Body); err != nil {
		c.t.Fatalf("%s %s: reply is not a JSON object: %q", req.Method, req.URL.Path, raw)
	}
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("%s %s: HTTP %d", req.Method, req.URL.Path, resp.StatusCode)
	}
	return r
}

// GetToken obtains a token with the fixture license.
func (c *Client) GetToken() {
	c.t.Helper()
	r := c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {LicenseKey}, "oauth_consumer_secret": {LicenseSecret}})
	if !r.OK() {
		c.t.Fatalf("token: %s", r.Raw)
	}
	c.Token = r.Body["account_token"].(string)
}

// Login logs in (getting a token first if needed) and keeps the cookie.
func (c *Client) Login(user, password string) Reply {
	c.t.Helper()
	if c.Token == "" {
		c.GetToken()
	}
	r := c.Do("POST", "/api/v1/system/login", url.Values{"username": {user}, "password": {password}})
	for _, ck := range r.HTTP.Cookies() {
		if ck.Name == "SSO_COOKIE_KEY" {
			c.Cookie = ck.Value
		}
	}
	return r
}

// LoggedIn returns a client logged in as the fixture administrator.
func (e *Env) LoggedIn(t testing.TB) *Client {
	t.Helper()
	c := e.Client(t)
	if r := c.Login(AdminUser, AdminPassword); !r.OK() {
		t.Fatalf("login: %s", r.Raw)
	}
	return c
}

// Params encodes v as the form field params (seed 000 "Common rules" 4).
func Params(t testing.TB, v any) url.Values {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return url.Values{"params": {string(b)}}
}

// MustOK fails the test unless r succeeded, and returns its body.
func MustOK(t testing.TB, r Reply) map[string]any {
	t.Helper()
	if !r.OK() {
		t.Fatalf("want success, got %s", r.Raw)
	}
	return r.Body
}

// Account creates an account (in a user domain made if new) and returns a
// client logged in as it.
func (e *Env) Account(t testing.TB, domain, user string, admin bool) *Client {
	t.Helper()
	if _, err := auth.CreateAccount(context.Background(), e.Store, domain, user, "pw", admin, time.Now()); err != nil {
		t.Fatal(err)
	}
	c := e.Client(t)
	MustOK(t, c.Login(user, "pw"))
	return c
}

// MustFail fails the test unless r is a failure with code whose
// description ends with the code; it returns the description.
func MustFail(t testing.TB, r Reply, code int) string {
	t.Helper()
	if r.OK() || r.Code() != code {
		t.Fatalf("reply = %s, want error_code %d", r.Raw, code)
	}
	d, _ := r.Body["description"].(string)
	if !strings.HasSuffix(d, "("+strconv.Itoa(code)+")") {
		t.Fatalf("description %q does not end with (%d)", d, code)
	}
	return d
}

// EngineNode returns the engine of another node on st, built as server.New
// builds it (server.NewEngine), for tests that act as a second node
// without serving HTTP.
func EngineNode(st store.Store, clk clock.Clock, cfg engine.Config) *engine.Engine {
	e, _ := server.NewEngine(st, clk, cfg, nil, nil)
	return e
}
