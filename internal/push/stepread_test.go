package push_test

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Changes committed together reach the tailer in one step, whose records
// are read at once (stepread.go): each is published, a conference
// changed twice once with its newest content.
func TestChangesOfOneStep(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		a := startConf(t, env, admin, "a")
		c := startConf(t, env, admin, "c")
		b := newBx(t, env, admin.Cookie)
		b.mustHandshake()
		base := "/userdomains/" + b.domain + "/confs/"
		b.mustSubscribe(base+a+"/speaker", base+c+"/speaker", base+a+"/cascades/0/mts/1")

		domain := adminDomain(t, env)
		set := func(tx store.Tx, kind, id, field string, v any) error {
			r, err := tx.GetRecord(kind, domain, id)
			if err != nil {
				return err
			}
			var doc map[string]any
			if err := json.Unmarshal(r.Data, &doc); err != nil {
				return err
			}
			doc[field] = v
			r.Data, _ = json.Marshal(doc)
			return tx.SwapRecord(r)
		}
		ctx := t.Context()
		if err := env.Store.Atomic(ctx, func(tx store.Tx) error {
			for _, w := range []struct {
				kind, id, field string
				v               any
			}{
				{"conf", a, "speaker_mt_id", "1"},
				{"conf", c, "speaker_mt_id", "1"},
				{"mt", a + "/1", "mute", 1},
				{"conf", a, "speaker_mt_id", "2"},
			} {
				if err := set(tx, w.kind, w.id, w.field, w.v); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}

		var seen []msg
		sameJSON(t, "the speaker of c", b.next(base+c+"/speaker", &seen)["data"], msg{"method": "update", "mt_id": "1"})
		if d := b.next(base+a+"/cascades/0/mts/1", &seen)["data"].(msg); d["method"] != "update" || d["mute"] != float64(1) {
			t.Fatalf("the terminal of a: %v", d)
		}
		// A later change shows that the step is over.
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+c+"/speaker", testserver.Params(t, msg{"mt_id": "2"})))
		b.next(base+c+"/speaker", &seen)
		var speakers []any
		for _, m := range seen {
			if m["channel"] == base+a+"/speaker" {
				speakers = append(speakers, m["data"])
			}
		}
		sameJSON(t, "the speaker of a", speakers, []any{msg{"method": "update", "mt_id": "2"}})
	})
}
