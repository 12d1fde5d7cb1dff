package push_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// On PostgreSQL a commit on one node wakes the tailers of the others
// (LISTEN/NOTIFY, docs/push.md): with both polls an hour long, changes
// made through node A still reach a subscriber of node B, which serves
// no request that would wake it.
func TestAcrossNodesWoken(t *testing.T) {
	dsn := testdb.Postgres(t)
	opt := testserver.Options{Push: push.Options{Poll: time.Hour, SafetyPoll: time.Hour}}
	a := testserver.Start(t, dsn, opt)
	bnode := testserver.Start(t, dsn, opt)
	b := newBx(t, bnode, bnode.LoggedIn(t).Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base + "/**")
	admin := a.LoggedIn(t)
	id := startConf(t, a, admin, "woken")
	for _, mt := range []string{"1", "2", "1"} { // the listener's first wake-up counts once at most
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": mt})))
		sp := b.next(base+"/"+id+"/speaker", nil)
		sameJSON(t, "speaker via the other node", sp["data"], msg{"method": "update", "mt_id": mt})
	}
}

// WaitPublished returns once what was committed before it is out: a
// client that subscribes after it hears first of the change it makes
// next, not of a terminal's joining that came before (the CLI's watch
// test relies on it).
func TestWaitPublished(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	id := startConf(t, env, admin, "settled")
	if err := env.Srv.Push().WaitPublished(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base + "/" + id + "/**") // not the conference: its first change seen by a subscriber carries it whole
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
	var seen []msg
	b.next(base+"/"+id+"/speaker", &seen)
	if len(seen) != 1 {
		t.Errorf("before the speaker change, the subscriber heard %v", seen[:len(seen)-1])
	}
}
