package server_test

import (
	"context"
	"github.com/confer-platform/confer/internal/api"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// The scans of running conferences keep their listing while no conference
// event is committed (sqlstore/keys.go): a change made through node B is
// still in node A's next scan, although A listed before it and B never
// ticks. A monitor started through B is released by A's tick once its
// heartbeat stops (vc.RunDueTimeline), and a conference started through B
// counts against A's capacity (engine.Usage).
func TestNodesScansSeeOtherNode(t *testing.T) {
	dsn := testdb.Postgres(t)
	cfg := engine.DefaultConfig()
	cfg.MaxConfs = 2
	opt := testserver.Options{Auth: longAuth(), Conference: cfg}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca := a.LoggedIn(t)
	cb := on(t, b, ca)
	id := testserver.MustOK(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("scans", "10.6.0.1"))))["conf_id"].(string)
	advance(t, a.Clock, 5*time.Second, a) // A lists the conference, its terminal online

	testserver.MustOK(t, cb.Do("POST", "/api/v1/vc/confs/"+id+"/monitors", testserver.Params(t, map[string]any{
		"mode": 0, "src": map[string]any{"type": 1, "mt_id": "1", "mt_chn_idx": 1},
		"video_format": map[string]any{"format": 4, "resolution": 12, "frame": 25, "bitrate": 2048},
		"dst":          map[string]any{"ip": "10.9.9.9", "port": 6000}})))
	if n := monitorsStored(t, a, id); n != 1 {
		t.Fatalf("monitors stored after the start on B: %d, want 1", n)
	}
	advance(t, a.Clock, vc.MonitorTimeout+2*time.Second, a)
	if n := monitorsStored(t, a, id); n != 0 {
		t.Errorf("monitors stored after A's ticks past the heartbeat: %d, want 0 (released by A)", n)
	}

	testserver.MustOK(t, cb.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("second", "10.6.0.2"))))
	testserver.MustFail(t, ca.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("third", "10.6.0.3"))), api.CodeMaxConfs)
}

// monitorsStored counts the monitors in the stored document of conference
// id.
func monitorsStored(t *testing.T, n *testserver.Node, id string) int {
	t.Helper()
	rec, err := n.Store.GetRecord(context.Background(), record.KindConf, confDomain(t, n), id)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := doc["vc_monitors"].([]any)
	return len(l)
}
