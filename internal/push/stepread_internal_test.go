package push

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// countingStore counts the records read one by one.
type countingStore struct {
	store.Store
	gets int
}

func (c *countingStore) GetRecord(ctx context.Context, kind, domain, id string) (store.Record, error) {
	c.gets++
	return c.Store.GetRecord(ctx, kind, domain, id)
}

// batchStore is a countingStore that reads many records at once.
type batchStore struct {
	*countingStore
	db      *sqlstore.DB
	batches int
}

func (b *batchStore) GetRecords(ctx context.Context, refs []store.RecordRef) (map[store.RecordRef]store.Record, error) {
	b.batches++
	return b.db.GetRecords(ctx, refs)
}

// A step reads its records in one statement when the store can, and
// leaves the tailer as the reads one by one do: a conference changed
// twice keeps its newest document, one deleted after its change and one
// ended are forgotten, a new terminal is read.
func TestStepReadsOnce(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		for _, batch := range []bool{true, false} {
			ctx := context.Background()
			db, err := sqlstore.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			prefix := map[bool]string{true: "b", false: "s"}[batch] // each pass its own records
			conf := func(id, state, speaker string) store.Record {
				return store.Record{Kind: "conf", ID: prefix + id, DomainMoid: "d1", State: state,
					Data: []byte(`{"speaker_mt_id":"` + speaker + `"}`), CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(1, 0)}
			}
			for _, id := range []string{"A", "B", "C", "D"} {
				if err := db.CreateRecord(ctx, conf(id, "running", "")); err != nil {
					t.Fatal(err)
				}
			}
			cs := &countingStore{Store: db}
			var st store.Store = cs
			bs := &batchStore{countingStore: cs, db: db}
			if batch {
				st = bs
			}
			s := New(Config{Events: db, Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			tl := s.tail
			if tl.seq, err = db.LastEventSeq(ctx); err != nil {
				t.Fatal(err)
			}
			tl.preload(ctx)

			for _, step := range []func() error{
				func() error { return db.UpdateRecord(ctx, conf("A", "running", "1"), "") },
				func() error { return db.UpdateRecord(ctx, conf("B", "running", "1"), "") },
				func() error { return db.UpdateRecord(ctx, conf("A", "running", "2"), "") },
				func() error { return db.UpdateRecord(ctx, conf("C", "running", "1"), "") },
				func() error { return db.DeleteRecord(ctx, "conf", "d1", prefix+"C") },
				func() error {
					return db.CreateRecord(ctx, store.Record{Kind: "mt", ID: prefix + "A/1", DomainMoid: "d1", State: "online",
						Data: []byte(`{"account":"x"}`), CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(1, 0)})
				},
				func() error { return db.UpdateRecord(ctx, conf("D", "ended", ""), "") },
			} {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			cs.gets = 0
			if n, err := tl.step(ctx); err != nil || n != 7 {
				t.Fatalf("step = %d, %v; want the 7 events", n, err)
			}
			if batch && (bs.batches != 1 || cs.gets != 0) {
				t.Errorf("batch reads: %d, reads one by one: %d; want one batch and none", bs.batches, cs.gets)
			}
			if !batch && cs.gets != 6 {
				t.Errorf("reads one by one: %d, want 6 (A, B, A, C, the terminal's conference and the terminal)", cs.gets)
			}
			if tl.reads != nil {
				t.Error("the step's records are kept after it")
			}
			got := map[string]string{}
			for k, c := range tl.confs {
				if strings.HasPrefix(k, "d1\x00"+prefix) { // not the other pass's
					got[k] = string(c.data)
				}
			}
			want := map[string]string{
				confKey("d1", prefix+"A"): `{"speaker_mt_id":"2"}`,
				confKey("d1", prefix+"B"): `{"speaker_mt_id":"1"}`,
			}
			if len(got) != len(want) || got[confKey("d1", prefix+"A")] != want[confKey("d1", prefix+"A")] ||
				got[confKey("d1", prefix+"B")] != want[confKey("d1", prefix+"B")] {
				t.Errorf("batch %v: conferences after the step %q, want %q", batch, got, want)
			}
			if _, ok := tl.calls[confKey("d1", prefix+"A/1")]; !ok {
				t.Errorf("batch %v: the new terminal was not read", batch)
			}
			db.Close()
		}
	})
}
