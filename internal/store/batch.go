package store

import (
	"context"
	"errors"
)

// BatchTx is a Tx that reads or writes several records in one statement:
// on PostgreSQL each statement is a round trip, and a batch of ten
// terminals was about seventy of them (docs/benchmarks.md "Batch
// additions on PostgreSQL"). Each method does what its one-record
// counterpart does for each element in order, with the same events in the
// same order, and fails as the first failing element would; after an
// error the caller returns, as after any Tx error. Use the functions
// below, which fall back to one record at a time.
type BatchTx interface {
	// NextNumbers returns n consecutive advances of the counter, as n
	// calls of NextNumber would.
	NextNumbers(counter string, n int, min, max int64) ([]int64, error)
	CreateRecords(rs []Record) error // ErrDuplicate
	SwapRecords(rs []Record) error   // ErrConflict, ErrNotFound
	// GetRecords returns the records of ids that exist, in no order.
	GetRecords(kind, domainMoid string, ids []string) ([]Record, error)
}

// NextNumbers is n calls of tx.NextNumber, in one statement when tx can.
func NextNumbers(tx Tx, counter string, n int, min, max int64) ([]int64, error) {
	if b, ok := tx.(BatchTx); ok {
		return b.NextNumbers(counter, n, min, max)
	}
	out := make([]int64, n)
	for i := range out {
		v, err := tx.NextNumber(counter, min, max)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// CreateRecords is tx.CreateRecord of each of rs in order.
func CreateRecords(tx Tx, rs []Record) error {
	if b, ok := tx.(BatchTx); ok {
		return b.CreateRecords(rs)
	}
	for _, r := range rs {
		if err := tx.CreateRecord(r); err != nil {
			return err
		}
	}
	return nil
}

// SwapRecords is tx.SwapRecord of each of rs in order.
func SwapRecords(tx Tx, rs []Record) error {
	if b, ok := tx.(BatchTx); ok {
		return b.SwapRecords(rs)
	}
	for _, r := range rs {
		if err := tx.SwapRecord(r); err != nil {
			return err
		}
	}
	return nil
}

// GetRecords returns the records of kind in domainMoid whose ids are
// among ids, those that exist, in no order.
func GetRecords(tx Tx, kind, domainMoid string, ids []string) ([]Record, error) {
	if b, ok := tx.(BatchTx); ok {
		return b.GetRecords(kind, domainMoid, ids)
	}
	var out []Record
	for _, id := range ids {
		r, err := tx.GetRecord(kind, domainMoid, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// DirectoryReader reads several directory entries in one statement (the
// simulated backend's lookups of a batch's callees).
type DirectoryReader interface {
	// DirectoryEntries returns the entries of accounts that exist, by account.
	DirectoryEntries(ctx context.Context, accounts []string) (map[string]DirectoryEntry, error)
}

// DirectoryEntries reads the entries of accounts from st, in one
// statement when st can; accounts without an entry are absent.
func DirectoryEntries(ctx context.Context, st Store, accounts []string) (map[string]DirectoryEntry, error) {
	if d, ok := st.(DirectoryReader); ok {
		return d.DirectoryEntries(ctx, accounts)
	}
	out := make(map[string]DirectoryEntry, len(accounts))
	for _, a := range accounts {
		e, err := st.DirectoryEntry(ctx, a)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[a] = e
	}
	return out, nil
}
