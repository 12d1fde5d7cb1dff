package store

import (
	"context"
	"time"
)

// Event is a committed change of a record, numbered in commit order.
type Event struct {
	Seq        int64
	Kind       string
	ID         string
	DomainMoid string
	OwnerMoid  string
	Op         string // "create", "update" or "delete"; "notify" for a notice (notice.go)
	State      string // the record's state after the change
	At         time.Time
	Data       []byte // a notice's fields (KindNotice, notice.go); nil for record changes
}

// Event operations.
const (
	OpCreate = "create"
	OpUpdate = "update"
	OpDelete = "delete"
)

// EventLog reads the events that record writes append in the same
// transaction (an outbox): what a subscriber learns has been committed,
// in order, on any node.
type EventLog interface {
	// EventsSince returns up to limit events after seq, oldest first.
	EventsSince(ctx context.Context, seq int64, limit int) ([]Event, error)
	// LastEventSeq returns the newest event's number, 0 when none.
	LastEventSeq(ctx context.Context) (int64, error)
	// PruneEvents deletes events older than before.
	PruneEvents(ctx context.Context, before time.Time) (int, error)
}
