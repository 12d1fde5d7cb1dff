package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// Writes queued while the writer is busy commit together, each with its
// own answer: a refused one rolls back to its savepoint alone.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rec := func(id string) store.Record {
		return store.Record{Kind: "tpl", ID: id, DomainMoid: "d", Data: []byte(`{}`), CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(1, 0)}
	}
	if err := db.CreateRecord(ctx, rec("taken")); err != nil {
		t.Fatal(err)
	}
	// Hold the writer while 10 writes queue up behind it.
	hold, held := make(chan struct{}), make(chan struct{})
	go db.write(ctx, func(context.Context, *sql.Tx) error { close(held); <-hold; return nil })
	<-held
	b0, w0 := db.w.stats.batches.Load(), db.w.stats.writes.Load()
	const n = 10
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			id := fmt.Sprint("r", i)
			if i == 3 {
				id = "taken"
			}
			errs[i] = db.CreateRecord(ctx, rec(id))
		}(i)
	}
	for db.w.waiting.Load() < n {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // from the count to the channel send
	close(hold)
	wg.Wait()
	for i, err := range errs {
		if want := error(nil); i == 3 {
			if !errors.Is(err, store.ErrDuplicate) {
				t.Fatalf("write %d = %v, want ErrDuplicate", i, err)
			}
		} else if err != want {
			t.Fatalf("write %d = %v", i, err)
		}
	}
	if b, w := db.w.stats.batches.Load()-b0, db.w.stats.writes.Load()-w0; b != 1 || w != n {
		t.Fatalf("%d writes in %d batches, want %d in 1", w, b, n)
	}
	if c, _ := db.CountRecords(ctx, store.RecordQuery{Kind: "tpl"}); c != n {
		t.Fatalf("%d records, want %d", c, n)
	}
	evs, err := db.EventsSince(ctx, 0, 100)
	if err != nil || len(evs) != n {
		t.Fatalf("%d events (%v), want %d", len(evs), err, n)
	}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d numbered %d", i, e.Seq)
		}
	}
	// A cancelled caller's write is not run; a closed store refuses writes.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := db.CreateRecord(cctx, rec("late")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write = %v", err)
	}
	db.Close()
	if err := db.CreateRecord(ctx, rec("closed")); err == nil {
		t.Fatal("a write after Close succeeded")
	}
}
