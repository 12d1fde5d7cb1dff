package mc_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// An operator's session with the history (issue 41, docs/conferences.md
// "History"): two terminals called by address answer (the simulated
// backend answers an address it does not know after 2 s), one is hung up
// and called again, the conference ends; the history lists it with its
// three calls, searchable by name, and only to its domain's
// administrators and its creator.
func TestConferenceHistory(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		start := env.Clock.Now()
		id := cfCreate(t, c, cfInstant("weekly review", nil))
		mts := func(ids ...string) url.Values {
			var l []map[string]any
			for _, a := range ids {
				l = append(l, map[string]any{"account": a, "account_type": 7, "bitrate": 1024, "protocol": 1})
			}
			return testserver.Params(t, map[string]any{"mts": l})
		}
		testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/mts", mts("10.9.0.1", "10.9.0.2")))
		env.Advance(t, 3*time.Second)
		online := func(want int) []string {
			t.Helper()
			var ids []string
			for _, m := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any) {
				if m := m.(map[string]any); m["online"] == float64(1) {
					ids = append(ids, m["mt_id"].(string))
				}
			}
			if len(ids) != want {
				t.Fatalf("online terminals %v, want %d", ids, want)
			}
			return ids
		}
		ids := online(2)
		// No history while it runs.
		cfEqual(t, "history while running", cfTotal(t, c.Do("GET", "/api/v1/mc/history", nil)), 0)

		env.Advance(t, 60*time.Second)
		hang := testserver.Params(t, map[string]any{"mts": []map[string]any{{"mt_id": ids[0]}}})
		testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+id+"/online_mts", hang))
		online(1)
		testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/online_mts", hang))
		env.Advance(t, 3*time.Second)
		online(2)
		env.Advance(t, 120*time.Second)
		testserver.MustOK(t, c.Do("DELETE", cfPath+"/"+id, nil))

		list := testserver.MustOK(t, c.Do("GET", "/api/v1/mc/history", nil))
		cfEqual(t, "total", list["total"], 1.0)
		h := list["confs"].([]any)[0].(map[string]any)
		cfEqual(t, "conf_id", h["conf_id"], id)
		cfEqual(t, "name", h["name"], "weekly review")
		cfEqual(t, "participants", h["participants"], 2.0)
		cfEqual(t, "calls_count", h["calls_count"], 3.0)
		cfEqual(t, "creator", h["creator"].(map[string]any)["name"], testserver.AdminUser)
		if _, ok := h["calls"]; ok {
			t.Errorf("the list carries calls: %v", h)
		}
		if end, _ := time.Parse(time.RFC3339, h["end_time"].(string)); end.Sub(start) < 186*time.Second {
			t.Errorf("end_time %v, want 186 s after the start %v", h["end_time"], start)
		}

		hid := h["history_id"].(string)
		d := testserver.MustOK(t, c.Do("GET", "/api/v1/mc/history/"+hid, nil))
		calls := d["calls"].([]any)
		if len(calls) != 3 {
			t.Fatalf("calls %v, want 3", calls)
		}
		byMt := map[string][]float64{}
		for _, x := range calls {
			call := x.(map[string]any)
			byMt[call["mt_id"].(string)] = append(byMt[call["mt_id"].(string)], call["duration"].(float64))
			cfEqual(t, "join_type", call["join_type"], "called")
			cfEqual(t, "protocol", call["protocol"], 1.0)
		}
		// The hung-up terminal: 61 s, then 123 s from its call again to
		// the end; the other 186 s (joined at 2 s... the answer's tick).
		if got := byMt[ids[0]]; len(got) != 2 || got[0] < 60 || got[1] < 120 || got[0]+got[1] > 190 {
			t.Errorf("calls of the hung-up terminal %s: durations %v", ids[0], got)
		}
		if got := byMt[ids[1]]; len(got) != 1 || got[0] < 180 {
			t.Errorf("calls of terminal %s: durations %v", ids[1], got)
		}

		// Search, time window, paging.
		cfEqual(t, "keyword hit", cfTotal(t, c.Do("GET", "/api/v1/mc/history?keyword=REVIEW", nil)), 1)
		cfEqual(t, "keyword by number", cfTotal(t, c.Do("GET", "/api/v1/mc/history?keyword="+id, nil)), 1)
		cfEqual(t, "keyword miss", cfTotal(t, c.Do("GET", "/api/v1/mc/history?keyword=standup", nil)), 0)
		later := env.Clock.Now().Add(time.Hour).Format(time.RFC3339)
		cfEqual(t, "ended before now+1h", cfTotal(t, c.Do("GET", "/api/v1/mc/history?end_time="+url.QueryEscape(later), nil)), 1)
		cfEqual(t, "ended after now+1h", cfTotal(t, c.Do("GET", "/api/v1/mc/history?start_time="+url.QueryEscape(later), nil)), 0)
		testserver.MustFail(t, c.Do("GET", "/api/v1/mc/history?start_time=yesterday", nil), wire.CodeInvalidParam)
		testserver.MustFail(t, c.Do("GET", "/api/v1/mc/history/"+id+"-1", nil), wire.CodeConfNotFound)

		// Another domain sees nothing; a user of the domain sees only
		// the conferences they created.
		bob := env.Account(t, "other", "bob", true)
		cfEqual(t, "other domain's list", cfTotal(t, bob.Do("GET", "/api/v1/mc/history", nil)), 0)
		testserver.MustFail(t, bob.Do("GET", "/api/v1/mc/history/"+hid, nil), wire.CodeConfNotFound)
		carol := env.Account(t, "default", "carol", false)
		cfEqual(t, "carol's list", cfTotal(t, carol.Do("GET", "/api/v1/mc/history", nil)), 0)
		testserver.MustFail(t, carol.Do("GET", "/api/v1/mc/history/"+hid, nil), wire.CodeConfNotFound)
		own := cfCreate(t, carol, cfInstant("carols", nil))
		testserver.MustOK(t, carol.Do("DELETE", cfPath+"/"+own, nil))
		cfEqual(t, "carol's own", cfTotal(t, carol.Do("GET", "/api/v1/mc/history", nil)), 1)
		cfEqual(t, "admin sees both", cfTotal(t, c.Do("GET", "/api/v1/mc/history", nil)), 2)
		cfEqual(t, "paging", len(testserver.MustOK(t, c.Do("GET", "/api/v1/mc/history?count=1", nil))["confs"].([]any)), 1)

		// Kept for the retention, then gone.
		env.Advance(t, 91*24*time.Hour)
		c = env.LoggedIn(t) // the session ended meanwhile
		cfEqual(t, "after the retention", cfTotal(t, c.Do("GET", "/api/v1/mc/history", nil)), 0)
	})
}
