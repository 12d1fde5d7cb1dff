package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// Tests of this handle's own writes in GetRecords (ownwrites.go).

func openOwn(t *testing.T, dsn string) *DB {
	t.Helper()
	db, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func refOf(kind, domain, id string) store.RecordRef {
	return store.RecordRef{Kind: kind, DomainMoid: domain, ID: id}
}

// getRecords calls GetRecords and returns how many references came from
// memory and how many went to the database.
func getRecords(t *testing.T, db *DB, refs ...store.RecordRef) (map[store.RecordRef]store.Record, int64, int64) {
	t.Helper()
	h, m := db.own.hits.Load(), db.own.misses.Load()
	got, err := db.GetRecords(context.Background(), refs)
	if err != nil {
		t.Fatal(err)
	}
	return got, db.own.hits.Load() - h, db.own.misses.Load() - m
}

// fromMemory checks that GetRecords answers refs without a statement, each
// record equal to a read of the database (GetRecord).
func fromMemory(t *testing.T, db *DB, step string, refs ...store.RecordRef) map[store.RecordRef]store.Record {
	t.Helper()
	got, hits, misses := getRecords(t, db, refs...)
	if hits != int64(len(refs)) || misses != 0 {
		t.Errorf("%s: GetRecords took %d of %d references from memory, %d from the database", step, hits, len(refs), misses)
	}
	for _, r := range refs {
		want, err := db.GetRecord(context.Background(), r.Kind, r.DomainMoid, r.ID)
		if err != nil {
			t.Fatalf("%s: GetRecord %v: %v", step, r, err)
		}
		if rec, ok := got[r]; !ok || !reflect.DeepEqual(rec, want) {
			t.Errorf("%s: GetRecords[%v] = %+v (%s), a read gives %+v (%s)", step, r, rec, rec.Data, want, want.Data)
		}
	}
	return got
}

// Every write path enters what it stored: a GetRecords after it answers
// from memory exactly what a read of the database returns (document byte
// for byte, the stored version and creation time of an update that did
// not carry them, times as read back).
func TestOwnWritesAnswerAsARead(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := openOwn(t, dsn)
		now := time.Now() // a monotonic reading and the local zone, which a read does not give back
		conf := store.Record{Kind: "conf", ID: "7", DomainMoid: "d", OwnerMoid: "a", State: "running",
			Data:      []byte(`{"name":"会议 ü" , "start_time":"2026-11-26T06:00:00+08:00",  "x":[1, 2.50]}`),
			CreatedAt: now, UpdatedAt: now, DueAt: now.Add(time.Hour), Version: 3}
		mt := store.Record{Kind: "mt", ID: "7/1", DomainMoid: "d", OwnerMoid: "7", State: "online", Data: []byte(`{"id":"1"}`), CreatedAt: now, UpdatedAt: now}
		must := func(step string, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
		}
		must("create", db.CreateRecord(ctx, conf))
		must("create", db.CreateRecord(ctx, mt))
		cref, mref := refOf("conf", "d", "7"), refOf("mt", "d", "7/1")
		fromMemory(t, db, "create", cref, mref)

		// An update built afresh: no owner, creation time or version.
		upd := store.Record{Kind: "conf", ID: "7", DomainMoid: "d", State: "running", Data: []byte(`{"speaker":"1"}`), UpdatedAt: now.Add(time.Second)}
		must("update", db.UpdateRecord(ctx, upd, ""))
		got := fromMemory(t, db, "update", cref)
		if got[cref].Version != 4 || got[cref].OwnerMoid != "a" || !got[cref].CreatedAt.Equal(now.Truncate(0)) {
			t.Errorf("update: %+v, want version 4, owner a, created %v", got[cref], now)
		}

		cur := got[cref]
		cur.Data = []byte(`{"speaker":"2"}`)
		must("swap", db.SwapRecord(ctx, cur))
		cur = fromMemory(t, db, "swap", cref)[cref]

		cur.Data = []byte(`{"speaker":"3"}`)
		must("swap while", db.SwapRecordWhile(ctx, cur, "mt", "7/1", "online"))
		cur = fromMemory(t, db, "swap while", cref)[cref]

		// With notices: PostgreSQL's transactional path.
		nctx, ns := store.WithNotices(ctx)
		n, err := store.NewNotice("d", "7", "/x", map[string]any{"a": 1}, now)
		must("notice", err)
		ns.Set(n)
		cur.Data = []byte(`{"speaker":"4"}`)
		must("swap with a notice", db.SwapRecord(nctx, cur))
		cur = fromMemory(t, db, "swap with a notice", cref)[cref]

		// Transactions: one record at a time, and several at once.
		mts := []store.Record{mt, mt}
		mts[0].ID, mts[1].ID = "7/2", "7/3"
		must("atomic", db.Atomic(ctx, func(tx store.Tx) error {
			c, err := tx.GetRecord("conf", "d", "7")
			if err != nil {
				return err
			}
			c.Data = []byte(`{"speaker":"5"}`)
			if err := tx.SwapRecord(c); err != nil {
				return err
			}
			m := mt
			m.ID = "7/4"
			if err := tx.CreateRecord(m); err != nil {
				return err
			}
			return tx.(store.BatchTx).CreateRecords(mts)
		}))
		refs := []store.RecordRef{cref, refOf("mt", "d", "7/2"), refOf("mt", "d", "7/3"), refOf("mt", "d", "7/4")}
		got = fromMemory(t, db, "atomic", refs...)
		must("atomic swaps", db.Atomic(ctx, func(tx store.Tx) error {
			var rs []store.Record
			for _, r := range refs {
				rec := got[r]
				rec.Data = []byte(`{"round":2}`)
				rs = append(rs, rec)
			}
			return tx.(store.BatchTx).SwapRecords(rs)
		}))
		fromMemory(t, db, "atomic swaps", refs...)

		must("delete", db.DeleteRecord(ctx, "mt", "d", "7/4"))
		if got, _, misses := getRecords(t, db, refOf("mt", "d", "7/4")); len(got) != 0 || misses != 1 {
			t.Errorf("after a delete: %v (%d from the database), want nothing from the database", got, misses)
		}
		// Another domain's reference is the database's answer: none.
		if got, _, misses := getRecords(t, db, refOf("conf", "e", "7")); len(got) != 0 || misses != 1 {
			t.Errorf("another domain's reference: %v (%d from the database), want nothing from the database", got, misses)
		}
	})
}

// A write of another handle (a second node) after ours: once EventsSince
// has returned its event, GetRecords reads the database. Before that the
// answer may be ours (store.BatchReader).
func TestOwnWritesOtherHandle(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db1, db2 := openOwn(t, dsn), openOwn(t, dsn)
		now := time.Now()
		rec := func(id, data string) store.Record {
			return store.Record{Kind: "conf", ID: id, DomainMoid: "d", State: "running", Data: []byte(data), CreatedAt: now, UpdatedAt: now}
		}
		for _, id := range []string{"1", "2"} {
			if err := db1.CreateRecord(ctx, rec(id, `{"by":1}`)); err != nil {
				t.Fatal(err)
			}
		}
		if err := db2.UpdateRecord(ctx, rec("1", `{"by":2}`), ""); err != nil {
			t.Fatal(err)
		}
		r1, r2 := refOf("conf", "d", "1"), refOf("conf", "d", "2")
		if got, hits, _ := getRecords(t, db1, r1, r2); hits != 2 || string(got[r1].Data) != `{"by":1}` {
			t.Errorf("before its event: %s from memory %d, want ours from memory", got[r1].Data, hits)
		}
		evs, err := db1.EventsSince(ctx, 0, 100)
		if err != nil || len(evs) != 3 {
			t.Fatalf("EventsSince = %v, %v", evs, err)
		}
		got, hits, misses := getRecords(t, db1, r1, r2)
		if hits != 1 || misses != 1 || string(got[r1].Data) != `{"by":2}` || got[r1].Version != 1 || string(got[r2].Data) != `{"by":1}` {
			t.Errorf("after its event: 1 = %s version %d, 2 = %s, %d from memory and %d read; want 1 read with the other's write",
				got[r1].Data, got[r1].Version, got[r2].Data, hits, misses)
		}
		// Ours again, after theirs: ours is the newest event.
		if err := db1.UpdateRecord(ctx, rec("1", `{"by":1,"again":true}`), ""); err != nil {
			t.Fatal(err)
		}
		if _, err := db1.EventsSince(ctx, 0, 100); err != nil {
			t.Fatal(err)
		}
		fromMemory(t, db1, "ours after theirs", r1, r2)
	})
}

// A write that fails or is rolled back is never answered: its record is
// read from the database.
func TestOwnWritesFailedNeverServed(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := openOwn(t, dsn)
		now := time.Now()
		conf := store.Record{Kind: "conf", ID: "7", DomainMoid: "d", State: "running", Data: []byte(`{"v":0}`), CreatedAt: now, UpdatedAt: now}
		if err := db.CreateRecord(ctx, conf); err != nil {
			t.Fatal(err)
		}
		cref := refOf("conf", "d", "7")
		check := func(step string, wantData string, refs ...store.RecordRef) {
			t.Helper()
			got, hits, _ := getRecords(t, db, append([]store.RecordRef{cref}, refs...)...)
			if string(got[cref].Data) != wantData || hits != 0 {
				t.Errorf("%s: GetRecords = %s (%d from memory), want %s read", step, got[cref].Data, hits, wantData)
			}
			for _, r := range refs {
				if _, ok := got[r]; ok {
					t.Errorf("%s: GetRecords answered %v, never committed", step, r)
				}
			}
		}
		// Forget the creation: every check below must read.
		if _, err := db.EventsSince(ctx, 0, 10); err != nil {
			t.Fatal(err)
		}
		db.own.forget("conf", "7")

		// A transaction whose function fails after its writes.
		boom := errors.New("boom")
		err := db.Atomic(ctx, func(tx store.Tx) error {
			c := conf
			c.Data = []byte(`{"v":"atomic"}`)
			if err := tx.SwapRecord(c); err != nil {
				return err
			}
			n := conf
			n.ID = "8"
			if err := tx.CreateRecord(n); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Atomic = %v", err)
		}
		check("failed transaction", `{"v":0}`, refOf("conf", "d", "8"))

		// A write whose event was appended, then its notice refused: rolled
		// back (on SQLite to its savepoint in the group commit) after its
		// entry was made.
		nctx, ns := store.WithNotices(ctx)
		ns.Set(store.Notice{DomainMoid: "d", ConfID: "7", Channel: "no path", Data: []byte(`{}`)})
		c := conf
		c.Data = []byte(`{"v":"notice"}`)
		if err := db.UpdateRecord(nctx, c, ""); err == nil {
			t.Fatal("a write with a refused notice succeeded")
		}
		check("refused notice", `{"v":0}`)
		// The same in a transaction: refused after its records were
		// entered.
		ns.Set(store.Notice{DomainMoid: "d", ConfID: "7", Channel: "no path", Data: []byte(`{}`)})
		err = db.Atomic(nctx, func(tx store.Tx) error {
			c := conf
			c.Data = []byte(`{"v":"atomic notice"}`)
			if err := tx.SwapRecord(c); err != nil {
				return err
			}
			n := conf
			n.ID = "8"
			return tx.CreateRecord(n)
		})
		if err == nil {
			t.Fatal("a transaction with a refused notice succeeded")
		}
		check("refused notice of a transaction", `{"v":0}`, refOf("conf", "d", "8"))

		// Without the event counter's row no event can be numbered: the
		// write fails at its event (on PostgreSQL's group commit, in the
		// COMMIT's round trip, after its entry was made).
		if _, err := db.wdb.ExecContext(ctx, db.d.q("DELETE FROM counters WHERE name = ?"), eventCounter); err != nil {
			t.Fatal(err)
		}
		c.Data = []byte(`{"v":"no counter"}`)
		if err := db.UpdateRecord(ctx, c, ""); err == nil {
			t.Fatal("a write without the event counter succeeded")
		}
		n := conf
		n.ID = "9"
		if err := db.CreateRecord(ctx, n); err == nil {
			t.Fatal("a creation without the event counter succeeded")
		}
		check("no counter", `{"v":0}`, refOf("conf", "d", "9"))
		if _, err := db.wdb.ExecContext(ctx, db.d.q("INSERT INTO counters (name, value) SELECT ?, COALESCE(MAX(seq), 0) FROM events"), eventCounter); err != nil {
			t.Fatal(err)
		}
		c.Data = []byte(`{"v":1}`)
		if err := db.UpdateRecord(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
		fromMemory(t, db, "counter back", cref)
	})
}

// Another handle's write whose event EventsSince returns between our
// commit and the settling of our entries: our record is not answered.
// (Entering the records after the commit would answer it: ownwrites.go.)
func TestOwnWritesCommitRace(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db1, db2 := openOwn(t, dsn), openOwn(t, dsn)
		now := time.Now()
		r := store.Record{Kind: "conf", ID: "7", DomainMoid: "d", State: "running", Data: []byte(`{"by":1}`), CreatedAt: now, UpdatedAt: now}
		if err := db1.CreateRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
		writes := map[string]func(ctx context.Context, r store.Record) error{
			"update": func(ctx context.Context, r store.Record) error { return db1.UpdateRecord(ctx, r, "") },
			"update with a notice": func(ctx context.Context, r store.Record) error {
				nctx, ns := store.WithNotices(ctx)
				n, err := store.NewNotice("d", "7", "/x", map[string]any{"a": 1}, now)
				if err != nil {
					return err
				}
				ns.Set(n)
				return db1.UpdateRecord(nctx, r, "")
			},
			"transaction": func(ctx context.Context, r store.Record) error {
				return db1.Atomic(ctx, func(tx store.Tx) error {
					c, err := tx.GetRecord(r.Kind, r.DomainMoid, r.ID)
					if err != nil {
						return err
					}
					c.Data = r.Data
					return tx.SwapRecord(c)
				})
			},
		}
		for name, write := range writes {
			var other []byte
			db1.own.afterCommit = func() {
				db1.own.afterCommit = nil
				o := r
				other = []byte(`{"by":2,"after":"` + name + `"}`)
				o.Data = other
				if err := db2.UpdateRecord(ctx, o, ""); err != nil {
					t.Error(err)
				}
				if _, err := db1.EventsSince(ctx, 0, 1000); err != nil {
					t.Error(err)
				}
			}
			w := r
			w.Data = []byte(`{"by":1,"w":"` + name + `"}`)
			if err := write(ctx, w); err != nil {
				t.Fatal(err)
			}
			if db1.own.afterCommit != nil {
				t.Fatalf("%s: no commit", name)
			}
			got, _, _ := getRecords(t, db1, refOf("conf", "d", "7"))
			if rec := got[refOf("conf", "d", "7")]; string(rec.Data) != string(other) {
				t.Errorf("%s: GetRecords = %s, want the other's later write %s", name, rec.Data, other)
			}
		}
	})
}

// Concurrent writes of PostgreSQL's group commit get the numbers of their
// events (batchSeqs): their entries outlive their own events and go with
// the next write of another handle.
func TestOwnWritesBatchNumbers(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db1, db2 := openOwn(t, dsn), openOwn(t, dsn)
		now := time.Now()
		const n = 64
		var refs []store.RecordRef
		for i := 0; i < n; i++ {
			refs = append(refs, refOf("conf", "d", fmt.Sprint(i)))
		}
		for round := 0; round < 3; round++ {
			var wg sync.WaitGroup
			for i := 0; i < n; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := store.Record{Kind: "conf", ID: fmt.Sprint(i), DomainMoid: "d", Data: []byte(fmt.Sprintf(`{"round":%d}`, round)), CreatedAt: now, UpdatedAt: now}
					var err error
					if round == 0 {
						err = db1.CreateRecord(ctx, r)
					} else {
						err = db1.UpdateRecord(ctx, r, "")
					}
					if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			evs, err := db1.EventsSince(ctx, 0, 10000)
			if err != nil {
				t.Fatal(err)
			}
			fromMemory(t, db1, fmt.Sprintf("round %d", round), refs...)
			last := map[string]int64{}
			for _, ev := range evs {
				last[ev.ID] = ev.Seq
			}
			for _, r := range refs {
				if e := db1.own.m[ownKey{r.Kind, r.ID}]; e == nil || e.seq != last[r.ID] {
					t.Fatalf("round %d: the entry of %s is %+v, want the number of its last event %d", round, r.ID, e, last[r.ID])
				}
			}
		}
		// The other handle's next write of each record drops its entry.
		for i := 0; i < n; i += 2 {
			r := store.Record{Kind: "conf", ID: fmt.Sprint(i), DomainMoid: "d", Data: []byte(`{"other":true}`), UpdatedAt: now}
			if err := db2.UpdateRecord(ctx, r, ""); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db1.EventsSince(ctx, 0, 10000); err != nil {
			t.Fatal(err)
		}
		got, hits, misses := getRecords(t, db1, refs...)
		if hits != n/2 || misses != n/2 {
			t.Errorf("after the other's writes: %d from memory, %d read; want %d and %d", hits, misses, n/2, n/2)
		}
		for i, r := range refs {
			if want := map[bool]string{true: `{"other":true}`, false: `{"round":2}`}[i%2 == 0]; string(got[r].Data) != want {
				t.Errorf("%v = %s, want %s", r, got[r].Data, want)
			}
		}
	})
}

// The tailer's guarantee under concurrent writes of two handles, some
// failing: every record that GetRecords gives after a step of
// EventsSince is committed and at least as new as each event of it in
// the step. Each write is told by its update time, unique.
func TestOwnWritesStepGuarantee(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db1, db2 := openOwn(t, dsn), openOwn(t, dsn)
		base := time.Unix(1_800_000_000, 0)
		var tick atomic.Int64
		stamp := func() time.Time { return base.Add(time.Duration(tick.Add(1))) }
		ids := []string{"1", "2", "3"}
		for _, id := range ids {
			r := store.Record{Kind: "conf", ID: id, DomainMoid: "d", State: "running", Data: []byte(`{}`), CreatedAt: base, UpdatedAt: stamp()}
			if err := db1.CreateRecord(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		writer := func(db *DB, w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				at := stamp()
				r := store.Record{Kind: "conf", ID: ids[i%len(ids)], DomainMoid: "d", State: "running",
					Data: []byte(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)), UpdatedAt: at}
				wctx := ctx
				switch i % 5 {
				case 1: // refused: rolled back after its event
					var ns *store.Notices
					wctx, ns = store.WithNotices(ctx)
					ns.Set(store.Notice{DomainMoid: "d", ConfID: "1", Channel: "bad", Data: []byte(`{}`)})
				case 2: // in a transaction
					_ = db.Atomic(ctx, func(tx store.Tx) error {
						c, err := tx.GetRecord(r.Kind, r.DomainMoid, r.ID)
						if err != nil {
							return err
						}
						c.Data, c.UpdatedAt = r.Data, at
						if err := tx.SwapRecord(c); err != nil {
							return err
						}
						if i%3 == 0 {
							return errors.New("rolled back")
						}
						return nil
					})
					continue
				}
				_ = db.UpdateRecord(wctx, r, "")
			}
		}
		wg.Add(4)
		go writer(db1, 1)
		go writer(db1, 2)
		go writer(db2, 3)
		go writer(db2, 4)

		type seen struct {
			ref  store.RecordRef
			need int64 // the last event of the record in the step
			at   int64 // the update time of the record answered
		}
		var obs []seen
		var seq int64
		deadline := time.Now().Add(1500 * time.Millisecond)
		for time.Now().Before(deadline) {
			evs, err := db1.EventsSince(ctx, seq, 256)
			if err != nil {
				t.Fatal(err)
			}
			last := map[store.RecordRef]int64{}
			var refs []store.RecordRef
			for _, ev := range evs {
				r := refOf(ev.Kind, ev.DomainMoid, ev.ID)
				if _, ok := last[r]; !ok {
					refs = append(refs, r)
				}
				last[r] = ev.Seq
				seq = ev.Seq
			}
			got, err := db1.GetRecords(ctx, refs)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range refs {
				rec, ok := got[r]
				if !ok {
					t.Fatalf("%v missing", r)
				}
				obs = append(obs, seen{ref: r, need: last[r], at: rec.UpdatedAt.UnixNano()})
			}
		}
		close(stop)
		wg.Wait()
		evs, err := db1.EventsSince(ctx, 0, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		committed := map[int64]int64{} // update time -> event
		for _, ev := range evs {
			committed[ev.At.UnixNano()] = ev.Seq
		}
		for _, o := range obs {
			s, ok := committed[o.at]
			switch {
			case !ok:
				t.Fatalf("%v answered with a write that never committed (update time %d)", o.ref, o.at)
			case s < o.need:
				t.Fatalf("%v answered with the write of event %d, older than event %d of the step", o.ref, s, o.need)
			}
		}
		h, m := db1.own.hits.Load(), db1.own.misses.Load()
		t.Logf("%d records checked over %d events; %d from memory, %d read", len(obs), len(evs), h, m)
		if h == 0 {
			t.Error("no record came from memory")
		}
	})
}

// The entries alone: pending ones are not answered, a newer event drops
// them even before they know their number, a replaced entry's end leaves
// its successor alone, and the bounds hold, the oldest going first.
func TestOwnWritesEntries(t *testing.T) {
	var w ownWrites
	rec := func(id string) store.Record { return store.Record{Kind: "conf", ID: id, DomainMoid: "d"} }
	ask := func(id string) bool {
		out := map[store.RecordRef]store.Record{}
		w.lookup([]store.RecordRef{refOf("conf", "d", id)}, out)
		return len(out) == 1
	}
	ev := func(id string, seq int64) store.Event {
		return store.Event{Kind: "conf", ID: id, DomainMoid: "d", Seq: seq}
	}

	e := w.enter(rec("a"), "{}", 10)
	if ask("a") {
		t.Error("a pending entry was answered")
	}
	w.saw([]store.Event{ev("a", 10), ev("a", 9)}) // its own and an older one
	w.end([]*ownEntry{e}, true, nil)
	if !ask("a") {
		t.Error("a committed entry was not answered")
	}
	w.saw([]store.Event{ev("a", 11)})
	if ask("a") {
		t.Error("an entry was answered after a newer event")
	}

	e = w.enter(rec("b"), "{}", 20)
	w.end([]*ownEntry{e}, false, nil)
	if ask("b") || len(w.m) != 0 {
		t.Error("a failed write was kept")
	}

	// Without a number yet (PostgreSQL's group commit).
	e1 := w.enter(rec("c"), "{}", 0)
	w.saw([]store.Event{ev("c", 31)})
	w.end([]*ownEntry{e1}, true, []int64{30})
	if ask("c") {
		t.Error("an entry was answered after an event newer than the number it got")
	}
	e1 = w.enter(rec("c"), "{}", 0)
	w.saw([]store.Event{ev("c", 29)})
	w.end([]*ownEntry{e1}, true, []int64{32})
	if !ask("c") {
		t.Error("an entry was dropped for an older event")
	}

	// Replaced before its end: the successor stays pending.
	e1 = w.enter(rec("d"), "{}", 40)
	e2 := w.enter(rec("d"), "{}", 41)
	w.end([]*ownEntry{e1}, true, nil)
	if ask("d") {
		t.Error("a replaced entry's commit made its successor answered")
	}
	w.end([]*ownEntry{e2}, true, nil)
	if !ask("d") {
		t.Error("the successor's commit was lost")
	}

	// Bounds: entries, then bytes.
	w = ownWrites{}
	var es []*ownEntry
	for i := 0; i < ownWritesMax+10; i++ {
		es = append(es, w.enter(rec(fmt.Sprint(i)), "{}", int64(i+1)))
	}
	w.end(es, true, nil)
	if len(w.m) != ownWritesMax || w.order.Len() != ownWritesMax || ask("9") || !ask("10") || !ask(fmt.Sprint(ownWritesMax+9)) {
		t.Errorf("%d entries kept (%d in order), want the newest %d", len(w.m), w.order.Len(), ownWritesMax)
	}
	big := strings.Repeat("x", ownWritesBytes/4)
	for i := 0; i < 5; i++ {
		w.end([]*ownEntry{w.enter(rec(fmt.Sprint("big", i)), big, int64(100000+i))}, true, nil)
	}
	if w.bytes > ownWritesBytes || ask("big0") || !ask("big4") || len(w.m) > 4 {
		t.Errorf("%d bytes in %d entries, want at most %d (the newest)", w.bytes, len(w.m), ownWritesBytes)
	}
}
