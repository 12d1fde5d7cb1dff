package storetest

import (
	"errors"
	"fmt"
	"sort"
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// testBatchTx checks the batch functions of a transaction (store.BatchTx,
// one statement per batch on PostgreSQL) against the one-record methods:
// the same numbers, records, events in order and errors, all or nothing.
func testBatchTx(t *testing.T, st store.Store) {
	recs := func(from, n int) []store.Record {
		var out []store.Record
		for i := from; i < from+n; i++ {
			out = append(out, batchRec(fmt.Sprintf("1/%d", i), "d1", "1", "idle"))
		}
		return out
	}
	must(t, st.Atomic(ctx, func(tx store.Tx) error {
		// A new counter, then an existing one.
		for _, want := range [][]int64{{2, 3, 4}, {5, 6}} {
			got, err := store.NextNumbers(tx, "mt:b", len(want), 2, 100)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				return fmt.Errorf("NextNumbers = %v, %v; want %v", got, err, want)
			}
		}
		// Wrapping within the batch: as NextNumber one by one.
		if got, err := store.NextNumbers(tx, "mt:w", 3, 1, 2); err != nil || fmt.Sprint(got) != "[1 2 1]" {
			return fmt.Errorf("NextNumbers over max = %v, %v", got, err)
		}
		if err := store.CreateRecords(tx, recs(1, 3)); err != nil {
			return err
		}
		got, err := store.GetRecords(tx, "mt", "d1", []string{"1/3", "1/9", "1/1"})
		if err != nil || len(got) != 2 {
			return fmt.Errorf("GetRecords = %+v, %v", got, err)
		}
		sw := recs(1, 3)
		for i := range sw {
			sw[i].State = "calling"
		}
		return store.SwapRecords(tx, sw)
	}))
	for i := 1; i <= 3; i++ {
		r, err := st.GetRecord(ctx, "mt", "d1", fmt.Sprintf("1/%d", i))
		if err != nil || r.State != "calling" || r.Version != 1 || r.OwnerMoid != "1" {
			t.Fatalf("after the batch: %+v, %v", r, err)
		}
	}
	want := "[mt:create:1/1:idle mt:create:1/2:idle mt:create:1/3:idle mt:update:1/1:calling mt:update:1/2:calling mt:update:1/3:calling]"
	if got := events(t, st); got != nil && fmt.Sprint(got) != want {
		t.Fatalf("events = %v\nwant %s", got, want)
	}

	// Errors: a taken id, an old version, a missing record; nothing of the
	// transaction stays.
	try := func(f func(tx store.Tx) error) error {
		return st.Atomic(ctx, func(tx store.Tx) error {
			if _, err := store.NextNumbers(tx, "mt:b", 2, 2, 100); err != nil {
				return err
			}
			return f(tx)
		})
	}
	if err := try(func(tx store.Tx) error { return store.CreateRecords(tx, recs(3, 3)) }); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateRecords over a taken id = %v", err)
	}
	old := recs(1, 3) // version 0; stored 1
	old[0].Version, old[1].Version = 1, 1
	if err := try(func(tx store.Tx) error { return store.SwapRecords(tx, old) }); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SwapRecords over an old version = %v", err)
	}
	miss := recs(1, 2)
	miss[0].Version, miss[1].Version = 1, 1
	miss = append(miss, batchRec("1/8", "d1", "1", "x"))
	if err := try(func(tx store.Tx) error { return store.SwapRecords(tx, miss) }); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SwapRecords of a missing record = %v", err)
	}
	twice := recs(1, 1)
	twice[0].Version = 1
	twice = append(twice, twice[0])
	if err := try(func(tx store.Tx) error { return store.SwapRecords(tx, twice) }); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SwapRecords of one record twice = %v", err)
	}
	for i := 1; i <= 5; i++ {
		r, err := st.GetRecord(ctx, "mt", "d1", fmt.Sprintf("1/%d", i))
		if i > 3 {
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a rolled back record is there: %+v, %v", r, err)
			}
			continue
		}
		if err != nil || r.Version != 1 || r.State != "calling" {
			t.Fatalf("after the failed batches: %+v, %v", r, err)
		}
	}
	if got := events(t, st); got != nil && fmt.Sprint(got) != want {
		t.Fatalf("events after the failed batches = %v", got)
	}
	if n, _ := st.NextNumber(ctx, "mt:b", 2, 100); n != 7 {
		t.Fatalf("NextNumber after the rollbacks = %d, want 7", n)
	}

	// The directory, several entries in one read.
	for _, a := range []string{"10.0.0.1", "10.0.0.2"} {
		must(t, st.PutDirectoryEntry(ctx, store.DirectoryEntry{Account: a, Alias: "a" + a, Behaviour: "busy"}))
	}
	dir, err := store.DirectoryEntries(ctx, st, []string{"10.0.0.2", "10.0.0.3", "10.0.0.1", "10.0.0.2"})
	must(t, err)
	var keys []string
	for k, e := range dir {
		if e.Alias != "a"+k || e.Behaviour != "busy" {
			t.Fatalf("DirectoryEntries[%s] = %+v", k, e)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if fmt.Sprint(keys) != "[10.0.0.1 10.0.0.2]" {
		t.Fatalf("DirectoryEntries found %v", keys)
	}
}
