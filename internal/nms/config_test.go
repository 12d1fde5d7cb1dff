package nms_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The node's name, machine room, location and port come from the
// configuration (server.Config.NMS).
func TestConfiguredNode(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := auth.ImportLicense(ctx, st, testserver.LicenseKey, testserver.LicenseSecret, now); err != nil {
		t.Fatal(err)
	}
	if _, err := auth.CreateAccount(ctx, st, auth.DefaultDomain, testserver.AdminUser, testserver.AdminPassword, true, now); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFake(now)
	cfg := nms.Config{Config: node.Config{Name: "hall-a-1", MachineRoomMoid: "room-a", MachineRoomName: "Hall A",
		Location: "Jiangsu", Port: 9090}}
	srv, err := server.New(server.Config{Store: st, SimulatedTerminals: true, Clock: clk, Release: release.Latest, Auth: auth.DefaultConfig(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NMS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	env := &testserver.Env{URL: hs.URL, Clock: clk, Store: st, Srv: srv}
	c := env.LoggedIn(t)

	moid := node.Moid("node:hall-a-1")
	d := get(t, c, "/physicals/"+moid+"/detail", nil)
	eq(t, "configured node", []any{d["name"], d["machine_room_moid"], d["machine_room_name"], d["location"]},
		[]any{"hall-a-1", "room-a", "Hall A", "Jiangsu"})
	l := list(get(t, c, "/physicals/"+moid+"/logicals", nil)["logicals"])
	eq(t, "services in the machine room", l[0]["machine_room_moid"], "room-a")
	ip := testserver.MustOK(t, c.Do("GET", "/api/v2/vrs/vrsip", nil))["ipinfo"].([]any)
	eq(t, "the configured port", ip[len(ip)-1].(map[string]any)["port"], 9090)
}
