package store

import "context"

// RecordRef names a record: its kind, user domain and id.
type RecordRef struct {
	Kind       string
	DomainMoid string
	ID         string
}

// BatchReader reads many records in few statements (sqlstore implements
// it): push's tailer reads the records of a step of the event log at
// once rather than one round trip per event (docs/benchmarks.md "API
// performance, issue 23").
type BatchReader interface {
	// GetRecords returns the records of refs that exist, by their
	// reference; a record that does not exist (or is of another domain)
	// is absent from the answer. Each is read as GetRecord reads it, or,
	// when the store itself wrote it, may come from memory: committed,
	// and at least as new as every event of it that the store's
	// EventLog.EventsSince has returned before the call (sqlstore
	// ownwrites.go), but possibly older than a read's.
	GetRecords(ctx context.Context, refs []RecordRef) (map[RecordRef]Record, error)
}
