package server

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/audit"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// The audit trail kept in the store (docs/operations.md "Audit trail";
// issue 41): besides its log line, every audited action becomes a record
// of kind record.KindAudit in the acting account's user domain, which
// amc's GET /api/v1/amc/audit lists to the domain's administrators and
// the console shows. Requests never wait for it: audit() queues the
// entry as it is (the encoding is the writer's) and one goroutine of the
// server's group writes what gathered in auditFlush, or auditBatch
// entries, in one transaction, so an action's latency is unchanged and a
// steady stream of actions costs one write per batch, not per action
// (the speaker path's allocation budget, internal/server allocs_test.go). A full queue (the store
// far behind) drops entries, counted in confer_audit_dropped_total and
// logged; the log line is written in any case.

// DefaultAuditRetention is how long audit entries are kept when
// Config.AuditRetention is zero.
const DefaultAuditRetention = 90 * 24 * time.Hour

const (
	auditQueue = 4096                   // entries waiting to be written
	auditBatch = 256                    // entries written in one transaction
	auditFlush = 250 * time.Millisecond // the longest an entry waits for its batch
)

// queued is an entry waiting for the writer, with its user domain.
type queued struct {
	domain string
	e      audit.Entry
}

// auditTrail queues and writes audit entries.
type auditTrail struct {
	st        store.Store
	clk       clock.Clock
	log       *slog.Logger
	retention time.Duration // negative: nothing is kept
	q         chan queued
	written   atomic.Int64
	dropped   atomic.Int64
}

func newAuditTrail(st store.Store, clk clock.Clock, log *slog.Logger, retention time.Duration) *auditTrail {
	if retention == 0 {
		retention = DefaultAuditRetention
	}
	return &auditTrail{st: st, clk: clk, log: log, retention: retention, q: make(chan queued, auditQueue)}
}

// add queues e for the domain domainMoid; it never blocks.
func (a *auditTrail) add(domainMoid string, e audit.Entry) {
	if a == nil || a.retention < 0 {
		return
	}
	select {
	case a.q <- queued{domainMoid, e}:
	default:
		if a.dropped.Add(1)%1000 == 1 {
			a.log.Warn("audit trail: the queue is full, entries are dropped (their log lines are written)", "dropped", a.dropped.Load())
		}
	}
}

// run writes the queue until ctx ends, then what is left in it.
func (a *auditTrail) run(ctx context.Context) {
	var batch []store.Record
	timer := time.NewTimer(auditFlush)
	timer.Stop()
	take := func(q queued) {
		if rec, err := audit.Record(q.domain, q.e, a.retention); err == nil {
			batch = append(batch, rec)
		}
	}
	for {
		select {
		case q := <-a.q:
			if len(batch) == 0 {
				timer.Reset(auditFlush)
			}
			take(q)
			if len(batch) >= auditBatch {
				timer.Stop()
				batch = a.write(ctx, batch)
			}
		case <-timer.C:
			batch = a.write(ctx, batch)
		case <-ctx.Done():
			timer.Stop()
			for {
				select {
				case q := <-a.q:
					take(q)
					continue
				default:
				}
				break
			}
			for len(batch) > 0 { // the store closes only after the group ends
				n := min(len(batch), auditBatch)
				a.write(context.WithoutCancel(ctx), batch[:n])
				batch = batch[n:]
			}
			return
		}
	}
}

// write stores batch in one transaction and returns it emptied.
func (a *auditTrail) write(ctx context.Context, batch []store.Record) []store.Record {
	if len(batch) == 0 {
		return batch
	}
	err := a.st.Atomic(ctx, func(tx store.Tx) error {
		for _, rec := range batch {
			if err := tx.CreateRecord(rec); err != nil && !errors.Is(err, store.ErrDuplicate) {
				return err
			}
		}
		return nil
	})
	if err != nil {
		a.dropped.Add(int64(len(batch)))
		a.log.Warn("audit trail: writing entries failed", "entries", len(batch), "err", err)
	} else {
		a.written.Add(int64(len(batch)))
	}
	return batch[:0]
}

// runDue deletes the entries whose retention ended (Server.Tick).
func (a *auditTrail) runDue(ctx context.Context) error {
	if a == nil {
		return nil
	}
	recs, err := a.st.DueRecords(ctx, record.KindAudit, audit.State, a.clk.Now())
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := a.st.DeleteRecord(ctx, record.KindAudit, r.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// collectors are the trail's figures at /metrics (docs/operations.md
// "Metrics").
func (a *auditTrail) collectors() []prometheus.Collector {
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_audit_written_total", Help: "Audit entries stored (the audit trail of GET /api/v1/amc/audit)."},
			func() float64 { return float64(a.written.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_audit_dropped_total", Help: "Audit entries not stored: the queue was full or the store refused them (their log lines were written)."},
			func() float64 { return float64(a.dropped.Load()) }),
	}
}
