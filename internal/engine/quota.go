package engine

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Quotas (issue 20 item 3; docs/operations.md "Limits"): conferences that
// hold a number (booked, running or pending approval) per account and per
// user domain, so that one account, or one domain, cannot take every
// conference number of the platform. The count and the insert are one
// transaction behind a per-domain lock (a store counter row, held to the
// commit on PostgreSQL; SQLite has one writer), so creations at once
// cannot pass a quota together.

// Quota bounds the live conferences of an account and of a user domain;
// 0 is no bound.
type Quota struct {
	PerAccount int // of one account that is not an administrator of its domain
	PerDomain  int // of one user domain, every account together
}

// DefaultQuota: 20 per account, 200 per user domain (a fiftieth of the
// default number range).
func DefaultQuota() Quota { return Quota{PerAccount: 20, PerDomain: 200} }

// liveStates are the states in which a conference holds its number.
var liveStates = []string{StateBooked, StateRunning, StatePending}

// createWithinQuota stores rec when its account and domain are within
// their quotas: ErrDuplicate when the number is taken, 20164 beyond a
// quota. It is the one place conferences are created (insert).
func (s *Conferences) createWithinQuota(ctx context.Context, rec store.Record) error {
	q := s.cfg.Quota
	if q.PerAccount <= 0 && q.PerDomain <= 0 {
		return s.st.CreateRecord(ctx, rec)
	}
	perAccount := q.PerAccount
	if perAccount > 0 && rec.OwnerMoid != "" {
		acc, err := s.st.AccountByMoid(ctx, rec.OwnerMoid)
		switch {
		case err == nil && acc.Admin:
			perAccount = 0 // an administrator is bounded by the domain's quota
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return err
		}
	}
	return s.st.Atomic(ctx, func(tx store.Tx) error {
		if _, err := tx.NextNumber("conf_quota_lock/"+rec.DomainMoid, 1, 1<<62); err != nil {
			return err
		}
		if q.PerDomain > 0 {
			n, err := tx.CountRecords(store.RecordQuery{Kind: record.KindConf, DomainMoid: rec.DomainMoid, States: liveStates})
			if err != nil {
				return err
			}
			if n >= q.PerDomain {
				return failf(ErrQuota, "the conference limit is reached: the user domain holds %d booked, running or pending conferences, its quota (--max-confs-per-domain)", n)
			}
		}
		if perAccount > 0 && rec.OwnerMoid != "" {
			n, err := tx.CountRecords(store.RecordQuery{Kind: record.KindConf, DomainMoid: rec.DomainMoid, OwnerMoid: rec.OwnerMoid, States: liveStates})
			if err != nil {
				return err
			}
			if n >= perAccount {
				return failf(ErrQuota, "the conference limit is reached: the account holds %d booked, running or pending conferences, its quota (--max-confs-per-account)", n)
			}
		}
		return tx.CreateRecord(rec)
	})
}
