package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

func batchRec(id, domain, owner, state string) store.Record {
	return store.Record{Kind: "mt", ID: id, DomainMoid: domain, OwnerMoid: owner, State: state,
		Data: []byte(`{"id":"` + id + `"}`), CreatedAt: t0, UpdatedAt: t0}
}

func testCountRecords(t *testing.T, st store.Store) {
	for i, r := range []store.Record{batchRec("1/1", "d1", "1", "idle"), batchRec("1/2", "d1", "1", "online"),
		batchRec("2/1", "d1", "2", "online"), batchRec("3/1", "d2", "3", "online")} {
		r.UpdatedAt = t0.Add(time.Duration(i) * time.Second)
		must(t, st.CreateRecord(ctx, r))
	}
	for _, c := range []struct {
		q    store.RecordQuery
		want int
	}{
		{store.RecordQuery{Kind: "mt"}, 4},
		{store.RecordQuery{Kind: "mt", DomainMoid: "d1"}, 3},
		{store.RecordQuery{Kind: "mt", DomainMoid: "d1", OwnerMoid: "1"}, 2},
		{store.RecordQuery{Kind: "mt", DomainMoid: "d1", States: []string{"online"}}, 2},
		{store.RecordQuery{Kind: "mt", DomainMoid: "d1", Count: 1, Start: 1}, 3}, // paging aside
		{store.RecordQuery{Kind: "conf"}, 0},
	} {
		n, err := st.CountRecords(ctx, c.q)
		must(t, err)
		if n != c.want {
			t.Errorf("CountRecords(%+v) = %d, want %d", c.q, n, c.want)
		}
	}
}

// events returns the store's event log as "kind:op:id:state" (nil when
// the store keeps none).
func events(t *testing.T, st store.Store) []string {
	log, ok := st.(store.EventLog)
	if !ok {
		return nil
	}
	evs, err := log.EventsSince(ctx, 0, 10000)
	must(t, err)
	var out []string
	for i, e := range evs {
		if i > 0 && e.Seq != evs[i-1].Seq+1 {
			t.Fatalf("event numbers not consecutive: %d after %d", e.Seq, evs[i-1].Seq)
		}
		out = append(out, fmt.Sprintf("%s:%s:%s:%s", e.Kind, e.Op, e.ID, e.State))
	}
	return out
}

func testAtomic(t *testing.T, st store.Store) {
	must(t, st.CreateRecord(ctx, batchRec("1/1", "d1", "1", "idle")))
	// Writes, reads of its own writes, counts and numbers in one transaction.
	must(t, st.Atomic(ctx, func(tx store.Tx) error {
		n, err := tx.CountRecords(store.RecordQuery{Kind: "mt", DomainMoid: "d1", OwnerMoid: "1"})
		if err != nil || n != 1 {
			return fmt.Errorf("count = %d, %v", n, err)
		}
		for i := 0; i < 2; i++ {
			num, err := tx.NextNumber("mt:1", 2, 100)
			if err != nil {
				return err
			}
			r := batchRec(fmt.Sprintf("1/%d", num), "d1", "1", "idle")
			if err := tx.CreateRecord(r); err != nil {
				return err
			}
			r.State = "calling"
			if err := tx.SwapRecord(r); err != nil {
				return err
			}
		}
		got, err := tx.GetRecord("mt", "d1", "1/3")
		if err != nil || got.State != "calling" || got.Version != 1 || got.OwnerMoid != "1" {
			return fmt.Errorf("read in the transaction: %+v, %v", got, err)
		}
		if n, _ := tx.CountRecords(store.RecordQuery{Kind: "mt", OwnerMoid: "1"}); n != 3 {
			return fmt.Errorf("count after creating = %d", n)
		}
		// ListRecords sees the transaction's own writes, with their state.
		recs, err := tx.ListRecords(store.RecordQuery{Kind: "mt", DomainMoid: "d1", States: []string{"calling"}})
		if err != nil || len(recs) != 2 || recs[0].State != "calling" {
			return fmt.Errorf("list in the transaction: %+v, %v", recs, err)
		}
		return nil
	}))
	if n, _ := st.CountRecords(ctx, store.RecordQuery{Kind: "mt"}); n != 3 {
		t.Fatalf("after the transaction: %d records, want 3", n)
	}
	want := "[mt:create:1/1:idle mt:create:1/2:idle mt:update:1/2:calling mt:create:1/3:idle mt:update:1/3:calling]"
	if got := events(t, st); got != nil && fmt.Sprint(got) != want {
		t.Fatalf("events = %v\nwant %s", got, want)
	}

	// An error of f rolls everything back, numbers included.
	boom := errors.New("boom")
	if err := st.Atomic(ctx, func(tx store.Tx) error {
		if _, err := tx.NextNumber("mt:1", 2, 100); err != nil {
			return err
		}
		if err := tx.CreateRecord(batchRec("1/9", "d1", "1", "idle")); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("Atomic = %v, want f's error", err)
	}
	if _, err := st.GetRecord(ctx, "mt", "d1", "1/9"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a rolled back record is there: %v", err)
	}
	if n, _ := st.NextNumber(ctx, "mt:1", 2, 100); n != 4 {
		t.Fatalf("NextNumber after a rollback = %d, want 4", n)
	}
	// The errors of tx's methods.
	err := st.Atomic(ctx, func(tx store.Tx) error { return tx.CreateRecord(batchRec("1/1", "d1", "1", "idle")) })
	if !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("Atomic create of a taken id = %v", err)
	}
	err = st.Atomic(ctx, func(tx store.Tx) error { return tx.SwapRecord(batchRec("1/1", "d1", "1", "x")) }) // stored version 0: fine
	must(t, err)
	err = st.Atomic(ctx, func(tx store.Tx) error { return tx.SwapRecord(batchRec("1/1", "d1", "1", "y")) })
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("Atomic swap over an old version = %v", err)
	}
	err = st.Atomic(ctx, func(tx store.Tx) error { return tx.SwapRecord(batchRec("1/7", "d1", "1", "y")) })
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Atomic swap of a missing record = %v", err)
	}
	err = st.Atomic(ctx, func(tx store.Tx) error { _, err := tx.GetRecord("mt", "d2", "1/1"); return err })
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Atomic read across domains = %v", err)
	}
}

// testConcurrentWrites: many writers at once (which a store may commit
// together), some of them refused; each gets its own answer and only the
// accepted writes are stored, each with its event.
func testConcurrentWrites(t *testing.T, st store.Store) {
	must(t, st.CreateRecord(ctx, batchRec("taken", "d1", "", "idle")))
	const n = 120
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			switch i % 4 {
			case 0: // refused: the id is taken
				errs[i] = st.CreateRecord(ctx, batchRec("taken", "d1", "", "idle"))
			case 1: // refused inside a transaction: nothing of it stays
				errs[i] = st.Atomic(ctx, func(tx store.Tx) error {
					if err := tx.CreateRecord(batchRec(fmt.Sprintf("a%d", i), "d1", "", "idle")); err != nil {
						return err
					}
					return tx.CreateRecord(batchRec("taken", "d1", "", "idle"))
				})
			default:
				errs[i] = st.CreateRecord(ctx, batchRec(fmt.Sprintf("r%d", i), "d1", "", "idle"))
			}
		}(i)
	}
	wg.Wait()
	created := 1
	for i, err := range errs {
		switch i % 4 {
		case 0, 1:
			if !errors.Is(err, store.ErrDuplicate) {
				t.Fatalf("write %d = %v, want ErrDuplicate", i, err)
			}
		default:
			must(t, err)
			created++
		}
	}
	if got, _ := st.CountRecords(ctx, store.RecordQuery{Kind: "mt"}); got != created {
		t.Fatalf("%d records stored, want %d", got, created)
	}
	if evs := events(t, st); evs != nil && len(evs) != created {
		t.Fatalf("%d events, want %d", len(evs), created)
	}
}
