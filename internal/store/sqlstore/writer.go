package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit on SQLite (issue 11, docs/benchmarks.md "Write
// throughput"). SQLite has one writer at a time and, with
// synchronous=FULL, every commit waits for an fsync of the WAL. The
// writer goroutine takes the writes that are queued at the moment, runs
// each inside its own SAVEPOINT of one transaction and commits them
// together: one fsync for the batch. A write whose closure fails is
// rolled back to its savepoint and gets its error; the others commit. No
// caller hears of success before the commit that holds its write has
// returned, so every acknowledged write is durable. On PostgreSQL, whose
// own WAL flush already groups concurrent commits, writes keep their own
// transactions.

// maxBatch bounds the writes of one group commit.
const maxBatch = 128

// errClosed answers writes after Close.
var errClosed = errors.New("sqlstore: store closed")

// writeJob is one queued write.
type writeJob struct {
	ctx  context.Context
	f    func(ctx context.Context, tx *sql.Tx) error
	own  *ownWrite // the records f enters, settled before the answer (ownwrites.go); may be nil
	done chan error
}

// writer batches the writes of an SQLite store.
type writer struct {
	db   *DB
	jobs chan *writeJob // unbuffered: a job is either taken or its sender still waits
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once

	waiting atomic.Int64 // callers of do that have not been taken yet
	stats   groupStats   // batches committed or failed, their jobs, the time (groupstats.go)
}

func startWriter(db *DB) *writer {
	w := &writer{db: db, jobs: make(chan *writeJob), quit: make(chan struct{})}
	w.wg.Add(1)
	go w.run()
	return w
}

// stop ends the writer after the batch it is running.
func (w *writer) stop() {
	w.once.Do(func() { close(w.quit) })
	w.wg.Wait()
}

// do queues f and waits for the commit (or failure) of its batch; the
// records that f enters into own are settled before the answer.
func (w *writer) do(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error, own *ownWrite) error {
	j := &writeJob{ctx: ctx, f: f, own: own, done: make(chan error, 1)}
	w.waiting.Add(1)
	select {
	case w.jobs <- j:
		w.waiting.Add(-1)
	case <-w.quit:
		w.waiting.Add(-1)
		return errClosed
	case <-ctx.Done():
		w.waiting.Add(-1)
		return ctx.Err()
	}
	return <-j.done // the writer answers every job it took
}

func (w *writer) run() {
	defer w.wg.Done()
	batch := make([]*writeJob, 0, maxBatch)
	for {
		select {
		case j := <-w.jobs:
			batch = append(batch[:0], j)
		case <-w.quit:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-w.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		w.commit(batch)
	}
}

// commit runs a batch in one transaction and answers its jobs.
// The busy time is counted before any job is answered, so a caller
// that reads /metrics after its write sees it.
func (w *writer) commit(batch []*writeJob) {
	start := w.stats.start(len(batch))
	errs := make([]error, len(batch))
	if len(batch) == 1 { // nothing to share: no savepoint needed
		j := batch[0]
		if errs[0] = j.ctx.Err(); errs[0] == nil {
			errs[0] = w.db.plainTx(j.ctx, j.f)
		}
		w.answer(batch, errs, start)
		return
	}
	tx, err := w.db.wdb.BeginTx(context.Background(), nil)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		w.answer(batch, errs, start)
		return
	}
	var broken error // the transaction itself is lost
	for i, j := range batch {
		if broken != nil {
			errs[i] = broken
			continue
		}
		if errs[i] = j.ctx.Err(); errs[i] != nil {
			continue
		}
		errs[i], broken = w.runSaved(tx, j)
		if broken != nil {
			for k := 0; k <= i; k++ {
				if errs[k] == nil {
					errs[k] = broken
				}
			}
		}
	}
	if broken != nil {
		_ = tx.Rollback()
	} else if err := tx.Commit(); err != nil {
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	w.answer(batch, errs, start)
}

// answer counts the batch's time from start, settles the jobs' own
// records, the tailer may be reading the events already, then gives the
// jobs their outcomes.
func (w *writer) answer(batch []*writeJob, errs []error, start time.Time) {
	w.stats.done(start)
	w.db.own.committed()
	for i, j := range batch {
		j.own.end(w.db, errs[i])
	}
	for i, j := range batch {
		j.done <- errs[i]
	}
}

// runSaved runs one job inside a savepoint: err is the job's own error
// (its changes undone), broken an error that lost the whole transaction.
func (w *writer) runSaved(tx *sql.Tx, j *writeJob) (err, broken error) {
	if _, e := w.db.txExec(context.Background(), tx, "SAVEPOINT w"); e != nil {
		return nil, e
	}
	// The closure must not be interrupted by its caller's cancellation:
	// an interrupted write rolls back the whole transaction in SQLite.
	if err = j.f(context.WithoutCancel(j.ctx), tx); err != nil {
		if _, e := w.db.txExec(context.Background(), tx, "ROLLBACK TO w"); e != nil {
			return err, e
		}
	}
	if _, e := w.db.txExec(context.Background(), tx, "RELEASE w"); e != nil {
		return err, e
	}
	return err, nil
}

// plainTx runs f alone in a transaction of its own.
func (db *DB) plainTx(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error) error {
	tx, err := db.wdb.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(context.WithoutCancel(ctx), tx); err != nil {
		return err
	}
	return tx.Commit()
}

// write runs f in a write transaction and commits it: through the group
// commit on SQLite, in a transaction of its own on PostgreSQL. f gets the
// context to use for its statements.
func (db *DB) write(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error) error {
	if db.w != nil {
		return db.w.do(ctx, f, nil)
	}
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := f(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// inTx runs f in a write transaction and commits it (see write).
func (db *DB) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	return db.write(ctx, func(_ context.Context, tx *sql.Tx) error { return f(tx) })
}
