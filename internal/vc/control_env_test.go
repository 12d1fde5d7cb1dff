package vc_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testserver"
)

// Helpers of the conference-control tests (prefix ct).

// ctConf is a running conference with terminals.
type ctConf struct {
	env    *testserver.Env
	c      *testserver.Client
	id     string
	domain string
}

var ctSeq atomic.Int64 // ctStart's conferences

// ctStart creates a conference through mc that calls online IP terminals
// (mt_id 1 to online) and, after them, offline E.164 numbers (the next
// mt_ids), and moves the clock until the IP terminals have answered.
func ctStart(t *testing.T, env *testserver.Env, c *testserver.Client, online, offline int, extra map[string]any) ctConf {
	t.Helper()
	var members []any
	n := ctSeq.Add(1) - 1 // a terminal is online in one conference at a time: each its own network 10.2.n
	for i := 1; i <= online; i++ {
		members = append(members, map[string]any{"name": fmt.Sprint("mt", i), "account": fmt.Sprintf("10.%d.%d.%d", 2+n/250, n%250, i),
			"account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	for i := 1; i <= offline; i++ {
		e164 := fmt.Sprintf("555000%d", i) // offline in the directory (an unknown number answers)
		if err := env.Store.PutDirectoryEntry(context.Background(), store.DirectoryEntry{Account: e164, E164: e164, MtType: 1, Behaviour: "offline"}); err != nil {
			t.Fatal(err)
		}
		members = append(members, map[string]any{"name": fmt.Sprint("off", i), "account": e164,
			"account_type": 5, "bitrate": 1024, "protocol": 0})
	}
	p := map[string]any{"create_type": 1, "name": "control", "bitrate": 1024, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 1, "call_interval": 10, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	for k, v := range extra {
		p[k] = v
	}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	env.Advance(t, 3*time.Second)
	return ctConf{env: env, c: c, id: id, domain: ctDomainOf(t, env, id)}
}

// ctDomainOf finds the user domain of a conference in the store (older
// releases' info lacks user_domain_moid).
func ctDomainOf(t *testing.T, env *testserver.Env, confID string) string {
	t.Helper()
	recs, _, err := env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindConf})
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if rec.ID == confID {
			return rec.DomainMoid
		}
	}
	t.Fatalf("conference %s is not stored", confID)
	return ""
}

// path is the conference's vc path plus suffix.
func (k ctConf) path(suffix string) string { return "/api/v1/vc/confs/" + k.id + suffix }

// put sends params to a PUT endpoint of the conference.
func (k ctConf) put(t *testing.T, suffix string, params map[string]any) testserver.Reply {
	t.Helper()
	return k.c.Do("PUT", k.path(suffix), testserver.Params(t, params))
}

// get reads an endpoint of the conference and requires success.
func (k ctConf) get(t *testing.T, suffix string) map[string]any {
	t.Helper()
	return testserver.MustOK(t, k.c.Do("GET", k.path(suffix), nil))
}

// info reads the conference info.
func (k ctConf) info(t *testing.T) map[string]any { t.Helper(); return k.get(t, "") }

// mt reads a terminal's stored document (the terminal endpoints belong to
// another part of vc).
func (k ctConf) mt(t *testing.T, mtID string) map[string]any {
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

// doc reads the conference's stored document.
func (k ctConf) doc(t *testing.T) map[string]any {
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

// ctNode is a second Confer node on the same store: its engine hangs up
// and removes terminals as the other node's endpoints would, with the vc
// module's features (Features.Left).
type ctNode struct {
	confs *engine.Conferences
	eng   *engine.Engine
}

func ctSecondNode(env *testserver.Env) ctNode {
	eng := testserver.EngineNode(env.Store, env.Clock, engine.Config{})
	return ctNode{confs: eng.Conferences(), eng: eng}
}

// hangup and remove make terminals leave the call through the node.
func (n ctNode) hangup(t *testing.T, k ctConf, mtIDs ...string) {
	t.Helper()
	if err := n.eng.Hangup(context.Background(), n.conf(t, k), mtIDs); err != nil {
		t.Fatal(err)
	}
}

func (n ctNode) remove(t *testing.T, k ctConf, mtIDs ...string) {
	t.Helper()
	if err := n.eng.Remove(context.Background(), n.conf(t, k), mtIDs); err != nil {
		t.Fatal(err)
	}
}

func (n ctNode) conf(t *testing.T, k ctConf) engine.Conf {
	t.Helper()
	c, err := n.confs.Get(context.Background(), k.domain, k.id, engine.StateRunning)
	if err != nil {
		t.Fatal(err)
	}
	return engine.ConfOf(c)
}

// ctNum reads a JSON number of a reply or a stored document as an int.
func ctNum(v any) int {
	n, _ := record.IntOK(v)
	return n
}
