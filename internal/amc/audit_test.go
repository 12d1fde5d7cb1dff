package amc_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

const auditPath = "/api/v1/amc/audit"

// auditEntries waits until the domain's audit trail (written behind the
// requests, in batches) holds want entries matching q, and returns them.
func auditEntries(t *testing.T, c *testserver.Client, q url.Values, want int) []map[string]any {
	t.Helper()
	for {
		body := testserver.MustOK(t, c.Do("GET", auditPath, q))
		if n := int(body["total"].(float64)); n >= want {
			if n > want {
				t.Fatalf("audit entries for %v: %d, want %d: %v", q, n, want, body["entries"])
			}
			var out []map[string]any
			for _, e := range body["entries"].([]any) {
				out = append(out, e.(map[string]any))
			}
			return out
		}
		time.Sleep(10 * time.Millisecond) // polling the event (the write), no budget: go test's -timeout bounds it
	}
}

// An operator's actions as the audit trail keeps them (issue 41,
// docs/operations.md "Audit trail"): a conference created, a terminal
// added and muted, a refused end, an account's action; searched by
// account, action, conference and outcome; shown only to the domain's
// administrators; kept for the retention.
func TestAuditTrail(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		p := map[string]any{"create_type": 1, "name": "audited", "duration": 0}
		id := testserver.MustOK(t, admin.Do("POST", confPath, testserver.Params(t, p)))["conf_id"].(string)
		mts := map[string]any{"mts": []map[string]any{{"account": "10.8.0.1", "account_type": 7, "bitrate": 1024, "protocol": 1}}}
		testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, mts)))
		env.Advance(t, 3*time.Second)
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/mts/1/mute", testserver.Params(t, map[string]any{"value": 1})))
		testserver.MustFail(t, admin.Do("DELETE", confPath+"/424242", nil), wire.CodeConfNotFound)
		carol := env.Account(t, "default", "carol", false)
		testserver.MustFail(t, carol.Do("DELETE", confPath+"/"+id, nil), wire.CodeNoPermission)
		// Reads are not actions.
		testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+id, nil))

		all := auditEntries(t, admin, nil, 5)
		newest := all[0]
		if newest["account"] != "carol" || newest["action"] != "mc.confs.delete" || newest["conf_id"] != id ||
			newest["error_code"] != float64(wire.CodeNoPermission) || newest["client"] == "" {
			t.Errorf("newest entry %v, want carol's refused end of %s", newest, id)
		}
		mute := auditEntries(t, admin, url.Values{"action": {"MUTE"}}, 1)[0]
		if mute["action"] != "vc.confs.mts.mute.update" || mute["mt_id"] != "1" || mute["conf_id"] != id ||
			mute["error_code"] != 0.0 || mute["target"] != "conf_id="+id+" mt_id=1" {
			t.Errorf("the mute's entry %v", mute)
		}
		auditEntries(t, admin, url.Values{"account": {"carol"}}, 1)
		auditEntries(t, admin, url.Values{"conf_id": {id}}, 3) // add, mute, carol's end
		auditEntries(t, admin, url.Values{"failed": {"1"}}, 2)
		auditEntries(t, admin, url.Values{"count": {"2"}}, 5)
		if n := len(testserver.MustOK(t, admin.Do("GET", auditPath, url.Values{"count": {"2"}}))["entries"].([]any)); n != 2 {
			t.Errorf("a page of 2 holds %d", n)
		}
		later := env.Clock.Now().Add(time.Hour).Format(time.RFC3339)
		auditEntries(t, admin, url.Values{"start_time": {later}}, 0)
		testserver.MustFail(t, admin.Do("GET", auditPath, url.Values{"start_time": {"soon"}}), wire.CodeInvalidParam)

		// Administrators only, and only their domain's.
		testserver.MustFail(t, carol.Do("GET", auditPath, nil), wire.CodeNoPermission)
		bob := env.Account(t, "other", "bob", true)
		auditEntries(t, bob, nil, 0)

		// Kept for the retention (90 days), then gone.
		env.Advance(t, 91*24*time.Hour)
		admin = env.LoggedIn(t) // the session ended meanwhile
		auditEntries(t, admin, nil, 0)
	})
}
