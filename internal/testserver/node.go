package testserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
)

// nodeEpoch is the fake clock's start, as in Start.
var nodeEpoch = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// Node is one node of a platform of several: its own server.Server, HTTP
// listener and store connection pool on a database that other nodes
// share, with a fake clock that they share too (docs/deployment.md).
type Node struct {
	*Env
	stopOnce sync.Once
	stop     func()
}

// StartNode starts a node on dsn driven by clk (a clock shared with the
// other nodes of the test; a new one when nil). The fixture license and
// administrator are created if the database lacks them.
func StartNode(t testing.TB, dsn string, clk *clock.Fake, opt Options) *Node {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	if clk == nil {
		clk = clock.NewFake(nodeEpoch)
	}
	cheapHashes()
	if err := auth.ImportLicense(ctx, st, LicenseKey, LicenseSecret, nodeEpoch); err != nil {
		st.Close()
		t.Fatal(err)
	}
	if _, err := auth.CreateAccount(ctx, st, auth.DefaultDomain, AdminUser, AdminPassword, true, nodeEpoch); err != nil && !errors.Is(err, store.ErrDuplicate) {
		st.Close()
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
	if opt.MC.FilesDir == "" {
		opt.MC.FilesDir = t.TempDir()
	}
	srv, err := server.New(server.Config{Store: st, Clock: clk, Release: rel, Auth: cfg, MaxBody: opt.MaxBody,
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		Conference: opt.Conference, MC: opt.MC, Push: opt.Push, Media: opt.Media, SimulatedTerminals: !opt.NoSimulatedTerminals,
		RTC: opt.rtc(), NoRTC: opt.RTC == nil, SIP: opt.sip(), Recording: opt.Recording, MediaLease: opt.MediaLease})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	// Each node's media plane is reached at its own listener: a
	// conference's media lives on one node, the others redirect to it.
	if !opt.OneNode {
		srv.SetMediaURL(hs.URL)
	}
	if err := srv.Start(ctx); err != nil {
		hs.Close()
		st.Close()
		t.Fatal(err)
	}
	n := &Node{Env: &Env{URL: hs.URL, Clock: clk, Store: st, Srv: srv, http: hs}}
	n.stop = func() {
		_ = srv.Stop(context.Background()) // held push connects are released first
		hs.CloseClientConnections()
		hs.Close()
		st.Close()
	}
	t.Cleanup(n.Kill)
	return n
}

// Kill stops the node as a crash would, seen from the others: its
// listener closes, open connections drop, its background work stops and
// its store connections close. Its Tick must not be called afterwards.
// Calling Kill again does nothing.
func (n *Node) Kill() { n.stopOnce.Do(n.stop) }
