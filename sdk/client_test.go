package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/sdk"
)

func TestLazyLogin(t *testing.T) {
	env := start(t, testserver.Options{})
	rec := &recorder{}
	c := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rec}), sdk.WithAPILevel(3))
	ctx := context.Background()

	// A version query needs no login.
	v, err := c.VCVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v.APILevel != 3 || !strings.HasPrefix(v.Version, "6.1.0.4.0.") {
		t.Errorf("VCVersion = %+v", v)
	}
	if n := rec.count("/api/v1/system/login"); n != 0 {
		t.Fatalf("a public call logged in (%d logins)", n)
	}
	if tok, ck := c.Session(); tok != "" || ck != "" {
		t.Fatalf("Session before any login = %q, %q", tok, ck)
	}

	// The first call that needs a session logs in, once.
	for i := 0; i < 3; i++ {
		if _, err := c.VCConfsList(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := rec.count("/api/v1/system/login"); n != 1 {
		t.Errorf("%d logins for three calls, want 1", n)
	}
	tok, ck := c.Session()
	if tok == "" || ck == "" {
		t.Fatalf("Session after login = %q, %q", tok, ck)
	}
	if info := c.LoginInfo(); info == nil || info.Username != testserver.AdminUser || info.Userdomainname != "default" {
		t.Errorf("LoginInfo = %+v", info)
	}

	// A second client reuses the session.
	c2, err := sdk.New(env.URL, sdk.WithSession(tok, ck))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.VCConfsList(ctx, nil); err != nil {
		t.Errorf("client WithSession: %v", err)
	}
}

// TestRenewal moves the server's clock past the token and session
// lifetime (30 minutes): heartbeats keep a session alive, and an expired
// one is replaced by a new login, the call retried once.
func TestRenewal(t *testing.T) {
	env := start(t, testserver.Options{})
	rec := &recorder{}
	c := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rec}))
	ctx := context.Background()
	if _, err := c.Login(ctx); err != nil {
		t.Fatal(err)
	}
	tok, ck := c.Session()

	// Heartbeats every 20 minutes keep the session for an hour.
	for i := 0; i < 3; i++ {
		env.Advance(t, 20*time.Minute)
		if err := c.Heartbeat(ctx); err != nil {
			t.Fatalf("heartbeat %d: %v", i, err)
		}
	}
	if _, err := c.VCConfsList(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if t2, c2 := c.Session(); t2 != tok || c2 != ck {
		t.Fatal("the client logged in again although heartbeats kept its session")
	}
	if n := rec.count("/api/v1/system/login"); n != 1 {
		t.Fatalf("%d logins, want 1", n)
	}

	// Idle past the lifetime: the platform answers 10002 and the client logs
	// in again and retries, transparently.
	env.Advance(t, 31*time.Minute)
	if _, err := c.VCConfsList(ctx, nil); err != nil {
		t.Fatalf("call after expiry: %v", err)
	}
	if n := rec.count("/api/v1/system/login"); n != 2 {
		t.Errorf("%d logins, want 2", n)
	}
	if t2, c2 := c.Session(); t2 == tok || c2 == ck {
		t.Error("the session did not change after the new login")
	}
	if n := rec.count("/api/v1/vc/confs"); n != 3 {
		t.Errorf("%d requests of the conference list, want 3 (one, then one refused and its retry)", n)
	}

	// The heartbeat itself renews an expired session by logging in again.
	env.Advance(t, 31*time.Minute)
	if err := c.Heartbeat(ctx); err != nil {
		t.Fatalf("heartbeat after expiry: %v", err)
	}
	if n := rec.count("/api/v1/system/login"); n != 3 {
		t.Errorf("%d logins, want 3", n)
	}

	// A client with a session and nothing to log in with reports the expiry.
	tok, ck = c.Session()
	only, err := sdk.New(env.URL, sdk.WithSession(tok, ck))
	if err != nil {
		t.Fatal(err)
	}
	env.Advance(t, 31*time.Minute)
	_, err = only.VCConfsList(ctx, nil)
	if !errors.Is(err, sdk.ErrTokenInvalid) && !errors.Is(err, sdk.ErrNotLoggedIn) {
		t.Errorf("expired session without credentials: err = %v, want 10002 or 10102", err)
	}
}

// TestKeepAlive checks that WithKeepAlive sends heartbeats in the
// background after the first login, until Close.
func TestKeepAlive(t *testing.T) {
	env := start(t, testserver.Options{})
	beats := make(chan struct{}, 100)
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/api/v1/system/heartbeat" {
			beats <- struct{}{}
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	c := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rt}), sdk.WithKeepAlive(time.Millisecond))
	defer c.Close()
	if _, err := c.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		select {
		case <-beats:
		case <-time.After(10 * time.Second):
			t.Fatal("no heartbeat from WithKeepAlive")
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestTypedErrors(t *testing.T) {
	cfg := engine.DefaultConfig()
	cfg.MaxPorts = 100
	env := start(t, testserver.Options{Conference: cfg})
	ctx := context.Background()
	c := admin(t, env)
	env.Account(t, "default", "operator", false) // a non-administrator, password "pw"
	op := account(t, env, "operator", "pw")
	conf := startConf(t, env, c, "10.0.0.1")

	tests := []struct {
		name  string
		call  func() error
		code  sdk.Code
		class error
	}{
		{"unknown conference", func() error { _, err := c.VCConfsGet(ctx, "1119999"); return err }, sdk.CodeConfNotFound, sdk.ErrNotFound},
		{"unknown terminal", func() error { _, err := c.VCConfsMtsGet(ctx, conf, "99"); return err }, sdk.CodeMTNotFound, sdk.ErrNotFound},
		{"unknown template", func() error { _, err := c.MCPersonalTemplatesGet(ctx, "nope"); return err }, sdk.CodeTemplateNotFound, sdk.ErrNotFound},
		{"no permission", func() error {
			_, err := op.MCMeetingRoomAreasCreate(ctx, &sdk.MCMeetingRoomAreasCreateRequest{Area: "Floor 2"})
			return err
		}, sdk.CodeNoPermission, sdk.ErrNoPermission},
		{"no resource", func() error {
			_, err := c.MCConfsCreate(ctx, &sdk.MCConfsCreateRequest{Name: sdk.String("Big"), MaxJoinMt: sdk.Int(192)})
			return err
		}, sdk.CodeNoConfResource, sdk.ErrNoResource},
		{"invalid parameter", func() error {
			return c.VCConfsMuteUpdate(ctx, conf, &sdk.VCConfsMuteUpdateRequest{Value: 7})
		}, sdk.CodeInvalidParam, sdk.ErrInvalidParam},
		{"terminal offline", func() error {
			return c.VCConfsSpeakerUpdate(ctx, conf, &sdk.VCConfsSpeakerUpdateRequest{MtID: "2"})
		}, sdk.CodeMTNotFound, sdk.ErrNotFound},
		{"wrong password", func() error {
			_, err := account(t, env, "operator", "wrong").Login(ctx)
			return err
		}, sdk.CodeWrongPassword, sdk.ErrLoginFailed},
		{"unknown license", func() error {
			bad, _ := sdk.New(env.URL, sdk.WithLicense("nope", "nope"), sdk.WithAccount("admin", "x"))
			_, err := bad.VCConfsList(ctx, nil)
			return err
		}, sdk.CodeSoftwareAuthFailed, sdk.ErrLoginFailed},
		{"no such endpoint", func() error {
			return c.Call(ctx, &sdk.Endpoint{Name: "vc.nothing", Method: "GET", Path: "/api/v1/vc/nothing"}, nil, nil, nil)
		}, sdk.CodeNoSuchEndpoint, sdk.ErrNotSupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var pe *sdk.Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want *sdk.Error", err, err)
			}
			if !errors.Is(err, tt.code) || pe.Code != int(tt.code) {
				t.Errorf("err = %v, want code %d", err, tt.code)
			}
			if !errors.Is(err, tt.class) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.class)
			}
			if errors.Is(err, sdk.ErrTransport) {
				t.Errorf("platform error %v matches ErrTransport", err)
			}
			if pe.Description == "" || !strings.Contains(err.Error(), pe.Description) {
				t.Errorf("Error() = %q, description %q", err.Error(), pe.Description)
			}
			if !errors.Is(err, &sdk.Error{Code: int(tt.code)}) {
				t.Errorf("errors.Is(err, &Error{Code: %d}) = false", tt.code)
			}
		})
	}

	// The lockout counters travel in Fields.
	_, err := account(t, env, "operator", "wrong again").Login(ctx)
	var pe *sdk.Error
	if !errors.As(err, &pe) || pe.Fields["maxlocknum"] == nil || pe.Fields["currentnum"] == nil {
		t.Errorf("wrong password: %#v, want maxlocknum and currentnum in Fields", err)
	}

	// Transport errors are kept apart.
	dead, _ := sdk.New("http://127.0.0.1:1", sdk.WithLicense("k", "s"), sdk.WithAccount("u", "p"))
	_, err = dead.VCConfsList(ctx, nil)
	var te *sdk.TransportError
	if !errors.As(err, &te) || !errors.Is(err, sdk.ErrTransport) || errors.As(err, &pe) {
		t.Errorf("unreachable server: err = %v (%T), want a *TransportError only", err, err)
	}
	if errors.Is(err, sdk.ErrNotFound) {
		t.Error("a transport error matches ErrNotFound")
	}
}

func TestDebugMode(t *testing.T) {
	env := start(t, testserver.Options{})
	ctx := context.Background()
	c := admin(t, env)
	conf := startConf(t, env, c, "10.0.0.1")
	dbg := admin(t, env, sdk.WithDebug())

	// A request the platform would refuse: a *DebugError naming the fields.
	ep, _ := sdk.LookupEndpoint("vc.confs.mts.add")
	params := json.RawMessage(`{"mts":[{"account_type":7,"account":"10.0.0.2","protocol":0}]}`)
	err := dbg.Call(ctx, ep, []string{conf}, params, nil)
	var de *sdk.DebugError
	if !errors.As(err, &de) || !errors.Is(err, sdk.ErrInvalidParam) {
		t.Fatalf("err = %v, want a *DebugError", err)
	}
	if got := strings.Join(de.Problems(), "; "); !strings.Contains(got, "mts[0].bitrate") {
		t.Errorf("Problems() = %q, want mts[0].bitrate", got)
	}

	// A valid request validates and executes nothing.
	_, err = dbg.VCConfsMtsAdd(ctx, conf, &sdk.VCConfsMtsAddRequest{Mts: []sdk.VCConfsMtsAddRequestMt{{Account: "10.0.0.2", AccountType: 7, Bitrate: 2048}}})
	if err != nil {
		t.Fatalf("valid request in debug mode: %v", err)
	}
	// So does ValidateOnly for one call of a normal client.
	if _, err := c.VCConfsMtsAdd(sdk.ValidateOnly(ctx), conf, &sdk.VCConfsMtsAddRequest{Mts: []sdk.VCConfsMtsAddRequestMt{{Account: "10.0.0.3", AccountType: 7, Bitrate: 2048}}}); err != nil {
		t.Fatal(err)
	}
	mts, err := c.VCConfsMtsList(ctx, conf)
	if err != nil {
		t.Fatal(err)
	}
	if len(mts.Mts) != 1 {
		t.Errorf("%d terminals after debug-mode adds, want 1", len(mts.Mts))
	}
}

// TestWire checks the request encoding of each style against docs/api.md.
func TestWire(t *testing.T) {
	env := start(t, testserver.Options{})
	ctx := context.Background()
	rec := &recorder{}
	c := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rec}), sdk.WithAPILevel(2))
	conf := startConf(t, env, c, "10.0.0.1")
	tok, ck := c.Session()

	// GET: query string with account_token; cookie; API-Level.
	if _, err := c.VCConfsList(ctx, &sdk.VCConfsListRequest{Count: sdk.Int(0)}); err != nil {
		t.Fatal(err)
	}
	r, _ := rec.last("/api/v1/vc/confs")
	q, _ := url.ParseQuery(r.Query)
	if r.Method != "GET" || q.Get("account_token") != tok || q.Get("count") != "0" || r.Body != "" {
		t.Errorf("GET: %+v", r)
	}
	if r.Cookie != "SSO_COOKIE_KEY="+ck || r.Level != "2" {
		t.Errorf("GET cookie %q level %q", r.Cookie, r.Level)
	}

	// PUT, params style: form with params JSON and account_token.
	if err := c.VCConfsSpeakerUpdate(ctx, conf, &sdk.VCConfsSpeakerUpdateRequest{MtID: "1"}); err != nil {
		t.Fatal(err)
	}
	r, _ = rec.last("/api/v1/vc/confs/" + conf + "/speaker")
	form, _ := url.ParseQuery(r.Body)
	if r.Method != "PUT" || !strings.HasPrefix(r.ContentType, "application/x-www-form-urlencoded") ||
		form.Get("params") != `{"mt_id":"1"}` || form.Get("account_token") != tok || r.Query != "" {
		t.Errorf("PUT params: %+v", r)
	}
	sp, err := c.VCConfsSpeakerGet(ctx, conf)
	if err != nil || sp.MtID != "1" {
		t.Fatalf("speaker = %+v, %v", sp, err)
	}

	// Form style: plain fields.
	r, _ = rec.last("/api/v1/system/login")
	form, _ = url.ParseQuery(r.Body)
	if form.Get("username") != "admin" || form.Get("account_token") == "" || form.Has("params") {
		t.Errorf("login form: %+v", r)
	}

	// JSON style (krtc): JSON body, account_token in the query.
	_, _ = c.KRTCRoomsCreate(ctx, &sdk.KRTCRoomsCreateRequest{RoomName: "Room 1", MaxJoinMt: sdk.Int(192)})
	r, _ = rec.last("/api/v1/krtc/rooms")
	q, _ = url.ParseQuery(r.Query)
	if r.Method != "POST" || !strings.HasPrefix(r.ContentType, "application/json") || q.Get("account_token") != tok ||
		r.Body != `{"room_name":"Room 1","max_join_mt":192}` {
		t.Errorf("JSON style: %+v", r)
	}

	// Method override: PUT and DELETE go as POST with _method.
	o := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rec}), sdk.WithMethodOverride())
	if err := o.VCConfsSpeakerUpdate(ctx, conf, &sdk.VCConfsSpeakerUpdateRequest{MtID: ""}); err != nil {
		t.Fatal(err)
	}
	r, _ = rec.last("/api/v1/vc/confs/" + conf + "/speaker")
	if r.Method != "POST" || r.Query != "_method=PUT" {
		t.Errorf("override PUT: %+v", r)
	}
	if err := o.VCConfsMtsDelete(ctx, conf, &sdk.VCConfsMtsDeleteRequest{Mts: []sdk.VCConfsMtsDeleteRequestMt{{MtID: "1"}}}); err != nil {
		t.Fatal(err)
	}
	r, _ = rec.last("/api/v1/vc/confs/" + conf + "/mts")
	if r.Method != "POST" || r.Query != "_method=DELETE" || !strings.Contains(r.Body, "params=") {
		t.Errorf("override DELETE: %+v", r)
	}
	if _, err := o.MCConfsDelete(ctx, conf); err != nil {
		t.Fatal(err)
	}
	r, _ = rec.last("/api/v1/mc/confs/" + conf)
	q, _ = url.ParseQuery(r.Query)
	if r.Method != "POST" || q.Get("_method") != "DELETE" || q.Get("account_token") == "" {
		t.Errorf("override DELETE query style: %+v", r)
	}
	if _, err := c.VCConfsGet(ctx, conf); !errors.Is(err, sdk.ErrNotFound) {
		t.Errorf("conference after DELETE via override: err = %v, want not found", err)
	}
}

func TestRawReplyAndCall(t *testing.T) {
	env := start(t, testserver.Options{})
	ctx := context.Background()
	c := admin(t, env)
	doc, err := c.SystemOpenapi(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil || d["openapi"] == nil {
		t.Errorf("SystemOpenapi: %.100s, %v", doc, err)
	}

	// Call by endpoint with maps, and CaptureReply.
	ep, args, ok := sdk.MatchEndpoint("get", "/api/v1/vc/confs/1110000/speaker")
	if !ok || ep.Name != "vc.confs.speaker.get" || len(args) != 1 || args[0] != "1110000" {
		t.Fatalf("MatchEndpoint = %v, %v, %v", ep, args, ok)
	}
	if ep, _, _ := sdk.MatchEndpoint("GET", "/api/v1/vc/confs/1110000/mts"); ep == nil || ep.Name != "vc.confs.mts.list" {
		t.Errorf("MatchEndpoint mts = %v", ep)
	}
	var raw json.RawMessage
	var out map[string]any
	list, _ := sdk.LookupEndpoint("vc.confs.list")
	if err := c.Call(sdk.CaptureReply(ctx, &raw), list, nil, map[string]any{"count": 0}, &out); err != nil {
		t.Fatal(err)
	}
	if out["total"] != float64(0) || !strings.Contains(string(raw), `"success":1`) {
		t.Errorf("Call = %v, raw %s", out, raw)
	}
}
