package push

import (
	"context"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// The records a step of the event log needs are read in one statement
// (store.BatchReader) rather than one round trip per event, on the
// tailer's single goroutine (docs/benchmarks.md "API performance, issue
// 23"); sqlstore answers those this node wrote itself from memory
// (sqlstore/ownwrites.go), under the same guarantee. A handler read its record when it handled the event, a version
// at least as new as the event; read after the step's events, each
// record is still at least as new as every event of it. A conference
// changed twice in a step shows its newest document to both events, the
// second publishing no difference (as when today's read of the first
// already saw the second change).

// stepReads holds a step's records: those of asked that exist.
type stepReads struct {
	asked map[store.RecordRef]bool
	recs  map[store.RecordRef]store.Record
}

// stepRefs lists the records that the handlers of evs read first: a
// running conference's (not of its deletion or end), a terminal's and
// its conference's (cascade.go's superiors, then terminal). Further
// superiors are read one by one.
func stepRefs(evs []store.Event) []store.RecordRef {
	var refs []store.RecordRef
	for _, ev := range evs {
		switch ev.Kind {
		case record.KindConf:
			if ev.Op != store.OpDelete && ev.State == engine.StateRunning {
				refs = append(refs, store.RecordRef{Kind: record.KindConf, DomainMoid: ev.DomainMoid, ID: ev.ID})
			}
		case record.KindMT:
			confID, _, ok := strings.Cut(ev.ID, "/")
			if !ok {
				continue
			}
			refs = append(refs, store.RecordRef{Kind: record.KindConf, DomainMoid: ev.DomainMoid, ID: confID})
			if ev.Op != store.OpDelete {
				refs = append(refs, store.RecordRef{Kind: record.KindMT, DomainMoid: ev.DomainMoid, ID: ev.ID})
			}
		}
	}
	return refs
}

// readStep reads the records that the handlers of evs need, when the
// store reads many at once and they are more than one; t.step forgets
// them after the step. On an error each handler reads its own, as
// without the batch.
func (t *tailer) readStep(ctx context.Context, evs []store.Event) {
	br, ok := t.s.cfg.Store.(store.BatchReader)
	if !ok {
		return
	}
	refs := stepRefs(evs)
	if len(refs) < 2 {
		return
	}
	recs, err := br.GetRecords(ctx, refs)
	if err != nil {
		if ctx.Err() == nil {
			t.s.log.Warn("push: reading a step's records", "err", err)
		}
		return
	}
	asked := make(map[store.RecordRef]bool, len(refs))
	for _, r := range refs {
		asked[r] = true
	}
	t.reads = &stepReads{asked: asked, recs: recs}
}

// record reads a record for the event being handled: from the step's
// read when it asked for it (store.ErrNotFound when absent there), from
// the store otherwise.
func (t *tailer) record(ctx context.Context, kind, domain, id string) (store.Record, error) {
	if r := t.reads; r != nil {
		ref := store.RecordRef{Kind: kind, DomainMoid: domain, ID: id}
		if r.asked[ref] {
			rec, ok := r.recs[ref]
			if !ok {
				return store.Record{}, store.ErrNotFound
			}
			return rec, nil
		}
	}
	return t.s.cfg.Store.GetRecord(ctx, kind, domain, id)
}
