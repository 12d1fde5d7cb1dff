package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

func openPG(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), testdb.Postgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func pipeRecord(id, data string) store.Record {
	now := time.Now()
	return store.Record{Kind: "pipe", ID: id, DomainMoid: "d", OwnerMoid: "o", State: "s",
		Data: []byte(data), CreatedAt: now, UpdatedAt: now}
}

// The jobs CreateRecord and UpdateRecord queue (records_write.go).
func createJob(db *DB, r store.Record) *pgJob {
	return &pgJob{kind: r.Kind, id: r.ID, query: db.d.q(insertRecord + " ON CONFLICT DO NOTHING" + returningEvent),
		args: recordArgs(r), op: store.OpCreate, miss: store.ErrDuplicate}
}

func updateJob(db *DB, r store.Record) *pgJob {
	q, args := updateRecord(r, "")
	return &pgJob{kind: r.Kind, id: r.ID, query: db.d.q(q + returningEvent), args: args, op: store.OpUpdate, miss: store.ErrNotFound}
}

// badData is refused by PostgreSQL in a text column: the statement fails.
const badData = "{\"x\":\"\x00\"}"

// One batch with a failing statement in its middle, misses and a
// cancelled job: the failing job alone gets its error, the misses their
// answers, and the rest commits with consecutive event numbers in the
// batch's order.
func TestPGPipeBatch(t *testing.T) {
	db := openPG(t)
	ctx := context.Background()
	if err := db.CreateRecord(ctx, pipeRecord("a", "{}")); err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	batch := []*pgJob{
		createJob(db, pipeRecord("b", "{}")),
		updateJob(db, pipeRecord("missing", "{}")),
		createJob(db, pipeRecord("c", badData)),
		createJob(db, pipeRecord("a", "{}")),
		updateJob(db, pipeRecord("a", `{"v":2}`)),
		createJob(db, pipeRecord("cancelled", "{}")),
		createJob(db, pipeRecord("d", "{}")),
	}
	for i, j := range batch {
		j.ctx, j.done = ctx, make(chan error, 1)
		if i == 5 {
			j.ctx = gone
		}
	}
	db.pgb.commit(batch)
	var errs []error
	for _, j := range batch {
		errs = append(errs, <-j.done)
	}
	var pg *pgconn.PgError
	if errs[0] != nil || errs[4] != nil || errs[6] != nil {
		t.Fatalf("good jobs failed: %v", errs)
	}
	if errs[1] != store.ErrNotFound || errs[3] != store.ErrDuplicate || !errors.As(errs[2], &pg) || errs[5] != context.Canceled {
		t.Fatalf("answers = %v", errs)
	}
	evs, err := db.EventsSince(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has number %d", i, e.Seq)
		}
		got = append(got, e.Op+" "+e.ID)
	}
	if want := "[create a create b update a create d]"; fmt.Sprint(got) != want {
		t.Fatalf("events = %v, want %s", got, want)
	}
	if r, err := db.GetRecord(ctx, "pipe", "d", "a"); err != nil || string(r.Data) != `{"v":2}` || r.Version != 1 {
		t.Fatalf("a = %+v, %v", r, err)
	}
	if _, err := db.GetRecord(ctx, "pipe", "d", "c"); err != store.ErrNotFound {
		t.Fatalf("the failed job's record: %v", err)
	}
}

// Concurrent writes through the batcher, with misses and failing
// statements among them: every acknowledged write is stored with its one
// event, the others left none, and event numbers have no gap.
func TestPGPipeConcurrent(t *testing.T) {
	db := openPG(t)
	ctx := context.Background()
	const writers, rounds = 16, 30
	var mu sync.Mutex
	acked := map[string]int{} // "op id" → acknowledged writes
	last := map[string]string{}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("w%d", w)
			if err := db.CreateRecord(ctx, pipeRecord(id, "{}")); err != nil {
				t.Error(err)
				return
			}
			mine := map[string]int{"create " + id: 1}
			data := "{}"
			for i := 0; i < rounds; i++ {
				var err error
				switch i % 5 {
				case 0, 1, 2:
					d := fmt.Sprintf(`{"i":%d}`, i)
					if err = db.UpdateRecord(ctx, pipeRecord(id, d), ""); err == nil {
						mine["update "+id]++
						data = d
					}
				case 3:
					if err = db.UpdateRecord(ctx, pipeRecord(id+"-none", "{}"), ""); err == store.ErrNotFound {
						err = nil
					} else {
						err = fmt.Errorf("update of a missing record: %v", err)
					}
					if e := db.CreateRecord(ctx, pipeRecord(id, "{}")); e != store.ErrDuplicate && err == nil {
						err = fmt.Errorf("duplicate creation: %v", e)
					}
				case 4:
					if err = db.UpdateRecord(ctx, pipeRecord(id, badData), ""); err == nil {
						err = errors.New("a refused value was acknowledged")
					} else {
						err = nil
					}
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
			mu.Lock()
			defer mu.Unlock()
			for k, n := range mine {
				acked[k] = n
			}
			last[id] = data
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for id, data := range last {
		if r, err := db.GetRecord(ctx, "pipe", "d", id); err != nil || string(r.Data) != data {
			t.Errorf("%s = %q, %v; want %q", id, r.Data, err, data)
		}
	}
	evs, err := db.EventsSince(ctx, 0, 10000)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has number %d", i, e.Seq)
		}
		seen[e.Op+" "+e.ID]++
	}
	if fmt.Sprint(seen) != fmt.Sprint(acked) {
		t.Fatalf("events %v, acknowledged %v", seen, acked)
	}
}
