package sqlstore

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/confer-platform/confer/internal/store"
)

// This handle's own record writes, kept for GetRecords (store.BatchReader):
// push's tailer reads the records of a step of the event log right after
// their events, and on one node nearly all of them are records this
// handle has just written. Such a record is answered from memory when
//
//   - its write has committed: an entry is entered inside the write's
//     transaction, before COMMIT, and marked committed only after COMMIT
//     succeeded; a failed or rolled back write removes it;
//   - no event of the record newer than the write's own has been returned
//     by EventsSince of this handle: EventsSince drops such entries before
//     it returns.
//
// So the record answered is at least as new as every event of it that the
// caller has read through EventsSince (the tailer's guarantee, push
// stepread.go), and never uncommitted. Entering before COMMIT closes the
// race of a later write (another node's) whose event EventsSince returns
// before the entry exists: events are numbered in commit order (events.go),
// so an event newer than the write can be read only after the write
// committed, when its entry is already there to be dropped. In
// PostgreSQL's group commit the write learns its number only with the
// COMMIT's answer (pgpipe.go): its entry waits without a number, keeping
// the newest event of the record seen meanwhile, and is dropped when that
// is newer than the number it gets.
//
// The answer may be older than a database read's: another node's write
// whose event this handle has not read yet is not seen (the tailer reads
// it, and then the record, in a later step). Entries are bounded
// (ownWritesMax, ownWritesBytes), the oldest evicted first.

const (
	ownWritesMax   = 4096     // entries
	ownWritesBytes = 16 << 20 // of documents
)

// ownKey is a record's primary key; the domain is compared on reads.
type ownKey struct{ kind, id string }

type ownEntry struct {
	key       ownKey
	rec       store.Record // as stored, Data aside
	data      string       // the document as stored
	seq       int64        // the write's event; 0 until known (PostgreSQL's group commit)
	seen      int64        // the newest event of the record that EventsSince returned while entered
	committed bool
	el        *list.Element
}

// stale tells whether an event newer than the entry's write was seen.
func (e *ownEntry) stale() bool { return e.seq != 0 && e.seen > e.seq }

type ownWrites struct {
	mu    sync.Mutex
	m     map[ownKey]*ownEntry
	order list.List // oldest first
	bytes int

	hits, misses atomic.Int64 // GetRecords' references answered from memory, and the others

	afterCommit func() // tests: runs after each commit of events, before its entries are settled
}

// committed is called after each commit of events, before the entries of
// its writes are settled (tests race it: afterCommit).
func (w *ownWrites) committed() {
	if w.afterCommit != nil {
		w.afterCommit()
	}
}

// enter adds the record written by a transaction that has not committed
// yet (seq 0: not known yet) and returns its entry for commit or discard.
// rec is as stored (storedRecord); data is its document.
func (w *ownWrites) enter(rec store.Record, data string, seq int64) *ownEntry {
	rec.Data = nil
	e := &ownEntry{key: ownKey{rec.Kind, rec.ID}, rec: rec, data: data, seq: seq}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[ownKey]*ownEntry{}
	}
	if old := w.m[e.key]; old != nil {
		w.remove(old)
	}
	w.m[e.key] = e
	e.el = w.order.PushBack(e)
	w.bytes += len(data)
	for w.order.Len() > ownWritesMax || w.bytes > ownWritesBytes {
		w.remove(w.order.Front().Value.(*ownEntry))
	}
	return e
}

// remove takes e out; w.mu is held and e is entered.
func (w *ownWrites) remove(e *ownEntry) {
	delete(w.m, e.key)
	w.order.Remove(e.el)
	w.bytes -= len(e.data)
}

// current tells whether e is still entered; w.mu is held.
func (w *ownWrites) current(e *ownEntry) bool { return e != nil && w.m[e.key] == e }

// end settles the entries of one transaction: committed (seqs gives the
// numbers of those entered without one, in order) or failed.
func (w *ownWrites) end(es []*ownEntry, committed bool, seqs []int64) {
	if len(es) == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, e := range es {
		if !w.current(e) {
			continue // replaced, dropped or evicted meanwhile
		}
		if !committed {
			w.remove(e)
			continue
		}
		if seqs != nil {
			e.seq = seqs[i]
		}
		if e.seq == 0 || e.stale() {
			w.remove(e)
			continue
		}
		e.committed = true
	}
}

// forget removes the entry of a record (deleted).
func (w *ownWrites) forget(kind, id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.m[ownKey{kind, id}]; e != nil {
		w.remove(e)
	}
}

// saw is called by EventsSince with the events it returns, before it
// returns them: the entries of records with a newer event go.
func (w *ownWrites) saw(evs []store.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.m) == 0 {
		return
	}
	for _, ev := range evs {
		e := w.m[ownKey{ev.Kind, ev.ID}]
		if e == nil || ev.Seq <= e.seen {
			continue
		}
		e.seen = ev.Seq
		if e.stale() {
			w.remove(e)
		}
	}
}

// lookup puts into out the records of refs that it can answer and
// returns the others (refs distinct).
func (w *ownWrites) lookup(refs []store.RecordRef, out map[store.RecordRef]store.Record) []store.RecordRef {
	rest := refs[:0:0]
	w.mu.Lock()
	for _, r := range refs {
		e := w.m[ownKey{r.Kind, r.ID}]
		if e == nil || !e.committed || e.stale() || e.rec.DomainMoid != r.DomainMoid {
			rest = append(rest, r)
			continue
		}
		rec := e.rec
		rec.Data = []byte(e.data) // the caller's own copy, as a read's
		out[r] = rec
	}
	w.mu.Unlock()
	w.hits.Add(int64(len(refs) - len(rest)))
	w.misses.Add(int64(len(rest)))
	return rest
}

// ownWrite collects the entries of one write's transaction.
type ownWrite []*ownEntry

// add enters rec, as stored, with its document and event number (0 when
// not known yet).
func (ow *ownWrite) add(db *DB, rec store.Record, data string, seq int64) {
	*ow = append(*ow, db.own.enter(rec, data, seq))
}

// end settles the entries after the transaction: err is its outcome as
// the caller hears it (nil only after COMMIT succeeded). ow may be nil.
func (ow *ownWrite) end(db *DB, err error) {
	if ow != nil {
		db.own.end(*ow, err == nil, nil)
	}
}

// storedRecord is r as a read would return it: the times through their
// stored nanoseconds, Data left to the caller (ownEntry.data).
func storedRecord(r store.Record) store.Record {
	r.DueAt, r.CreatedAt, r.UpdatedAt = fromNanos(nanos(r.DueAt)), fromNanos(nanos(r.CreatedAt)), fromNanos(nanos(r.UpdatedAt))
	r.Data = nil
	return r
}
