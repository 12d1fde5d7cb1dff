package engine_test

import (
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A conference created through mc calls its invite_members when it
// starts; ending it removes its terminals.
func TestInvitedMembersAreCalled(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		offline(t, env, "5550001")
		p, _ := json.Marshal(map[string]any{
			"create_type": 1, "name": "weekly", "bitrate": 2048, "call_mode": 2, "call_times": 2, "call_interval": 10,
			"invite_members": []any{
				map[string]any{"name": "a", "account": "10.1.1.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
				map[string]any{"name": "b", "account": "5550001", "account_type": 5, "bitrate": 1024, "protocol": 0},
			},
		})
		r := c.Do("POST", "/api/v1/mc/confs", url.Values{"params": {string(p)}})
		if !r.OK() {
			t.Fatalf("create: %s", r.Raw)
		}
		confID := r.Body["conf_id"].(string)
		states := func() map[string]string {
			recs, _, err := env.Store.ListRecords(t.Context(), store.RecordQuery{Kind: record.KindMT, OwnerMoid: confID})
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]string{}
			for _, rec := range recs {
				out[rec.ID] = rec.State
			}
			return out
		}
		if got := states(); got[confID+"/1"] != engine.StateCalling || len(got) != 2 {
			t.Fatalf("after creation: %v", got)
		}
		env.Advance(t, 2*time.Second)
		if got := states(); got[confID+"/1"] != engine.StateOnline || got[confID+"/2"] != engine.StateCalling {
			t.Fatalf("after 2s: %v (the unknown E.164 number is offline and retried)", got)
		}
		env.Advance(t, 10*time.Second) // second and last attempt of the offline number
		if got := states(); got[confID+"/2"] != engine.StateIdle {
			t.Fatalf("after the last attempt: %v", got)
		}
		if r := c.Do("DELETE", "/api/v1/mc/confs/"+confID, nil); !r.OK() {
			t.Fatalf("end: %s", r.Raw)
		}
		if got := states(); len(got) != 0 {
			t.Fatalf("terminals left after the end: %v", got)
		}
	})
}

// In manual call mode the invited members are still called once when the
// conference starts; a failure is not retried.
func TestInvitedCalledOnceInManualMode(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	offline(t, env, "5550001")
	r := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{
		"create_type": 1, "name": "manual", "call_mode": 0,
		"invite_members": []any{
			map[string]any{"name": "a", "account": "10.1.1.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
			map[string]any{"name": "b", "account": "5550001", "account_type": 5, "bitrate": 1024, "protocol": 0},
		},
	})))
	confID := r["conf_id"].(string)
	env.Advance(t, 2*time.Second)
	recs, _, err := env.Store.ListRecords(t.Context(), store.RecordQuery{Kind: record.KindMT, OwnerMoid: confID})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, rec := range recs {
		got[rec.ID] = rec.State
	}
	if got[confID+"/1"] != engine.StateOnline || got[confID+"/2"] != engine.StateIdle {
		t.Fatalf("manual-mode conference after 2s: %v, want 1 online and 2 idle (offline, not retried)", got)
	}
}

// offline makes an E.164 number offline in the terminal directory (an
// unknown number answers).
func offline(t *testing.T, env *testserver.Env, e164 string) {
	t.Helper()
	if err := env.Store.PutDirectoryEntry(t.Context(), store.DirectoryEntry{Account: e164, E164: e164, MtType: 1, Behaviour: "offline"}); err != nil {
		t.Fatal(err)
	}
}
