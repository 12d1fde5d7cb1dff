package engine

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Spec is a conference to create.
type Spec struct {
	DomainMoid string
	OwnerMoid  string // the creating account (vc own_conf)
	// Doc is the conference's document, a JSON object of newest-model
	// members (mc's creation, conf_doc.go; krtc's roomConf); Create adds
	// conf_id, meeting_id, start_time and end_time.
	Doc    []byte
	Number string    // the number a template or room binds (e164); "" allocates one
	Start  time.Time // a future time books the conference; zero or past starts it now
}

// Create stores a new conference: running at once, or booked when its
// start lies in the future. A running conference must fit the capacity
// (27505, 27506); a booked one takes capacity only when it starts. A bound
// number in use answers 20106. Nothing is kept when creation fails.
func (s *Conferences) Create(ctx context.Context, sp Spec) (Conference, error) {
	now := s.clk.Now()
	c, err := sp.conference()
	if err != nil {
		return Conference{}, err
	}
	ports := c.Ports()
	if ports > s.cfg.MaxPorts {
		return Conference{}, failf(ErrNoResource, "no idle conference resource: a %d-party conference exceeds the platform's %d terminal ports", ports, s.cfg.MaxPorts)
	}
	start, booked := now, false
	if !sp.Start.IsZero() && sp.Start.After(now) {
		start, booked = sp.Start, true
	}
	c.SetMeetingID(newMeetingID())
	end := c.schedule(start)
	rec := store.Record{Kind: record.KindConf, DomainMoid: sp.DomainMoid, OwnerMoid: sp.OwnerMoid,
		State: StateRunning, DueAt: end, CreatedAt: now, UpdatedAt: now}
	if booked {
		rec.State, rec.DueAt = StateBooked, start
		return s.insert(ctx, rec, c, sp.Number)
	}

	rec.DueAt = s.markStart(&c, end, now) // start_pending.go

	c, err = s.admitInsert(ctx, Reserved(c), rec, c, sp.Number)
	if err != nil {
		return Conference{}, err
	}
	// The follow-up (features, invitee calls) runs outside the capacity
	// lock: it changes no conference's ports, so creations do not wait
	// for one another's calls.
	s.eng.started(ctx, c)
	return c, nil
}

// conference is the conference sp makes, its document decoded from
// sp.Doc (as a stored one is).
func (sp Spec) conference() (Conference, error) {
	doc, err := decodeConfDoc(sp.Doc)
	if err != nil {
		return Conference{}, err
	}
	return Conference{Doc: doc}, nil
}

// admitInsert checks the capacity, stores the running conference and
// checks again (capacity.go), under the lock that serialises this node's
// capacity checks with the changes they admit.
func (s *Conferences) admitInsert(ctx context.Context, ports int, rec store.Record, c Conference, number string) (Conference, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.admit(ctx, rec.DomainMoid, ports); err != nil { // the ports it reserves (Reserved)
		return Conference{}, err
	}
	c, err := s.insert(ctx, rec, c, number)
	if err != nil {
		return Conference{}, err
	}
	if err := s.recheck(ctx, rec.DomainMoid); err != nil {
		if derr := s.st.DeleteRecord(ctx, record.KindConf, c.Rec.DomainMoid, c.ID()); derr != nil && !errors.Is(derr, store.ErrNotFound) {
			return Conference{}, errors.Join(err, derr)
		}
		return Conference{}, err
	}
	return c, nil
}

// insert stores the record of c (its document alone: a new conference
// has none of the server's own members) under the bound number, or under
// the next free number of the configured range: numbers of live
// conferences are skipped.
func (s *Conferences) insert(ctx context.Context, rec store.Record, c Conference, number string) (Conference, error) {
	put := func(id string) (Conference, error) {
		c.setStr(&c.Doc.ConfID, "conf_id", id)
		data, err := c.Doc.encode()
		if err != nil {
			return Conference{}, err
		}
		rec.ID, rec.Data = id, data
		if err := s.createWithinQuota(ctx, rec); err != nil { // quota.go
			return Conference{}, err
		}
		return newConference(rec, c.Doc), nil
	}
	if number != "" {
		c, err := put(number)
		if errors.Is(err, store.ErrDuplicate) {
			return Conference{}, failf(ErrNumberUsed, "conference number %s is in use", number)
		}
		return c, err
	}
	size := s.cfg.NumberMax - s.cfg.NumberMin + 1
	for i := int64(0); i < size; i++ {
		n, err := s.st.NextNumber(ctx, NumberCounter, s.cfg.NumberMin, s.cfg.NumberMax)
		if err != nil {
			return Conference{}, err
		}
		c, err := put(strconv.FormatInt(n, 10))
		if errors.Is(err, store.ErrDuplicate) {
			continue
		}
		return c, err
	}
	return Conference{}, failf(ErrMaxConfs, "the maximum number of conferences is reached: every number from %d to %d is in use", s.cfg.NumberMin, s.cfg.NumberMax)
}

// schedule sets a conference's start_time and end_time ("" for a
// permanent one) from its start and its duration in minutes, and returns
// its end.
func (c *Conference) schedule(start time.Time) time.Time {
	end := EndTime(start, c.Duration())
	c.SetStartTimeText(record.FormatTime(start))
	c.SetEndTimeText("")
	if !end.IsZero() {
		c.SetEndTimeText(record.FormatTime(end))
	}
	return end
}

// newMeetingID returns a unique meeting id: 128 random bits as 32 hex
// digits.
func newMeetingID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
