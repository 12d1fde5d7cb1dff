package sqlstore

import (
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// groupStats counts the work of a group commit (writer.go on SQLite,
// pgbatch.go on PostgreSQL) for /metrics: the batches, the writes in
// them and the time spent running them. The busy time over the wall
// time is how much of the one SQLite writer a load uses
// (docs/operations.md "Metrics", docs/benchmarks.md "Sixth pass").
type groupStats struct {
	batches, writes atomic.Int64
	busy            atomic.Int64 // nanoseconds
}

// start counts a batch of n writes as it begins and returns the time
// for done, which adds the time spent when it ends:
// g.done(g.start(n)) before the batch is answered.
func (g *groupStats) start(n int) time.Time {
	g.batches.Add(1)
	g.writes.Add(int64(n))
	return time.Now()
}

func (g *groupStats) done(start time.Time) { g.busy.Add(int64(time.Since(start))) }

// groupStats is the store's group commit's counters; nil without one.
func (db *DB) groupStats() *groupStats {
	switch {
	case db.w != nil:
		return &db.w.stats
	case db.pgb != nil:
		return &db.pgb.stats
	}
	return nil
}

// Collectors returns the group commit's counters, for conferd's /metrics.
func (db *DB) Collectors() []prometheus.Collector {
	read := func(f func(g *groupStats) float64) func() float64 {
		return func() float64 {
			if g := db.groupStats(); g != nil {
				return f(g)
			}
			return 0
		}
	}
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_store_group_commits_total",
			Help: "Transactions of the store's group commit: each holds the writes queued when it began."},
			read(func(g *groupStats) float64 { return float64(g.batches.Load()) })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_store_group_commit_writes_total",
			Help: "Writes committed or refused in the group commit's transactions."},
			read(func(g *groupStats) float64 { return float64(g.writes.Load()) })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_store_group_commit_busy_seconds_total",
			Help: "Time the group commit spent running its transactions, commit included (summed over PostgreSQL's two batchers)."},
			read(func(g *groupStats) float64 { return time.Duration(g.busy.Load()).Seconds() })),
	}
}
