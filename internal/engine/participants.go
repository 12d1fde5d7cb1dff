package engine

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Participants that left (issue 38 item 8; docs/operations.md "Limits"):
// every call-in, WHIP or WHEP session is a terminal of its
// own (Joined), which stays listed offline after it leaves, as the
// platform lists terminals that hung up. Such records do not count toward
// max_join_mt, or a flood of calls would fill the conference, and a
// conference keeps at most offlineCap of them: the oldest go first.

// defaultOfflineCap bounds the records of participants that left a
// conference without max_join_mt.
const defaultOfflineCap = 64

// offlineCap is how many records of participants that left c keeps.
func offlineCap(c Conf) int {
	if c.MaxJoinMt > 0 {
		return c.MaxJoinMt
	}
	return defaultOfflineCap
}

// pruneTo is how many records of participants that left a prune keeps:
// an eighth below the cap (at least one).
func pruneTo(limit int) int { return max(0, limit-max(1, limit/8)) }

// leftParticipants returns c's records of participants that left, oldest
// update first.
func leftParticipants(list func(store.RecordQuery) ([]store.Record, error), c Conf) ([]store.Record, error) {
	idle, err := list(store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID, States: []string{StateIdle}})
	if err != nil {
		return nil, err
	}
	out := idle[:0]
	for _, r := range idle {
		p, err := participantOf(r.Data)
		if err != nil {
			return nil, err
		}
		if p != "" {
			out = append(out, r)
		}
	}
	return out, nil
}

// participantOf reads a terminal record's DocParticipant alone, without
// building the document: a leave reads every idle record of its
// conference (up to max_join_mt of them), and decoding each whole
// document was the largest part of a SIP call's tear-down.
func participantOf(data []byte) (string, error) {
	var f struct {
		P json.RawMessage `json:"_participant"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return "", err
	}
	var p string
	if len(f.P) > 0 && f.P[0] == '"' {
		if err := json.Unmarshal(f.P, &p); err != nil {
			return "", err
		}
	}
	return p, nil
}

// countedTerminals is how many of c's terminals count toward
// max_join_mt: all but the participants that left.
func countedTerminals(tx store.Tx, c Conf) (int, error) {
	all, err := tx.CountRecords(store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID})
	if err != nil {
		return 0, err
	}
	gone, err := leftParticipants(tx.ListRecords, c)
	return all - len(gone), err
}

// pruneLeft deletes the oldest records of participants that left c
// beyond offlineCap, down to pruneTo of it. Another node pruning at once
// deletes the same ones.
//
// A leave counts c's idle records first (one statement, no record read):
// while they are within offlineCap so are the participants among them,
// and nothing is listed. Pruning below the cap leaves room for the next
// leaves, so a flood of call-ins (docs/benchmarks/sip.md) reads and
// decodes the idle records once every cap/8 leaves instead of on every
// one.
func (e *Engine) pruneLeft(ctx context.Context, c Conf) error {
	limit := offlineCap(c)
	idle, err := e.st.CountRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID, States: []string{StateIdle}})
	if err != nil || idle <= limit {
		return err
	}
	gone, err := leftParticipants(func(q store.RecordQuery) ([]store.Record, error) {
		recs, _, err := e.st.ListRecords(ctx, q)
		return recs, err
	}, c)
	if err != nil {
		return err
	}
	if len(gone) <= limit {
		return nil
	}
	for _, r := range gone[:len(gone)-pruneTo(limit)] {
		if err := e.st.DeleteRecord(ctx, record.KindMT, c.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}
