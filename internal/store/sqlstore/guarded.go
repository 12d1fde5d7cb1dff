package sqlstore

import (
	"context"
	"database/sql"

	"github.com/confer-platform/confer/internal/store"
)

// store.GuardedWriter: a record with another's state in one read, and a
// swap that holds only while another record is in a state.

// Both find their rows by the primary key (kind, id) and compare the
// domain with IS NOT DISTINCT FROM, which no index serves (byKeyInDomain,
// records_write.go): PostgreSQL without statistics would otherwise read a
// domain's records through records_domain.
const recordAndState = "SELECT " + recordCols + ", (SELECT g.state FROM records g WHERE g.kind = ? AND g.id = ? AND g.domain_moid IS NOT DISTINCT FROM ?)" +
	" FROM records WHERE kind = ? AND id = ? AND domain_moid IS NOT DISTINCT FROM ?"

// GetRecordAndState reads a record and the state of (kind2, id2) of the
// same domain ("" when there is none) in one statement.
func (db *DB) GetRecordAndState(ctx context.Context, kind, domain, id, kind2, id2 string) (store.Record, string, error) {
	var state sql.NullString
	r, err := scanRecord(withExtra{db.readRow(ctx, recordAndState, kind2, id2, domain, kind, id, domain), &state})
	return r, state.String, notFound(err)
}

// withExtra scans a record's columns and one more.
type withExtra struct {
	s     scanner
	extra any
}

func (w withExtra) Scan(dest ...any) error { return w.s.Scan(append(dest, w.extra)...) }

// swapGuard is the condition of SwapRecordWhile. On PostgreSQL the
// guarding row is locked (FOR SHARE) until the write's batch commits, so
// a change of its state waits for the write, and a write that waited for
// such a change sees the changed row (READ COMMITTED re-checks locked
// rows); on SQLite every write runs alone on the single writer.
func (db *DB) swapGuard() string {
	g := " AND version = ? AND created_at = ? AND EXISTS (SELECT 1 FROM records g WHERE g.kind = ? AND g.id = ? AND g.domain_moid IS NOT DISTINCT FROM ? AND g.state = ?"
	if db.d.name == postgres.name {
		return g + " FOR SHARE)"
	}
	return g + ")"
}

// SwapRecordWhile writes r over the version it was read at, of the
// record created when r was (a record deleted and created again under
// its key counts its versions again: a conference number reused), while
// the record (kind, id) of its domain is in state: store.ErrConflict
// otherwise, store.ErrNotFound when r's record is gone.
func (db *DB) SwapRecordWhile(ctx context.Context, r store.Record, kind, id, state string) error {
	err := db.writeUpdate(ctx, r, db.swapGuard(), []any{r.Version, nanos(r.CreatedAt), kind, id, r.DomainMoid, state})
	if err == store.ErrNotFound {
		if _, gerr := db.GetRecord(ctx, r.Kind, r.DomainMoid, r.ID); gerr == nil {
			return store.ErrConflict
		}
	}
	return err
}
