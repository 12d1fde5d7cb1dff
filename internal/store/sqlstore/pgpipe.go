package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/confer-platform/confer/internal/store"
)

// A batch of the PostgreSQL group commit (pgbatch.go) in two round trips
// whatever its size (issue 23, docs/benchmarks.md "API performance, issue
// 23"): statement after statement, a batch of N writes was N+4 round
// trips, each waking a backend on the same two cores. On the pool's pgx
// connection, one pipeline sends BEGIN and every job's statement; a second
// sends the counter's bump with the events' rows, as one statement, and
// COMMIT. The counter's row is thus still locked last and only for the
// second round trip, so that one batcher's statements overlap the other's
// commit.

// appendBatchEvents numbers and stores a batch's events: $1 of them, in
// the order of the arrays, after the counter's value. Its text does not
// depend on the count, so each connection prepares it once. The number is
// a scalar subquery: without the counter's row it is NULL and the insert
// fails (events.seq is the key), where a join would commit writes without
// their events. Its one row is the counter's new value, the last event's
// number (the i-th of n is last-n+i, batchSeqs), and the count of events
// stored.
const appendBatchEvents = `WITH c AS (UPDATE counters SET value = value + $1::bigint WHERE name = $2 RETURNING value),
e AS (INSERT INTO events (seq, kind, id, domain_moid, owner_moid, op, state, at)
SELECT (SELECT value FROM c) - $1::bigint + v.ord, v.kind, v.id, v.domain_moid, v.owner_moid, v.op, v.state, v.at
FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[])
	WITH ORDINALITY AS v(kind, id, domain_moid, owner_moid, op, state, at, ord) RETURNING 1)
SELECT (SELECT value FROM c), (SELECT count(*) FROM e)`

// batchSeqs are the numbers of n events that appendBatchEvents stored,
// in order, the last being last.
func batchSeqs(last int64, n int) []int64 {
	seqs := make([]int64, n)
	for i := range seqs {
		seqs[i] = last - int64(n-1-i)
	}
	return seqs
}

// appendEventsArgs are the arguments of appendBatchEvents for evs (at
// least one).
func appendEventsArgs(evs []store.Event) []any {
	n := len(evs)
	cols := make([][]string, 6)
	for i := range cols {
		cols[i] = make([]string, n)
	}
	at := make([]int64, n)
	for i, e := range evs {
		cols[0][i], cols[1][i], cols[2][i], cols[3][i], cols[4][i], cols[5][i] = e.Kind, e.ID, e.DomainMoid, e.OwnerMoid, e.Op, e.State
		at[i] = nanos(e.At)
	}
	return []any{int64(n), eventCounter, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], at}
}

// try runs jobs in one transaction: bad is the index of the job whose
// statement failed, -1 when the failure is the batch's.
func (b *pgBatcher) try(jobs []*pgJob) (bad int, err error) {
	ctx := context.Background()
	c, err := b.db.wdb.Conn(ctx)
	if err != nil {
		return -1, err
	}
	defer c.Close()
	var evs []store.Event
	var own []*ownEntry
	var last int64
	err = c.Raw(func(dc any) error {
		conn := dc.(*stdlib.Conn).Conn()
		defer endTx(ctx, conn)
		if bad, evs, err = runJobs(ctx, conn, jobs); err != nil {
			return err
		}
		// The written records are entered before the COMMIT is sent,
		// without their numbers, which come with its answer
		// (ownwrites.go).
		for _, j := range jobs {
			if j.wrote {
				own = append(own, b.db.own.enter(j.stored, j.data, 0))
			}
		}
		last, err = commitEvents(ctx, conn, evs)
		return err
	})
	if err != nil {
		b.db.own.end(own, false, nil)
		return bad, err
	}
	b.db.own.committed()
	b.db.own.end(own, true, batchSeqs(last, len(evs))) // one event per record written, in order
	if len(evs) > 0 {
		b.db.AnnounceEvents()
	}
	return -1, nil
}

// runJobs is the first round trip: BEGIN and the jobs' statements, each
// returning its event's fields or no row (the job's miss). In a pipeline
// the first error aborts the transaction and the server skips the rest,
// so the first failing statement is the one to blame.
func runJobs(ctx context.Context, conn *pgx.Conn, jobs []*pgJob) (bad int, evs []store.Event, err error) {
	pb := &pgx.Batch{}
	pb.Queue("BEGIN")
	for _, j := range jobs {
		j.err, j.wrote = nil, false
		pb.Queue(j.query, j.args...)
	}
	br := conn.SendBatch(ctx, pb)
	bad = -1
	if _, err = br.Exec(); err == nil {
		for i, j := range jobs {
			e := store.Event{Op: j.op}
			s := &j.stored
			var at, due, created int64
			err = br.QueryRow().Scan(&e.Kind, &e.ID, &e.DomainMoid, &e.OwnerMoid, &e.State, &at, &due, &created, &s.Version)
			if errors.Is(err, pgx.ErrNoRows) {
				j.err, err = j.miss, nil
				continue
			}
			if err != nil {
				// The server's answer to this statement (a deadlock is
				// the batch's: it runs again); anything else, such as a
				// lost connection, is the batch's too.
				var pg *pgconn.PgError
				if errors.As(err, &pg) && !isDeadlock(err) {
					bad = i
				}
				break
			}
			e.At = fromNanos(at)
			evs = append(evs, e)
			j.wrote = true
			s.Kind, s.ID, s.DomainMoid, s.OwnerMoid, s.State = e.Kind, e.ID, e.DomainMoid, e.OwnerMoid, e.State
			s.DueAt, s.CreatedAt, s.UpdatedAt = fromNanos(due), fromNanos(created), e.At
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err, bad = cerr, -1
	}
	return bad, evs, err
}

// commitEvents is the second round trip: the events, then COMMIT. last
// is the last event's number (appendBatchEvents).
func commitEvents(ctx context.Context, conn *pgx.Conn, evs []store.Event) (last int64, err error) {
	pb := &pgx.Batch{}
	if len(evs) > 0 {
		pb.Queue(appendBatchEvents, appendEventsArgs(evs)...)
	}
	pb.Queue("COMMIT")
	br := conn.SendBatch(ctx, pb)
	err = func() error {
		if len(evs) > 0 {
			var n int64
			if err := br.QueryRow().Scan(&last, &n); err != nil {
				return err
			}
			if n != int64(len(evs)) { // cannot happen: a guard
				return fmt.Errorf("sqlstore: %d events stored of %d", n, len(evs))
			}
		}
		tag, err := br.Exec()
		if err == nil && tag.String() != "COMMIT" { // "ROLLBACK": the transaction had failed
			err = fmt.Errorf("sqlstore: batch not committed (%s)", tag)
		}
		return err
	}()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	return last, err
}

// endTx leaves the connection outside any transaction before the pool
// takes it back: after a failure it rolls back, and a connection that
// cannot is closed, which the pool then discards.
func endTx(ctx context.Context, conn *pgx.Conn) {
	if conn.IsClosed() || conn.PgConn().TxStatus() == 'I' {
		return
	}
	if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil || conn.PgConn().TxStatus() != 'I' {
		_ = conn.Close(ctx)
	}
}
