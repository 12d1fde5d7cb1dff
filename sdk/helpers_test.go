package sdk_test

import (
	"context"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/sdk"
)

// start runs a real server over SQLite in a temporary folder.
func start(t *testing.T, opt testserver.Options) *testserver.Env {
	t.Helper()
	return testserver.Start(t, testdb.SQLite(t), opt)
}

// admin returns a client of env with the fixture license and administrator.
func admin(t *testing.T, env *testserver.Env, opts ...sdk.Option) *sdk.Client {
	t.Helper()
	return account(t, env, testserver.AdminUser, testserver.AdminPassword, opts...)
}

func account(t *testing.T, env *testserver.Env, user, password string, opts ...sdk.Option) *sdk.Client {
	t.Helper()
	all := append([]sdk.Option{
		sdk.WithLicense(testserver.LicenseKey, testserver.LicenseSecret),
		sdk.WithAccount(user, password),
	}, opts...)
	c, err := sdk.New(env.URL, all...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// recorder is an http.RoundTripper that keeps a copy of every request.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	Method, Path, Query, ContentType, Level, Cookie, Body string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := recorded{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery,
		ContentType: req.Header.Get("Content-Type"), Level: req.Header.Get("API-Level"), Cookie: req.Header.Get("Cookie")}
	if req.Body != nil && req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			buf, _ := io.ReadAll(b)
			rec.Body = string(buf)
		}
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, rec)
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// last returns the last request to path.
func (r *recorder) last(path string) (recorded, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.reqs) - 1; i >= 0; i-- {
		if r.reqs[i].Path == path {
			return r.reqs[i], true
		}
	}
	return recorded{}, false
}

// count returns how many requests went to path.
func (r *recorder) count(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, q := range r.reqs {
		if q.Path == path {
			n++
		}
	}
	return n
}

// conference creates a running conference whose terminals (IP addresses)
// are called automatically, moves the clock until they answer, and
// returns its number.
func startConf(t *testing.T, env *testserver.Env, c *sdk.Client, ips ...string) string {
	t.Helper()
	ctx := context.Background()
	req := &sdk.MCConfsCreateRequest{Name: sdk.String("Weekly sync"), Duration: sdk.Int(60), Bitrate: sdk.Int(2048), CallMode: sdk.Int(2), MaxJoinMt: sdk.Int(8)}
	for _, ip := range ips {
		req.InviteMembers = append(req.InviteMembers, sdk.MCConfsCreateRequestInviteMember{Name: ip, Account: ip, AccountType: 7, Bitrate: sdk.Int(2048)})
	}
	r, err := c.MCConfsCreate(ctx, req)
	if err != nil {
		t.Fatalf("MCConfsCreate: %v", err)
	}
	env.Advance(t, 3*time.Second) // unlisted IP addresses answer after 2 seconds
	return r.ConfID
}
