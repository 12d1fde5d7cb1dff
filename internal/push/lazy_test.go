package push_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A conference changed while nobody watched its channels keeps its
// document undecoded (tailer.go); a client that subscribes afterwards
// still gets the delete of a part that existed before it came.
func TestPartDeletedAfterUnwatchedChange(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	id := startConf(t, env, admin, "unwatched")
	other := startConf(t, env, admin, "watched")
	b.mustSubscribe(base + "/" + other + "/speaker")

	// The mix is made while nobody watches id's channels; the speaker
	// change of the other conference, published after it, shows that
	// the tailer has handled it.
	testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+id+"/mixs", testserver.Params(t, msg{"mode": 1, "members": []any{}})))
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+other+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
	b.next(base+"/"+other+"/speaker", nil)

	b.mustSubscribe(base + "/" + id + "/mixs/1")
	testserver.MustOK(t, admin.Do("DELETE", "/api/v1/vc/confs/"+id+"/mixs/1", nil))
	sameJSON(t, "mix deleted", b.next(base+"/"+id+"/mixs/1", nil)["data"], msg{"method": "delete"})
}
