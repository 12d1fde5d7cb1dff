package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A terminal that joins takes on the conference's state: the creation's
// initial mute (sparing speaker and chairman under mute_filter), the
// speaker, chairman and VIPs named by account, and a silence set later.
func TestJoinTakesConferenceState(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, admin := mtsEnv(t, dsn, testserver.Options{})
		member := func(acct string) map[string]any {
			return map[string]any{"name": acct, "account": acct, "account_type": 7}
		}
		invite := []any{}
		for _, a := range []string{"10.0.7.1", "10.0.7.2", "10.0.7.3", "10.0.7.4"} {
			m := member(a)
			m["bitrate"], m["protocol"] = 1024, 0
			invite = append(invite, m)
		}
		conf := mtsConf(t, admin, map[string]any{"mute": 1, "mute_filter": 1,
			"speaker": member("10.0.7.1"), "chairman": member("10.0.7.2"), "vips": []any{member("10.0.7.3")},
			"invite_members": invite})
		env.Advance(t, 3*time.Second)

		base := "/api/v1/vc/confs/" + conf
		mtsSame(t, "speaker", testserver.MustOK(t, admin.Do("GET", base+"/speaker", nil))["mt_id"], "1")
		mtsSame(t, "chairman", testserver.MustOK(t, admin.Do("GET", base+"/chairman", nil))["mt_id"], "2")
		mtsSame(t, "VIPs", testserver.MustOK(t, admin.Do("GET", base+"/viplist", nil))["mts"],
			[]any{map[string]any{"mt_id": "3", "cascade_id": "0"}})
		l := mtsList(t, admin, conf)
		for id, want := range map[string]int{"1": 0, "2": 0, "3": 1, "4": 1} {
			if got := mtsNum(l[id]["mute"]); got != want {
				t.Errorf("terminal %s mute = %d, want %d", id, got, want)
			}
		}

		// Silence the conference; a terminal added later is muted and silenced.
		testserver.MustOK(t, admin.Do("PUT", base+"/silence", testserver.Params(t, map[string]any{"value": 1})))
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry("10.0.7.5")))
		env.Advance(t, 3*time.Second)
		if got := mtsList(t, admin, conf)["5"]; mtsNum(got["mute"]) != 1 || mtsNum(got["silence"]) != 1 {
			t.Errorf("late terminal: mute %v silence %v, want 1 1", got["mute"], got["silence"])
		}
		// Unmuted conference: the next one joins unmuted.
		testserver.MustOK(t, admin.Do("PUT", base+"/mute", testserver.Params(t, map[string]any{"value": 0})))
		testserver.MustOK(t, mtsAdd(t, admin, conf, mtsEntry("10.0.7.6")))
		env.Advance(t, 3*time.Second)
		if got := mtsList(t, admin, conf)["6"]; mtsNum(got["mute"]) != 0 {
			t.Errorf("terminal after unmute: mute %v, want 0", got["mute"])
		}
	})
}
