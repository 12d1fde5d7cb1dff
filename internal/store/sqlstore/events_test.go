package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// Every committed record write appends one event, in commit order; a
// rejected write appends none.
func TestEventLog(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		rec := store.Record{Kind: "mt", ID: "7/1", DomainMoid: "d", OwnerMoid: "7", State: "calling", Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(db.CreateRecord(ctx, rec))
		if err := db.CreateRecord(ctx, rec); err != store.ErrDuplicate {
			t.Fatalf("duplicate create = %v", err)
		}
		rec.State = "online"
		must(db.SwapRecord(ctx, rec))
		if err := db.SwapRecord(ctx, rec); err != store.ErrConflict {
			t.Fatalf("stale swap = %v", err)
		}
		rec.State = "idle"
		must(db.UpdateRecord(ctx, rec, "online"))
		if err := db.UpdateRecord(ctx, rec, "online"); err != store.ErrNotFound {
			t.Fatalf("conditional update = %v", err)
		}
		must(db.DeleteRecord(ctx, "mt", "d", "7/1"))
		evs, err := db.EventsSince(ctx, 0, 100)
		must(err)
		var got []string
		for i, e := range evs {
			if e.Seq != int64(i+1) || e.OwnerMoid != "7" || e.ID != "7/1" {
				t.Fatalf("event %d = %+v", i, e)
			}
			got = append(got, e.Op+":"+e.State)
		}
		if want := "[create:calling update:online update:idle delete:idle]"; fmt.Sprint(got) != want {
			t.Fatalf("events = %v, want %s", got, want)
		}
		last, _ := db.LastEventSeq(ctx)
		if evs, _ := db.EventsSince(ctx, 2, 1); last != 4 || len(evs) != 1 || evs[0].Seq != 3 {
			t.Fatalf("LastEventSeq = %d, EventsSince(2, 1) = %v", last, evs)
		}
		// Concurrent writers: numbers stay unique and gap-free.
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					r := store.Record{Kind: "x", ID: fmt.Sprintf("%d-%d", w, i), DomainMoid: "d", Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
					if err := db.CreateRecord(ctx, r); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		evs, _ = db.EventsSince(ctx, 4, 1000)
		for i, e := range evs {
			if e.Seq != int64(5+i) {
				t.Fatalf("event %d has seq %d", i, e.Seq)
			}
		}
		if len(evs) != 40 {
			t.Fatalf("%d events for 40 writes", len(evs))
		}
		if n, _ := db.PruneEvents(ctx, now.Add(time.Second)); n != 44 {
			t.Fatalf("PruneEvents removed %d, want 44", n)
		}
	})
}
