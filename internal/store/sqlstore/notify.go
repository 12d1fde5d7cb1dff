package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/confer-platform/confer/internal/store"
)

// AppendNotice appends a notice to the event log in a transaction of its
// own (store.Notice: a notification that comes with no record change).
func (db *DB) AppendNotice(ctx context.Context, n store.Notice) error {
	if err := checkNotice(n); err != nil {
		return err
	}
	return db.writeEvents(ctx, func(ctx context.Context, tx *sql.Tx) error { return db.insertEvent(ctx, tx, n.Event()) })
}

// appendNotices appends the notices that ctx carries for a record write
// (store.WithNotices) inside the write's transaction.
func (db *DB) appendNotices(ctx context.Context, tx *sql.Tx) error {
	for _, n := range store.TakeNotices(ctx) {
		if err := checkNotice(n); err != nil {
			return err
		}
		if err := db.insertEvent(ctx, tx, n.Event()); err != nil {
			return err
		}
	}
	return nil
}

func checkNotice(n store.Notice) error {
	if n.DomainMoid == "" || n.ConfID == "" || !strings.HasPrefix(n.Channel, "/") || len(n.Data) == 0 || n.Data[0] != '{' {
		return errors.New("store: a notice needs a domain, a conference, a channel under it and a JSON object")
	}
	return nil
}
