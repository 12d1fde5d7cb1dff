package push_test

import (
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// occConf starts a conference in automatic call mode (retry every 20 s,
// no limit) inviting accounts, after their answer (2 s).
func occConf(t *testing.T, env *testserver.Env, c *testserver.Client, name string, accounts ...string) string {
	t.Helper()
	var members []any
	for _, a := range accounts {
		members = append(members, msg{"name": a, "account": a, "account_type": 7, "bitrate": 1024, "protocol": 0})
	}
	p := msg{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"call_times": 0, "call_interval": 20, "invite_members": members,
		"video_formats": []any{msg{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	env.Advance(t, 2*time.Second)
	return id
}

func mtOnline(t *testing.T, c *testserver.Client, confID string) any {
	t.Helper()
	body := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+confID+"/mts/1", nil))
	for k := range body {
		if strings.HasPrefix(k, "_") {
			t.Errorf("the terminal's reply has the private field %s", k)
		}
	}
	return body["online"]
}

// A terminal online in one conference is busy for another (reference 07
// "添加终端失败通知": 20423 with occupy_confname); once it leaves the
// first, the second's next retry brings it online.
func TestTerminalBusyInAnotherConference(t *testing.T) {
	leave := map[string]func(t *testing.T, c *testserver.Client, a string){
		"hang up": func(t *testing.T, c *testserver.Client, a string) {
			testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+a+"/online_mts", testserver.Params(t, msg{"mts": []any{msg{"mt_id": "1"}}})))
		},
		"remove": func(t *testing.T, c *testserver.Client, a string) {
			testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+a+"/mts", testserver.Params(t, msg{"mts": []any{msg{"mt_id": "1"}}})))
		},
		"end": func(t *testing.T, c *testserver.Client, a string) {
			testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+a, nil))
		},
	}
	for _, how := range []string{"hang up", "remove", "end"} {
		t.Run(how, func(t *testing.T) {
			testdb.Engines(t, func(t *testing.T, dsn string) {
				env := testserver.Start(t, dsn, testserver.Options{})
				admin := env.LoggedIn(t)
				b := newBx(t, env, admin.Cookie)
				b.mustHandshake()
				base := "/userdomains/" + b.domain + "/confs"
				a := occConf(t, env, admin, "occupier", "10.1.1.1")
				if got := mtOnline(t, admin, a); got != float64(1) {
					t.Fatalf("%s: A's terminal online = %v", how, got)
				}
				b.mustSubscribe(base + "/**")
				second := occConf(t, env, admin, "second", "10.1.1.1")
				n := b.next(base+"/"+second+"/mts", nil)
				sameJSON(t, how+": busy", n["data"], msg{"method": "notify", "error_code": 20423,
					"mt": msg{"account": "10.1.1.1", "account_type": 7}, "occupy_confname": "occupier"})
				if got := mtOnline(t, admin, second); got != float64(0) {
					t.Fatalf("%s: B's terminal online = %v", how, got)
				}
				leave[how](t, admin, a)
				env.Advance(t, 20*time.Second) // the retry
				env.Advance(t, 2*time.Second)  // its answer
				if got := mtOnline(t, admin, second); got != float64(1) {
					t.Fatalf("%s: B's terminal online after A let it go = %v", how, got)
				}
			})
		})
	}
}

// A terminal in another user domain's conference is busy (20410) and
// that conference's name is not told.
func TestTerminalBusyInAnotherDomain(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		other := env.Account(t, "other-domain", "olga", true)
		occConf(t, env, other, "secret name", "10.1.1.1")
		admin := env.LoggedIn(t)
		b := newBx(t, env, admin.Cookie)
		b.mustHandshake()
		base := "/userdomains/" + b.domain + "/confs"
		b.mustSubscribe(base + "/**")
		id := occConf(t, env, admin, "mine", "10.1.1.1")
		n := b.next(base+"/"+id+"/mts", nil)
		sameJSON(t, "busy", n["data"], msg{"method": "notify", "error_code": 20410,
			"mt": msg{"account": "10.1.1.1", "account_type": 7}})
		if got := mtOnline(t, admin, id); got != float64(0) {
			t.Fatalf("terminal online = %v", got)
		}
	})
}
