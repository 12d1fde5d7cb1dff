package sqlstore

import (
	"context"
	"database/sql"
	"math/bits"
	"strings"

	"github.com/confer-platform/confer/internal/store"
)

// store.BatchReader: many records in one statement, a join of the
// references (a VALUES list) with the primary key. Both engines search
// the key once per reference this way; SQLite scans the whole table for
// the row-value form (kind, id, domain_moid) IN (VALUES ...). PostgreSQL
// looks each reference up in a LATERAL subquery that OFFSET 0 keeps from
// being merged into a join: without statistics (autovacuum off, or a
// table grown since it was analysed) it chose a hash join, reading every
// record for each batch of terminals (docs/benchmarks.md "Fifth pass").

// manyPerStatement bounds the references of one statement (three
// parameters each, within SQLite's oldest limit of 999).
const manyPerStatement = 256 // a power of two

// GetRecords reads the records of refs that exist; those this handle has
// written come from memory when they can (ownwrites.go).
func (db *DB) GetRecords(ctx context.Context, refs []store.RecordRef) (map[store.RecordRef]store.Record, error) {
	out := make(map[store.RecordRef]store.Record, len(refs))
	seen := make(map[store.RecordRef]bool, len(refs))
	uniq := make([]store.RecordRef, 0, len(refs))
	for _, r := range refs {
		if !seen[r] {
			seen[r] = true
			uniq = append(uniq, r)
		}
	}
	// This handle's own committed writes come from memory (ownwrites.go).
	if uniq = db.own.lookup(uniq, out); len(uniq) == 0 {
		return out, nil
	}
	query := func(q string, args ...any) (*sql.Rows, error) { return db.readQuery(ctx, q, args...) }
	if err := getMany(query, db.d.dollar, uniq, out); err != nil {
		return nil, err
	}
	return out, nil
}

// getMany reads refs into out, manyPerStatement a statement, through
// query (the read pool, or a transaction: atomicTx.GetRecords); pg tells
// PostgreSQL's statements.
func getMany(query func(q string, args ...any) (*sql.Rows, error), pg bool, refs []store.RecordRef, out map[store.RecordRef]store.Record) error {
	qs := manyQueries
	if pg {
		qs = manyQueriesPG
	}
	for len(refs) > 0 {
		n := min(len(refs), manyPerStatement)
		if err := getManyOnce(query, qs, refs[:n], out); err != nil {
			return err
		}
		refs = refs[n:]
	}
	return nil
}

// getManyOnce reads refs into out in one statement. The list is padded to
// a power of two with its last reference, so that few statement texts
// exist (each is prepared once: stmts.go).
func getManyOnce(query func(q string, args ...any) (*sql.Rows, error), qs []string, refs []store.RecordRef, out map[store.RecordRef]store.Record) error {
	size := 1
	for size < len(refs) {
		size *= 2
	}
	args := make([]any, 0, 3*size)
	for i := 0; i < size; i++ {
		r := refs[min(i, len(refs)-1)]
		args = append(args, r.Kind, r.ID, r.DomainMoid)
	}
	rows, err := query(qs[bits.Len(uint(size))-1], args...)
	if err != nil {
		return err
	}
	recs, err := scanRecords(rows)
	if err != nil {
		return err
	}
	for _, r := range recs {
		out[store.RecordRef{Kind: r.Kind, DomainMoid: r.DomainMoid, ID: r.ID}] = r
	}
	return nil
}

// manyQueries[i] is the statement of 1<<i references; manyQueriesPG[i]
// PostgreSQL's.
var manyQueries, manyQueriesPG = manyStatements(false), manyStatements(true)

func manyStatements(pg bool) []string {
	var qs []string
	for n := 1; n <= manyPerStatement; n *= 2 {
		qs = append(qs, manyQuery(n, pg))
	}
	return qs
}

// manyQuery is the statement of n references. The domain is compared by
// IS NOT DISTINCT FROM, which no index serves, so that PostgreSQL finds
// the row by the primary key (byKeyInDomain).
func manyQuery(n int, pg bool) string {
	var b strings.Builder
	b.WriteString("SELECT r." + strings.ReplaceAll(recordCols, ", ", ", r.") + " FROM (VALUES ")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(?, ?, ?)")
	}
	if pg {
		b.WriteString(") AS k CROSS JOIN LATERAL (SELECT " + recordCols + " FROM records" +
			" WHERE kind = k.column1 AND id = k.column2 AND domain_moid IS NOT DISTINCT FROM k.column3 OFFSET 0) AS r")
		return b.String()
	}
	b.WriteString(") AS k JOIN records r ON r.kind = k.column1 AND r.id = k.column2 AND r.domain_moid IS NOT DISTINCT FROM k.column3")
	return b.String()
}
