package engine

import (
	"context"
	"errors"
	"sync"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Memo keeps a value derived from each conference's document by record
// version, so that a periodic scan of the running conferences (the
// capacity count, the sweeps of the server's tick) reads and decodes only
// the conferences written since its last pass: the others cost one row of
// a query without documents (store.KeyLister), which sqlstore answers from
// its last listing while no conference event has been committed since, on
// any node, so the scans of one tick share a listing and an idle tick
// lists nothing (sqlstore/keys.go). Any write, on any node, bumps the
// version, so a kept value is never stale. The zero Memo is ready to use.
type Memo[T any] struct {
	mu sync.Mutex
	m  map[string]memoEntry[T]
}

type memoEntry[T any] struct {
	version int64
	val     T
}

// Memoized is one conference of a Scan with its derived value.
type Memoized[T any] struct {
	Key store.RecordKey
	Val T
}

// Scan derives f's value for every conference in state, in every domain:
// kept values for unchanged versions, f over the read and decoded
// conference for the others. A conference that ends meanwhile is left
// out. Entries of conferences no longer in state are forgotten.
func Scan[T any](ctx context.Context, st store.Store, memo *Memo[T], state string, f func(Conference) T) ([]Memoized[T], error) {
	kl, ok := st.(store.KeyLister)
	if !ok {
		recs, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{state}})
		if err != nil {
			return nil, err
		}
		out := make([]Memoized[T], 0, len(recs))
		for _, rec := range recs {
			c, err := decode(rec)
			if err != nil {
				return nil, err
			}
			out = append(out, Memoized[T]{store.RecordKey{ID: rec.ID, DomainMoid: rec.DomainMoid, Version: rec.Version}, f(c)})
		}
		return out, nil
	}
	keys, err := kl.RecordKeys(ctx, record.KindConf, state)
	if err != nil {
		return nil, err
	}
	out := make([]Memoized[T], 0, len(keys))
	for _, k := range keys {
		memo.mu.Lock()
		e, ok := memo.m[k.ID]
		memo.mu.Unlock()
		if ok && e.version == k.Version {
			out = append(out, Memoized[T]{k, e.val})
			continue
		}
		rec, err := st.GetRecord(ctx, record.KindConf, k.DomainMoid, k.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if rec.State != state {
			continue
		}
		c, err := decode(rec)
		if err != nil {
			return nil, err
		}
		v := f(c)
		k.Version = rec.Version
		memo.mu.Lock()
		if memo.m == nil {
			memo.m = map[string]memoEntry[T]{}
		}
		memo.m[k.ID] = memoEntry[T]{rec.Version, v}
		memo.mu.Unlock()
		out = append(out, Memoized[T]{k, v})
	}
	// Every entry was kept or made for a conference of out, so more
	// entries than that means some conference left the state. (A
	// concurrent Scan may have added entries meanwhile: they are kept if
	// their conference is in out, and made again otherwise.)
	memo.mu.Lock()
	if len(memo.m) > len(out) {
		seen := make(map[string]bool, len(out))
		for _, c := range out {
			seen[c.Key.ID] = true
		}
		for id := range memo.m {
			if !seen[id] {
				delete(memo.m, id)
			}
		}
	}
	memo.mu.Unlock()
	return out, nil
}
