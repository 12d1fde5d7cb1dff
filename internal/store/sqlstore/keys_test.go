package sqlstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// keysOf lists the keys of the running conferences as "id@version",
// sorted.
func keysOf(t *testing.T, kl store.KeyLister) []string {
	t.Helper()
	keys, err := kl.RecordKeys(context.Background(), "conf", "running")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s/%s@%d", k.DomainMoid, k.ID, k.Version))
	}
	slices.Sort(out)
	return out
}

// pagesOf reads the running conferences of d1 through ConfsByStart, as
// the whole list and page by page (one a page), as "d1/id@version"
// with the total; both must agree.
func pagesOf(t *testing.T, db *sqlstore.DB) []string {
	t.Helper()
	page := func(start, count int) ([]string, int) {
		keys, total, err := db.ConfsByStart(context.Background(), store.RecordQuery{Kind: "conf", DomainMoid: "d1",
			States: []string{"running"}, Start: start, Count: count})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, k := range keys {
			out = append(out, fmt.Sprintf("d1/%s@%d", k.ID, k.Version))
		}
		return out, total
	}
	all, total := page(0, 0)
	if total != len(all) {
		t.Fatalf("ConfsByStart: %v with total %d", all, total)
	}
	for i := 0; i <= total; i++ {
		one, n := page(i, 1)
		if n != total || (i < total && !slices.Equal(one, all[i:i+1])) || (i == total && len(one) != 0) {
			t.Fatalf("ConfsByStart page %d: %v of %d, want %v", i, one, n, all)
		}
	}
	slices.Sort(all)
	return all
}

// RecordKeys keeps its listing while no conference event is committed:
// two handles on one database stand for two nodes, and every change that
// B makes to the conference records (a creation, an update, an ending, a
// deletion) is in A's next listing, whatever A listed before; changes of
// other kinds leave it as it was. A pruned event counts as a change. The
// same holds for the pages of ConfsByStart, kept on SQLite.
func TestRecordKeysSeeOtherNode(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		a, b := open(t, dsn), open(t, dsn)
		now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		rec := func(kind, id, state string) store.Record {
			return store.Record{Kind: kind, ID: id, DomainMoid: "d1", State: state, Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
		}
		want := func(step string, w ...string) {
			t.Helper()
			for i := 0; i < 2; i++ { // listed, then kept
				if got := keysOf(t, a); !slices.Equal(got, w) {
					t.Fatalf("%s, listing %d on A: %v, want %v", step, i+1, got, w)
				}
				if got := pagesOf(t, a); !slices.Equal(got, w) {
					t.Fatalf("%s, pages %d on A: %v, want %v", step, i+1, got, w)
				}
			}
		}
		want("empty")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(b.CreateRecord(ctx, rec("conf", "1", "running")))
		must(b.CreateRecord(ctx, rec("conf", "2", "booked")))
		want("created on B", "d1/1@0")

		must(b.CreateRecord(ctx, rec("mt", "m1", "online")))
		want("a terminal created on B", "d1/1@0")

		must(b.UpdateRecord(ctx, rec("conf", "1", "running"), ""))
		want("updated on B", "d1/1@1")

		must(b.UpdateRecord(ctx, rec("conf", "2", "running"), "booked"))
		want("started on B", "d1/1@1", "d1/2@1")

		must(b.Atomic(ctx, func(tx store.Tx) error {
			r, err := tx.GetRecord("conf", "d1", "2")
			if err != nil {
				return err
			}
			r.State = "ended"
			return tx.SwapRecord(r)
		}))
		want("ended on B in a transaction", "d1/1@1")

		for i := 0; i < 300; i++ { // more events than RecordKeys reads
			must(b.UpdateRecord(ctx, rec("mt", "m1", "online"), ""))
		}
		must(b.UpdateRecord(ctx, rec("conf", "1", "running"), ""))
		want("updated on B after many other events", "d1/1@2")

		// The conference's event pruned before A looks: the gap in the
		// numbers is a change A cannot rule out.
		must(b.UpdateRecord(ctx, rec("conf", "1", "running"), ""))
		later := rec("mt", "m1", "online")
		later.UpdatedAt = now.Add(time.Hour)
		must(b.UpdateRecord(ctx, later, ""))
		if _, err := b.PruneEvents(ctx, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		want("updated on B, its event pruned", "d1/1@3")

		must(b.DeleteRecord(ctx, "conf", "d1", "1"))
		want("deleted on B")
	})
}
