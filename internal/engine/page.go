package engine

import (
	"context"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Page returns one page of the conferences of a domain in a state (of one
// creating account when ownerMoid is set) in List's order, start time then
// number, as ids and versions, with the number of matches: start rows are
// skipped (a negative start is 0) and count returned (0 or less: all).
// When the store pages by start time (store.ConfPager, an index of
// sqlstore) only the page is read; otherwise every match is read, decoded
// and sorted. Callers keep decoded documents by version (vc's list
// cache) and read the missing ones with Get.
func (s *Conferences) Page(ctx context.Context, domainMoid, ownerMoid, state string, start, count int) ([]store.RecordKey, int, error) {
	start, count = max(start, 0), max(count, 0)
	if p, ok := s.st.(store.ConfPager); ok {
		return p.ConfsByStart(ctx, store.RecordQuery{Kind: record.KindConf, DomainMoid: domainMoid, OwnerMoid: ownerMoid,
			States: []string{state}, Start: start, Count: count})
	}
	confs, err := s.List(ctx, domainMoid, ownerMoid, state)
	if err != nil {
		return nil, 0, err
	}
	total := len(confs)
	confs = confs[min(start, total):]
	if count > 0 && count < len(confs) {
		confs = confs[:count]
	}
	out := make([]store.RecordKey, len(confs))
	for i, c := range confs {
		out[i] = store.RecordKey{ID: c.Rec.ID, Version: c.Rec.Version}
	}
	return out, total, nil
}
