package vc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// Helpers of the poll, recording, playback, monitor and selective-viewing
// tests (prefix tl).

// tlConf is a running conference with terminals.
type tlConf struct {
	env    *testserver.Env
	c      *testserver.Client
	id     string
	domain string
}

var tlNets = struct {
	sync.Mutex
	n map[*testserver.Env]int
}{n: map[*testserver.Env]int{}}

// tlNet is the network of a conference tlStart starts in env: 10.0.1 for
// the first, 10.3.<n> for the n-th after it (a terminal is online in one
// conference at a time).
func tlNet(env *testserver.Env) string {
	tlNets.Lock()
	defer tlNets.Unlock()
	n := tlNets.n[env]
	tlNets.n[env]++
	if n == 0 {
		return "10.0.1"
	}
	return fmt.Sprintf("10.3.%d", n)
}

// tlStart creates a conference through mc that calls online IP terminals
// (mt_id 1 to online), then offline E.164 numbers (the next mt_ids), and
// moves the clock until the IP terminals have answered.
func tlStart(t *testing.T, env *testserver.Env, c *testserver.Client, online, offline int) tlConf {
	t.Helper()
	var members []any
	net := tlNet(env)
	for i := 1; i <= online; i++ {
		members = append(members, map[string]any{"name": fmt.Sprint("mt", i), "account": fmt.Sprintf("%s.%d", net, i),
			"account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	for i := 1; i <= offline; i++ {
		e164 := fmt.Sprintf("555100%d", i) // offline in the directory (an unknown number answers)
		if err := env.Store.PutDirectoryEntry(context.Background(), store.DirectoryEntry{Account: e164, E164: e164, MtType: 1, Behaviour: "offline"}); err != nil {
			t.Fatal(err)
		}
		members = append(members, map[string]any{"name": fmt.Sprint("off", i), "account": e164,
			"account_type": 5, "bitrate": 1024, "protocol": 0})
	}
	p := map[string]any{"create_type": 1, "name": "media", "bitrate": 1024, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 1, "call_interval": 10, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	env.Advance(t, 3*time.Second)
	info := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil))
	domain, _ := info["user_domain_moid"].(string)
	if domain == "" { // older releases do not show it
		recs, _, err := env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindConf})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.ID == id {
				domain = r.DomainMoid
			}
		}
	}
	return tlConf{env: env, c: c, id: id, domain: domain}
}

// path is the conference's vc path plus suffix.
func (k tlConf) path(suffix string) string { return "/api/v1/vc/confs/" + k.id + suffix }

// do sends params (nil for none) to an endpoint of the conference. A
// DELETE with params carries them in a form body (the reference's
// recorders DELETE has params), account_token in the query.
func (k tlConf) do(t *testing.T, method, suffix string, params map[string]any) testserver.Reply {
	t.Helper()
	if params == nil {
		return k.c.Do(method, k.path(suffix), nil)
	}
	if method == http.MethodDelete {
		return tlDelete(t, k.env, k.c, k.path(suffix), params)
	}
	return k.c.Do(method, k.path(suffix), testserver.Params(t, params))
}

// tlDelete sends a DELETE whose params are a form body.
func tlDelete(t *testing.T, env *testserver.Env, c *testserver.Client, path string, params map[string]any) testserver.Reply {
	t.Helper()
	body := testserver.Params(t, params).Encode()
	req, err := http.NewRequest(http.MethodDelete, env.URL+path+"?"+url.Values{"account_token": {c.Token}}.Encode(), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.Send(req)
}

// ok sends a request that must succeed and returns the reply body.
func (k tlConf) ok(t *testing.T, method, suffix string, params map[string]any) map[string]any {
	t.Helper()
	return testserver.MustOK(t, k.do(t, method, suffix, params))
}

// fail sends a request that must fail with code.
func (k tlConf) fail(t *testing.T, code int, method, suffix string, params map[string]any) {
	t.Helper()
	testserver.MustFail(t, k.do(t, method, suffix, params), code)
}

// doc reads the conference's stored document.
func (k tlConf) doc(t *testing.T) map[string]any {
	t.Helper()
	rec, err := k.env.Store.GetRecord(context.Background(), record.KindConf, k.domain, k.id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// mt reads a terminal's stored document.
func (k tlConf) mt(t *testing.T, mtID string) map[string]any {
	t.Helper()
	rec, err := k.env.Store.GetRecord(context.Background(), record.KindMT, k.domain, k.id+"/"+mtID)
	if err != nil {
		t.Fatalf("terminal %s: %v", mtID, err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// tlNode is a second Confer node on the same store, whose vc module is not
// registered: the tests call its timeline work directly.
type tlNode struct {
	confs *engine.Conferences
	eng   *engine.Engine
	mod   *vc.Module
}

func tlSecondNode(env *testserver.Env) tlNode {
	eng := engine.New(env.Store, env.Clock, engine.Config{}, nil, nil, nil) // without the module's features
	return tlNode{confs: eng.Conferences(), eng: eng, mod: vc.New(env.Store, env.Clock, eng.Conferences(), eng)}
}

// conf reads the conference through the node.
func (n tlNode) conf(t *testing.T, k tlConf) engine.Conference {
	t.Helper()
	c, err := n.confs.Get(context.Background(), k.domain, k.id, engine.StateRunning)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hangup makes terminals leave the call and runs the departure work.
func (n tlNode) hangup(t *testing.T, k tlConf, mtIDs ...string) {
	t.Helper()
	ec := engine.ConfOf(n.conf(t, k))
	if err := n.eng.Hangup(context.Background(), ec, mtIDs); err != nil {
		t.Fatal(err)
	}
	if err := n.mod.TimelineLeave(context.Background(), ec, mtIDs); err != nil {
		t.Fatal(err)
	}
}

// sweep runs the due timeline work.
func (n tlNode) sweep(t *testing.T) {
	t.Helper()
	if err := n.mod.RunDueTimeline(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// tlEq compares JSON renderings.
func tlEq(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}
