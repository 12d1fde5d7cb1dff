package sqlstore

import (
	"database/sql"
	"strings"

	"github.com/confer-platform/confer/internal/store"
)

// The batch methods of Atomic's transaction (store.BatchTx). On
// PostgreSQL every statement is a round trip to the server, so a batch of
// records is one statement (docs/benchmarks.md "Batch additions on
// PostgreSQL"); on SQLite statements cost no round trip and the batch is
// the one-record methods in turn, prepared, as before.

var _ store.BatchTx = (*atomicTx)(nil)

// batchRows bounds the rows of one statement: PostgreSQL takes at most
// 65,535 parameters (11 a record).
const batchRows = 1000

// nextNumbers advances the counter by n when the n numbers need no wrap
// (or the counter is new); NextNumbers otherwise goes one by one.
const nextNumbers = `INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE
	SET value = counters.value + ? WHERE counters.value + 1 >= ? AND counters.value + ? <= ? RETURNING value`

func (a *atomicTx) NextNumbers(counter string, n int, min, max int64) ([]int64, error) {
	out := make([]int64, 0, n)
	if a.db.ws == nil && n > 1 && min+int64(n)-1 <= max {
		var last int64
		err := a.db.txQueryRow(a.ctx, a.tx, nextNumbers, counter, min+int64(n)-1, n, min, n, max).Scan(&last)
		if err == nil {
			for i := n - 1; i >= 0; i-- {
				out = append(out, last-int64(i))
			}
			return out, nil
		}
		if err != sql.ErrNoRows { // no row: the counter wraps within the n; untouched
			return nil, err
		}
	}
	for i := 0; i < n; i++ {
		v, err := a.NextNumber(counter, min, max)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (a *atomicTx) CreateRecords(rs []store.Record) error {
	if a.db.ws != nil || len(rs) < 2 {
		for _, r := range rs {
			if err := a.CreateRecord(r); err != nil {
				return err
			}
		}
		return nil
	}
	for len(rs) > 0 {
		part := rs[:min(len(rs), batchRows)]
		rs = rs[len(part):]
		args := make([]any, 0, 11*len(part))
		for _, r := range part {
			args = append(args, recordArgs(r)...)
		}
		per := len(args) / len(part)
		q := insertRecord + strings.Repeat(", (?"+strings.Repeat(", ?", len(recordArgs(part[0]))-1)+")", len(part)-1)
		if _, err := a.tx.ExecContext(a.ctx, a.db.d.q(q), args...); err != nil {
			return insertErr(err)
		}
		for i, r := range part {
			a.event(storedRecord(r), args[per*i+recordArgsData].(string), store.OpCreate)
		}
	}
	return nil
}

// swapRecords updates each row of its VALUES over the version given; it
// returns the position and stored owner of each row it changed. Each row
// is found, at its version, by the primary key in a LATERAL subquery
// (OFFSET 0 keeps it one) and updated by its ctid, the only condition on
// the updated table: joined on its columns, PostgreSQL without
// statistics read every record for a hash join (records_many.go). A row
// changed by another transaction meanwhile has a new ctid and is not
// updated, as its version would not match either. The domain is compared
// with IS NOT DISTINCT FROM (the columns are NOT NULL: equality), which
// no index serves, so that PostgreSQL never reads records_domain, the
// index of (kind, domain_moid), for it (getByKey).
const (
	swapRecordsHead = "UPDATE records AS r SET data = v.data, state = v.state, due_at = v.due_at, updated_at = v.updated_at," +
		" start_at = COALESCE(v.start_at, r.created_at / 1000000000), version = r.version + 1 FROM (VALUES "
	swapRecordsRow  = "(?::int, ?::text, ?::text, ?::text, ?::bigint, ?::text, ?::text, ?::bigint, ?::bigint, ?::bigint)"
	swapRecordsTail = ") AS v(ord, kind, id, domain_moid, version, data, state, due_at, updated_at, start_at)" +
		" CROSS JOIN LATERAL (SELECT ctid AS found FROM records WHERE kind = v.kind AND id = v.id AND version = v.version" +
		" AND domain_moid IS NOT DISTINCT FROM v.domain_moid OFFSET 0) AS x WHERE r.ctid = x.found" +
		" RETURNING v.ord, r.owner_moid, r.created_at, r.version"
)

// swapRecordsArgs are the arguments of one swapRecordsRow; the document
// is the swapRecordsData-th.
const swapRecordsArgs, swapRecordsData = 10, 5

func (a *atomicTx) SwapRecords(rs []store.Record) error {
	if a.db.ws != nil || len(rs) < 2 || len(rs) > batchRows || !distinctKeys(rs) {
		// A record twice in one statement would be changed once: one by one,
		// the second swap meets the first's version.
		for _, r := range rs {
			if err := a.SwapRecord(r); err != nil {
				return err
			}
		}
		return nil
	}
	args := make([]any, 0, swapRecordsArgs*len(rs))
	for i, r := range rs {
		// The columns of updateRecord, start_at as it writes it (confstart.go).
		args = append(args, i, r.Kind, r.ID, r.DomainMoid, r.Version, string(r.Data), r.State, nanos(r.DueAt), nanos(r.UpdatedAt), docStart(r))
	}
	q := swapRecordsHead + swapRecordsRow + strings.Repeat(", "+swapRecordsRow, len(rs)-1) + swapRecordsTail
	rows, err := a.tx.QueryContext(a.ctx, a.db.d.q(q), args...)
	if err != nil {
		return err
	}
	// Each row changed, as stored (scanUpdated), by its position.
	stored := make([]*store.Record, len(rs))
	for rows.Next() {
		var i int
		var owner string
		var created, version int64
		if err := rows.Scan(&i, &owner, &created, &version); err != nil {
			rows.Close()
			return err
		}
		if i >= 0 && i < len(rs) {
			r := rs[i]
			r.OwnerMoid, r.CreatedAt, r.Version = owner, fromNanos(created), version
			r = storedRecord(r)
			stored[i] = &r
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, s := range stored {
		if s == nil { // the first record left unchanged fails the batch as it alone would
			return a.swapMiss(rs[i])
		}
	}
	for i, s := range stored {
		a.event(*s, args[swapRecordsArgs*i+swapRecordsData].(string), store.OpUpdate)
	}
	return nil
}

// swapMiss tells why r was not swapped: ErrConflict when it exists at
// another version, ErrNotFound when it does not exist.
func (a *atomicTx) swapMiss(r store.Record) error {
	got, err := scanRecord(a.db.txQueryRow(a.ctx, a.tx, getByKey, r.Kind, r.ID))
	if _, err = inDomain(got, err, r.DomainMoid); err == nil {
		return store.ErrConflict
	}
	return err
}

func distinctKeys(rs []store.Record) bool {
	seen := make(map[[2]string]bool, len(rs))
	for _, r := range rs {
		k := [2]string{r.Kind, r.ID}
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

func (a *atomicTx) GetRecords(kind, domain string, ids []string) ([]store.Record, error) {
	var out []store.Record
	if a.db.ws != nil || len(ids) < 2 {
		for _, id := range ids {
			r, err := a.GetRecord(kind, domain, id)
			if err == store.ErrNotFound {
				continue
			}
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	// The many-record read of store.BatchReader (records_many.go), in
	// this transaction.
	refs := make([]store.RecordRef, len(ids))
	for i, id := range ids {
		refs[i] = store.RecordRef{Kind: kind, DomainMoid: domain, ID: id}
	}
	got := make(map[store.RecordRef]store.Record, len(ids))
	query := func(q string, args ...any) (*sql.Rows, error) { return a.tx.QueryContext(a.ctx, a.db.d.q(q), args...) }
	if err := getMany(query, a.db.d.dollar, refs, got); err != nil {
		return nil, err
	}
	for _, r := range got {
		out = append(out, r)
	}
	return out, nil
}
