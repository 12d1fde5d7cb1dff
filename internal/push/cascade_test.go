package push_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 13: linking a conference publishes the superior's /cascades; a
// change of a subordinate's terminal is published on the superior's
// channel of that cascade, with the terminal by its cascaded mt_id.
func TestCascadeChannels(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		top := startConf(t, env, admin, "top")
		sub := startConf(t, env, admin, "sub")
		base := "/userdomains/" + adminDomain(t, env) + "/confs/" + top

		b := newBx(t, env, admin.Cookie)
		b.mustHandshake()
		b.mustSubscribe(base+"/cascades", base+"/cascades/**")

		testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+top+"/mts", testserver.Params(t, map[string]any{
			"mts": []any{map[string]any{"account": sub, "account_type": 5, "bitrate": 1024, "protocol": 0}}})))
		env.Tick(t)
		m := b.next(base+"/cascades", nil)
		d, _ := m["data"].(msg)
		subs, _ := d["cascades"].([]any)
		if d["method"] != "update" || len(subs) != 1 || subs[0].(map[string]any)["conf_id"] != sub {
			t.Fatalf("cascades update = %v", m)
		}

		// The subordinate's terminal 1 is muted through the superior as "3.1".
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+top+"/mts/3.1/mute",
			testserver.Params(t, map[string]any{"value": 1})))
		env.Tick(t)
		m = b.next(base+"/cascades/3/mts/1", nil)
		d, _ = m["data"].(msg)
		if d["method"] != "update" || d["mt_id"] != "3.1" || d["mute"] != float64(1) || d["protocol"] != nil {
			t.Fatalf("cascade terminal update = %v", m)
		}
	})
}
