package sqlstore

import (
	"context"
	"errors"
	"sort"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/confer-platform/confer/internal/store"
)

// Group commit of record writes on PostgreSQL (docs/benchmarks.md "Write
// throughput"). Every event takes the next number from one counter row,
// whose lock a transaction holds until its commit has been flushed: one
// commit after another, about a thousand a second here however many
// writers wait. So the single-record writes without notices (creations,
// updates, swaps) are queued and a batcher runs those queued at the moment
// in one transaction: each job is one statement that writes its record and
// returns the event's fields, then the batch's events take their numbers
// in one step, last, and the batch commits with one flush. A job whose
// record is missing or stale writes nothing and gets its answer; an
// unexpected error removes its job from the batch, and the batch runs
// again without it. Callers hear of success only after the commit.
// Jobs are ordered by record in a batch, so that two batches lock their
// records in the same order. A batch is two round trips (pgpipe.go).

// pgBatchers run batches at once: one writes while the other commits.
const pgBatchers = 2

type pgJob struct {
	ctx   context.Context
	kind  string // of the record: the order of the batch
	id    string
	query string // a record statement ending with returningEvent
	args  []any
	data  string // the document that the statement stores
	op    string
	miss  error // the answer when the statement writes nothing
	err   error
	done  chan error

	// Of the batch's last try: whether the statement wrote, and the
	// record as it stored it (this handle's own writes, ownwrites.go).
	wrote  bool
	stored store.Record
}

type pgBatcher struct {
	db    *DB
	jobs  chan *pgJob
	quit  chan struct{}
	done  chan struct{}
	stats groupStats // for /metrics (groupstats.go)
}

func startPGBatcher(db *DB) *pgBatcher {
	b := &pgBatcher{db: db, jobs: make(chan *pgJob), quit: make(chan struct{}), done: make(chan struct{})}
	finished := make(chan struct{}, pgBatchers)
	for i := 0; i < pgBatchers; i++ {
		go func() { b.run(); finished <- struct{}{} }()
	}
	go func() {
		for i := 0; i < pgBatchers; i++ {
			<-finished
		}
		close(b.done)
	}()
	return b
}

func (b *pgBatcher) stop() {
	select {
	case <-b.quit:
	default:
		close(b.quit)
	}
	<-b.done
}

// write queues a record statement and waits for its batch.
func (b *pgBatcher) write(ctx context.Context, j *pgJob) error {
	j.ctx, j.done = ctx, make(chan error, 1)
	select {
	case b.jobs <- j:
	case <-b.quit:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-j.done
}

func (b *pgBatcher) run() {
	batch := make([]*pgJob, 0, maxBatch)
	for {
		select {
		case j := <-b.jobs:
			batch = append(batch[:0], j)
		case <-b.quit:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case j := <-b.jobs:
				batch = append(batch, j)
			default:
				break more
			}
		}
		sort.SliceStable(batch, func(i, k int) bool {
			if batch[i].kind != batch[k].kind {
				return batch[i].kind < batch[k].kind
			}
			return batch[i].id < batch[k].id
		})
		b.commit(batch)
	}
}

// commit runs the batch until it commits, dropping the jobs that fail.
// The busy time is counted before any job is answered.
func (b *pgBatcher) commit(batch []*pgJob) {
	start := b.stats.start(len(batch))
	live := make([]*pgJob, 0, len(batch))
	for _, j := range batch {
		if j.err = j.ctx.Err(); j.err == nil {
			live = append(live, j)
		}
	}
	for deadlocks := 0; len(live) > 0; {
		bad, err := b.try(live)
		switch {
		case err == nil:
			live = live[:0]
		case bad >= 0: // the job's own error: the others go again
			live[bad].err = err
			live = append(live[:bad], live[bad+1:]...)
		case isDeadlock(err) && deadlocks < 3:
			deadlocks++
		default:
			for _, j := range live {
				j.err = err
			}
			live = live[:0]
		}
	}
	b.stats.done(start)
	for _, j := range batch {
		j.done <- j.err
	}
}

func isDeadlock(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && (pg.Code == "40P01" || pg.Code == "40001")
}
