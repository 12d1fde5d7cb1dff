// Package metered measures a store: the latency of every operation by its
// name, and the operations that failed (docs/operations.md "Metrics").
// Store wraps a store with its optional interfaces (the event log and
// its wake-ups, readiness, the nms registry, conference paging and key
// lists, batch reads, leases), so a server built over it keeps every
// feature of the store it wraps; TestWrapsEveryMethod fails when sqlstore
// gains a method that Full lacks.
package metered

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/store"
)

// Full is a store with every optional interface that the server uses;
// sqlstore.DB is one.
type Full interface {
	store.Store
	store.EventLog
	store.EventWaker
	store.ConfPager
	store.KeyLister
	store.DomainCounter
	store.GuardedWriter
	store.BatchReader
	store.Claimer
	node.Registry
	SchemaVersion(ctx context.Context) (int, error)
}

// Metrics are the store's collectors; register them on the node's
// registry (ops.Metrics.Registry).
type Metrics struct {
	duration  *prometheus.HistogramVec
	errors    *prometheus.CounterVec
	conflicts *prometheus.CounterVec
}

// NewMetrics builds the collectors.
func NewMetrics() *Metrics {
	return &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "confer_store_operation_duration_seconds",
			Help:    "Latency of store operations by operation name (the store method), failures included.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"operation"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "confer_store_errors_total",
			Help: "Store operations that failed, by operation name; answers (not found, duplicate, changed meanwhile) and callers that went away are not failures.",
		}, []string{"operation"}),
		conflicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "confer_store_conflicts_total",
			Help: "Store writes that lost an optimistic race (changed meanwhile, or a duplicate), by operation name: contention between requests and nodes.",
		}, []string{"operation"}),
	}
}

// Collectors returns the collectors to register.
func (m *Metrics) Collectors() []prometheus.Collector {
	return []prometheus.Collector{m.duration, m.errors, m.conflicts}
}

// observe records one operation that started at start and ended with err.
func (m *Metrics) observe(op string, start time.Time, err error) {
	m.duration.WithLabelValues(op).Observe(time.Since(start).Seconds())
	switch {
	case err == nil, errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrNoDepartment), errors.Is(err, context.Canceled):
	case errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrDuplicate):
		m.conflicts.WithLabelValues(op).Inc()
	default:
		m.errors.WithLabelValues(op).Inc()
	}
}

// Store measures the operations of the store it wraps. Methods that it
// does not list (added to store.Store later) pass through unmeasured.
type Store struct {
	Full
	m *Metrics
}

// Wrap returns st measured into m.
func Wrap(st Full, m *Metrics) *Store { return &Store{Full: st, m: m} }

// Unwrap returns the wrapped store.
func (s *Store) Unwrap() Full { return s.Full }

// do measures an operation that returns an error.
func (s *Store) do(op string, f func() error) error {
	start := time.Now()
	err := f()
	s.m.observe(op, start, err)
	return err
}

// val measures an operation that returns a value and an error.
func val[T any](s *Store, op string, f func() (T, error)) (T, error) {
	start := time.Now()
	v, err := f()
	s.m.observe(op, start, err)
	return v, err
}

// val2 measures an operation that returns two values and an error.
func val2[T, U any](s *Store, op string, f func() (T, U, error)) (T, U, error) {
	start := time.Now()
	v, u, err := f()
	s.m.observe(op, start, err)
	return v, u, err
}
