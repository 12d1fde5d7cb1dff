package engine

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// Conference approval (amc "approval_infos", docs/amc.md). A user domain
// with video_approval on holds every conference created by an account
// without approval rights in state pending: it takes no capacity, is in
// no vc or booked list, and keeps its number until an account with
// approval rights approves it (it then starts, or is booked until its
// start time) or rejects it. The domain's administrators have approval
// rights; their own conferences are never held.

// KindApproval is the record kind of a user domain's approval settings:
// one record per domain, its id the domain's moid.
const KindApproval = "approval_info"

// CodeApprovalOn is 99997 of reference A3 (平台会议审批功能开启，不支持创建会议):
// approval is on, so a conference cannot be created this way (krtc rooms).
const CodeApprovalOn = 99997

// Approval is a user domain's approval settings: 0 off, 1 on.
type Approval struct {
	Real  int // real_approval: physical meetings (Confer has none; stored and reported)
	Video int // video_approval: video conferences
}

// GetApproval returns a domain's settings; both off when never set.
func GetApproval(ctx context.Context, st store.Store, domainMoid string) (Approval, error) {
	rec, err := st.GetRecord(ctx, KindApproval, domainMoid, domainMoid)
	if errors.Is(err, store.ErrNotFound) {
		return Approval{}, nil
	}
	if err != nil {
		return Approval{}, err
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		return Approval{}, err
	}
	return Approval{Real: record.Int(doc, "real_approval"), Video: record.Int(doc, "video_approval")}, nil
}

// approvalStored is a domain's settings as stored (the members in name
// order, as shape.Encode wrote them from a map).
type approvalStored struct {
	Real  int `json:"real_approval"`
	Video int `json:"video_approval"`
}

// SetApproval stores a domain's settings.
func SetApproval(ctx context.Context, st store.Store, domainMoid string, a Approval, now time.Time) error {
	data, err := json.Marshal(approvalStored{Real: a.Real, Video: a.Video})
	if err != nil {
		return err
	}
	rec := store.Record{Kind: KindApproval, ID: domainMoid, DomainMoid: domainMoid, Data: data, CreatedAt: now, UpdatedAt: now}
	for {
		err := st.UpdateRecord(ctx, rec, "")
		if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		err = st.CreateRecord(ctx, rec)
		if !errors.Is(err, store.ErrDuplicate) { // created meanwhile: update it
			return err
		}
	}
}

// HasApprovalRights tells whether an account approves its domain's
// conferences: the domain's administrators do.
func HasApprovalRights(a store.Account) bool { return a.Admin && !a.Disabled }

// NeedsApproval tells whether a conference created by the account must
// wait for approval: its domain has video_approval on and the account has
// no approval rights (an unknown account has none).
func (s *Conferences) NeedsApproval(ctx context.Context, domainMoid, accountMoid string) (bool, error) {
	a, err := GetApproval(ctx, s.st, domainMoid)
	if err != nil || a.Video == 0 {
		return false, err
	}
	acc, err := s.st.AccountByMoid(ctx, accountMoid)
	if errors.Is(err, store.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return !HasApprovalRights(acc), nil
}

// CreateOrHold is Create for the conference-management path
// (POST /api/v1/mc/confs): when the creator needs approval
// (NeedsApproval) the conference is stored pending instead, under a
// number of the range (or its bound number) and with its meeting_id.
func (s *Conferences) CreateOrHold(ctx context.Context, sp Spec) (Conference, error) {
	hold, err := s.NeedsApproval(ctx, sp.DomainMoid, sp.OwnerMoid)
	if err != nil {
		return Conference{}, err
	}
	if !hold {
		return s.Create(ctx, sp)
	}
	now := s.clk.Now()
	c, err := sp.conference()
	if err != nil {
		return Conference{}, err
	}
	ports := c.Ports()
	if ports > s.cfg.MaxPorts { // could never run
		return Conference{}, failf(ErrNoResource, "no idle conference resource: a %d-party conference exceeds the platform's %d terminal ports", ports, s.cfg.MaxPorts)
	}
	start := now
	var booked time.Time // the requested start of a booked conference, kept as the pending record's due time
	if !sp.Start.IsZero() && sp.Start.After(now) {
		start, booked = sp.Start, sp.Start
	}
	c.SetMeetingID(newMeetingID())
	c.schedule(start)
	rec := store.Record{Kind: record.KindConf, DomainMoid: sp.DomainMoid, OwnerMoid: sp.OwnerMoid,
		State: StatePending, DueAt: booked, CreatedAt: now, UpdatedAt: now}
	return s.insert(ctx, rec, c, sp.Number)
}

// Pending lists a domain's pending conferences (of one creator when
// ownerMoid is set), by start time.
func (s *Conferences) Pending(ctx context.Context, domainMoid, ownerMoid string) ([]Conference, error) {
	return s.List(ctx, domainMoid, ownerMoid, StatePending)
}

// Approve releases a pending conference. One booked for a future time
// becomes booked; any other starts now when the capacity allows (27505 or
// 27506 otherwise, and it stays pending): an instant conference's
// start_time becomes now (its end moves with it), a booked one keeps its
// slot, and one whose slot ended while it waited is dropped (12103). A
// conference that is not pending answers 12103.
func (s *Conferences) Approve(ctx context.Context, domainMoid, confID string) (Conference, error) {
	c, err := s.Get(ctx, domainMoid, confID, StatePending)
	if err != nil {
		return Conference{}, err
	}
	now := s.clk.Now()
	requested := c.Rec.DueAt
	rec := c.Rec
	if !requested.IsZero() && requested.After(now) {
		rec.State, rec.UpdatedAt = StateBooked, now
		if err := s.st.UpdateRecord(ctx, rec, StatePending); errors.Is(err, store.ErrNotFound) {
			return Conference{}, notFound(confID)
		} else if err != nil {
			return Conference{}, err
		}
		c.Rec = rec
		return c, nil
	}
	var end time.Time
	if requested.IsZero() { // instant: it starts at its approval
		end = c.schedule(now)
	} else if e := c.EndTimeText(); e != "" {
		if end, err = record.ParseTime(e); err != nil {
			return Conference{}, err
		}
		if !now.Before(end) {
			if _, err := s.drop(ctx, rec); err != nil {
				return Conference{}, err
			}
			return Conference{}, failf(ErrConfNotFound, "conference %s: its booked time ended while it awaited approval; it is dropped", confID)
		}
	}
	due := s.markStart(&c, end, now) // start_pending.go
	data, _, err := encodeConf(c)
	if err != nil {
		return Conference{}, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.admit(ctx, rec.DomainMoid, Reserved(c)); err != nil {
		return Conference{}, err
	}
	pending := rec
	rec.State, rec.DueAt, rec.UpdatedAt, rec.Data = StateRunning, due, now, data
	if err := s.st.SwapRecord(ctx, rec); errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
		return Conference{}, notFound(confID) // approved, rejected or withdrawn meanwhile
	} else if err != nil {
		return Conference{}, err
	}
	rec.Version++
	if err := s.recheck(ctx, rec.DomainMoid); err != nil {
		pending.UpdatedAt = now
		if uerr := s.st.UpdateRecord(ctx, pending, StateRunning); uerr != nil && !errors.Is(uerr, store.ErrNotFound) {
			return Conference{}, errors.Join(err, uerr)
		}
		return Conference{}, err
	}
	c.Rec = rec
	s.eng.started(ctx, c)
	return c, nil
}

// Reject deletes a pending conference (rejected by an approver or
// withdrawn by its creator), freeing its number. 12103 when it is not
// pending.
func (s *Conferences) Reject(ctx context.Context, domainMoid, confID string) error {
	c, err := s.Get(ctx, domainMoid, confID, StatePending)
	if err != nil {
		return err
	}
	done, err := s.drop(ctx, c.Rec)
	if err != nil {
		return err
	}
	if !done {
		return notFound(confID)
	}
	return nil
}

// drop ends a pending record once (a conditional state change, as ending
// does) and deletes it; it never ran, so no hook is told.
func (s *Conferences) drop(ctx context.Context, rec store.Record) (bool, error) {
	now := s.clk.Now()
	prev := rec.State
	rec.State, rec.DueAt, rec.UpdatedAt = StateEnded, now, now
	if err := s.st.UpdateRecord(ctx, rec, prev); errors.Is(err, store.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if err := s.st.DeleteRecord(ctx, record.KindConf, rec.DomainMoid, rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return true, err // RunDue sweeps the ended record later
	}
	return true, nil
}
