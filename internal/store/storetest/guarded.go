package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// testGuarded checks store.GuardedWriter (stores without it skip): the
// read of a record with another's state, and the swap that holds only
// while the other record is in a state, with its event.
func testGuarded(t *testing.T, st store.Store) {
	gw, ok := st.(store.GuardedWriter)
	if !ok {
		t.Skip("the store has no GuardedWriter")
	}
	conf := store.Record{Kind: "conf", ID: "7", DomainMoid: "d1", OwnerMoid: "a1", State: "running",
		Data: []byte(`{"speaker":""}`), CreatedAt: t0, UpdatedAt: t0}
	must(t, st.CreateRecord(ctx, conf))
	must(t, st.CreateRecord(ctx, batchRec("7/1", "d1", "7", "online")))
	must(t, st.CreateRecord(ctx, batchRec("7/2", "d1", "7", "idle")))
	must(t, st.CreateRecord(ctx, batchRec("7/3", "d2", "7", "online"))) // another domain's

	for mt, want := range map[string]string{"7/1": "online", "7/2": "idle", "7/3": "", "7/9": ""} {
		r, state, err := gw.GetRecordAndState(ctx, "conf", "d1", "7", "mt", mt)
		must(t, err)
		if state != want || string(r.Data) != `{"speaker":""}` || r.State != "running" || r.OwnerMoid != "a1" {
			t.Errorf("GetRecordAndState(%s) = %+v, %q; want the conference and %q", mt, r, state, want)
		}
	}
	if _, _, err := gw.GetRecordAndState(ctx, "conf", "d2", "7", "mt", "7/3"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetRecordAndState of another domain's conference = %v, want ErrNotFound", err)
	}

	r, _, err := gw.GetRecordAndState(ctx, "conf", "d1", "7", "mt", "7/1")
	must(t, err)
	before := len(events(t, st))
	for _, mt := range []string{"7/2", "7/3", "7/9"} { // idle, another domain's, none
		w := r
		w.Data = []byte(`{"speaker":"` + mt + `"}`)
		if err := gw.SwapRecordWhile(ctx, w, "mt", mt, "online"); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("SwapRecordWhile(%s not online) = %v, want ErrConflict", mt, err)
		}
	}
	w := r
	w.Data = []byte(`{"speaker":"1"}`)
	must(t, gw.SwapRecordWhile(ctx, w, "mt", "7/1", "online"))
	if err := gw.SwapRecordWhile(ctx, w, "mt", "7/1", "online"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SwapRecordWhile(old version) = %v, want ErrConflict", err)
	}
	gone := w
	gone.ID = "8"
	if err := gw.SwapRecordWhile(ctx, gone, "mt", "7/1", "online"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SwapRecordWhile(no record) = %v, want ErrNotFound", err)
	}
	got, err := st.GetRecord(ctx, "conf", "d1", "7")
	must(t, err)
	if string(got.Data) != `{"speaker":"1"}` || got.Version != r.Version+1 {
		t.Fatalf("after the swap: %s version %d, want the new data at version %d", got.Data, got.Version, r.Version+1)
	}
	if evs := events(t, st); evs != nil && (len(evs) != before+1 || evs[len(evs)-1] != "conf:update:7:running") {
		t.Fatalf("events after the swaps: %v (before: %d), want one update of 7", evs, before)
	}

	// A swap racing a change of the guarding record's state: either the
	// swap committed while the terminal was online, or it failed.
	var wg sync.WaitGroup
	var swapErr error
	cur, _, err := gw.GetRecordAndState(ctx, "conf", "d1", "7", "mt", "7/1")
	must(t, err)
	mt, err := st.GetRecord(ctx, "mt", "d1", "7/1")
	must(t, err)
	wg.Add(2)
	go func() {
		defer wg.Done()
		w := cur
		w.Data = []byte(`{"speaker":"1","n":2}`)
		swapErr = gw.SwapRecordWhile(ctx, w, "mt", "7/1", "online")
	}()
	go func() {
		defer wg.Done()
		m := mt
		m.State = "idle"
		must(t, st.SwapRecord(ctx, m))
	}()
	wg.Wait()
	if swapErr != nil && !errors.Is(swapErr, store.ErrConflict) {
		t.Fatalf("racing swap: %v", swapErr)
	}

	// A record deleted and created again under its key (a conference
	// number reused) starts its versions again: a swap based on the old
	// one must not land on it, even at the same version.
	must(t, st.CreateRecord(ctx, batchRec("7/4", "d1", "7", "online")))
	old := store.Record{Kind: "conf", ID: "9", DomainMoid: "d1", OwnerMoid: "a1", State: "running",
		Data: []byte(`{"speaker":""}`), CreatedAt: t0, UpdatedAt: t0, Version: 1}
	must(t, st.CreateRecord(ctx, old))
	must(t, st.DeleteRecord(ctx, "conf", "d1", "9"))
	again := old
	again.CreatedAt, again.Data = t0.Add(time.Second), []byte(`{"speaker":"","again":1}`)
	must(t, st.CreateRecord(ctx, again))
	stale := old
	stale.Data = []byte(`{"speaker":"4"}`)
	if err := gw.SwapRecordWhile(ctx, stale, "mt", "7/4", "online"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("SwapRecordWhile(a record created again since) = %v, want ErrConflict", err)
	}
	if got, err := st.GetRecord(ctx, "conf", "d1", "9"); err != nil || string(got.Data) != `{"speaker":"","again":1}` {
		t.Fatalf("the record created again = %s, %v; want it untouched", got.Data, err)
	}
}
