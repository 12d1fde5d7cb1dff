package media

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/store"
)

// DefaultAnswerAfter is how long a terminal that is not in the directory
// rings before it answers.
const DefaultAnswerAfter = 2 * time.Second

// RingTimeout is how long an unanswered call rings before it fails.
const RingTimeout = 30 * time.Second

// Simulated is the default backend: terminals behave as the directory
// says (answer after a delay, offline, busy, or ringing without answer).
// A callee that is not in the directory (by E.164 number, IP or alias)
// answers after DefaultAnswerAfter, so that a newcomer's first call brings
// terminals online (issue 13); the directory makes a number offline,
// busy, never answering or slow. Conference numbers never reach the
// backend: the engine links them as cascades.
//
// A call whose outcome comes later rings in the store (a record of kind
// KindCall, due when the outcome comes), so that it survives a restart
// and, with several nodes, is reported once by whichever node runs RunDue
// first (store.Claimer); an outcome known at once (offline) is reported
// before Dial returns. Everything reads the injected clock.
type Simulated struct {
	Dir    store.Store
	Clock  clock.Clock
	Events Events
}

// Simulation returns the simulated backend over st's directory, for
// engine.New (which gives it the engine's Events).
func Simulation(st store.Store, clk clock.Clock) func(Events) Backend {
	return func(ev Events) Backend { return &Simulated{Dir: st, Clock: clk, Events: ev} }
}

// KindCall is the record kind of a terminal's last simulated call: id
// "<conf_id>/<mt_id>", owner the conf_id, in no user domain; ringing and
// due when its outcome comes, then reported.
const KindCall = "media_call"

const (
	callDomain  = "_media" // no user domain: no domain's list or event sees it
	callRinging = "ringing"
	callDone    = "reported"
	callLease   = 30 * time.Second
)

// scripted is a ringing call's outcome, as stored.
type scripted struct {
	Conf     string   `json:"conf"`
	MtID     string   `json:"mt"`
	Outcome  Outcome  `json:"outcome"`
	Identity Identity `json:"identity"`
}

// Dial looks the callee up and has the outcome reported when it comes.
func (s *Simulated) Dial(ctx context.Context, conf, mt string, c Callee) (Identity, error) {
	o, after, id, err := s.script(ctx, c)
	if err != nil {
		return Identity{}, err
	}
	if after <= 0 {
		return id, s.Events.CallOutcome(ctx, conf, mt, o, id)
	}
	data, err := json.Marshal(scripted{conf, mt, o, id})
	if err != nil {
		return Identity{}, err
	}
	now := s.Clock.Now()
	rec := store.Record{Kind: KindCall, ID: conf + "/" + mt, DomainMoid: callDomain, OwnerMoid: conf, State: callRinging,
		Data: data, DueAt: now.Add(after), CreatedAt: now, UpdatedAt: now}
	err = s.Dir.CreateRecord(ctx, rec)
	if errors.Is(err, store.ErrDuplicate) { // an earlier call of the terminal: this one replaces it
		err = s.Dir.UpdateRecord(ctx, rec, "")
	}
	return id, err
}

var _ BatchDialer = (*Simulated)(nil)

// DialBatch is Dial for each call; the ringing calls are stored by the
// writes it returns, in the caller's transaction. Outcomes known at once
// (offline) are reported first, as Dial reports them before it returns.
func (s *Simulated) DialBatch(ctx context.Context, conf string, calls []Call) ([]Identity, func(store.Tx) error, error) {
	ids := make([]Identity, len(calls))
	var ring []store.Record
	now := s.Clock.Now()
	accounts := make([]string, len(calls))
	for i, c := range calls {
		accounts[i] = c.Callee.Account
	}
	// The callees' entries in one read (docs/benchmarks.md "Batch
	// additions on PostgreSQL").
	dir, err := store.DirectoryEntries(ctx, s.Dir, accounts)
	if err != nil {
		return nil, nil, err
	}
	for i, c := range calls {
		e, listed := dir[c.Callee.Account]
		o, after, id := scriptOf(c.Callee, e, listed)
		ids[i] = id
		if after <= 0 {
			if err := s.Events.CallOutcome(ctx, conf, c.MtID, o, id); err != nil {
				return nil, nil, err
			}
			continue
		}
		data, err := json.Marshal(scripted{conf, c.MtID, o, id})
		if err != nil {
			return nil, nil, err
		}
		ring = append(ring, store.Record{Kind: KindCall, ID: conf + "/" + c.MtID, DomainMoid: callDomain, OwnerMoid: conf,
			State: callRinging, Data: data, DueAt: now.Add(after), CreatedAt: now, UpdatedAt: now})
	}
	if len(ring) == 0 {
		return ids, nil, nil
	}
	return ids, func(tx store.Tx) error { return storeRinging(tx, ring) }, nil
}

// storeRinging creates the ringing calls, or replaces an earlier call of
// the same terminal as Dial does.
//
// The earlier calls are read in one statement and, when there is none
// (a batch of new terminals), the calls are created in one: on PostgreSQL
// each statement is a round trip (docs/benchmarks.md "Batch additions on
// PostgreSQL"). Otherwise each is created or replaced in turn, so that
// the events keep the calls' order.
func storeRinging(tx store.Tx, ring []store.Record) error {
	ids := make([]string, len(ring))
	seen := make(map[string]bool, len(ring))
	for i, rec := range ring {
		ids[i] = rec.ID
		seen[rec.ID] = true
	}
	olds, err := store.GetRecords(tx, KindCall, callDomain, ids)
	if err != nil {
		return err
	}
	if len(olds) == 0 && len(seen) == len(ring) {
		return store.CreateRecords(tx, ring)
	}
	byID := make(map[string]store.Record, len(olds))
	for _, o := range olds {
		byID[o.ID] = o
	}
	for _, rec := range ring {
		if old, ok := byID[rec.ID]; ok {
			rec.Version, rec.CreatedAt = old.Version, old.CreatedAt
			err = tx.SwapRecord(rec)
			old.Version++
			byID[rec.ID] = old
		} else {
			err = tx.CreateRecord(rec)
			byID[rec.ID] = store.Record{ID: rec.ID, Version: rec.Version, CreatedAt: rec.CreatedAt}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// RunDue reports the outcomes that are due at the clock's now. A call is
// marked reported after its report, over the version read: a node that
// stops in between has it reported again by another once the lease ends
// (the engine ignores a report for a terminal no longer being called),
// and a new call of the terminal meanwhile is left ringing.
func (s *Simulated) RunDue(ctx context.Context) error {
	now := s.Clock.Now()
	due, err := s.Dir.DueRecords(ctx, KindCall, callRinging, now)
	if err != nil {
		return err
	}
	for _, rec := range due {
		if cl, ok := s.Dir.(store.Claimer); ok {
			mine, err := cl.Claim(ctx, "media/"+rec.ID+"@"+strconv.FormatInt(rec.Version, 10), now, now.Add(callLease))
			if err != nil {
				return err
			}
			if !mine {
				continue // another node reports it
			}
		}
		var sc scripted
		if err := json.Unmarshal(rec.Data, &sc); err != nil {
			return err
		}
		if err := s.Events.CallOutcome(ctx, sc.Conf, sc.MtID, sc.Outcome, sc.Identity); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
		rec.State, rec.DueAt, rec.UpdatedAt = callDone, time.Time{}, now
		if err := s.Dir.SwapRecord(ctx, rec); err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// script tells how a call to c ends up and after how long.
func (s *Simulated) script(ctx context.Context, c Callee) (Outcome, time.Duration, Identity, error) {
	e, err := s.Dir.DirectoryEntry(ctx, c.Account)
	if errors.Is(err, store.ErrNotFound) {
		o, after, id := scriptOf(c, e, false)
		return o, after, id, nil
	}
	if err != nil {
		return 0, 0, Identity{}, err
	}
	o, after, id := scriptOf(c, e, true)
	return o, after, id, nil
}

// scriptOf is the outcome of calling c, whose directory entry is e when
// listed.
func scriptOf(c Callee, e store.DirectoryEntry, listed bool) (Outcome, time.Duration, Identity) {
	if !listed {
		return Answered, DefaultAnswerAfter, undirected(c)
	}
	id := Identity{Alias: e.Alias, E164: e.E164, IP: e.IP, MtType: e.MtType}
	if id.MtType == 0 {
		id.MtType = 1
	}
	switch e.Behaviour {
	case "offline":
		return Offline, 0, id
	case "busy":
		return Busy, time.Second, id
	case "noanswer":
		return NoAnswer, RingTimeout, id
	}
	return Answered, e.AnswerAfter, id
}

// undirected is the identity of a callee that the directory does not list.
func undirected(c Callee) Identity {
	acct := c.Account
	alias, host, hasAt := strings.Cut(acct, "@")
	switch {
	case net.ParseIP(acct) != nil:
		return Identity{Alias: acct, IP: acct, MtType: 1}
	case hasAt && net.ParseIP(host) != nil:
		return Identity{Alias: alias, IP: host, MtType: 1}
	case isDigits(acct): // issue 13: a newcomer's first call brings terminals online
		return Identity{Alias: acct, E164: acct, MtType: 1}
	}
	return Identity{Alias: acct, MtType: 1}
}

// Hangup has nothing to release: a ringing call's outcome still comes,
// and the engine ignores it (the terminal is no longer being called).
func (*Simulated) Hangup(ctx context.Context, conf, mt string) error { return nil }

// Apply accepts every control in the simulation.
func (*Simulated) Apply(ctx context.Context, conf, mt string, c Control) error { return nil }

// SetBroadcast has no picture to compose in the simulation.
func (*Simulated) SetBroadcast(ctx context.Context, conf string, b Broadcast) error { return nil }

// SetMix has no sound to mix in the simulation.
func (*Simulated) SetMix(ctx context.Context, conf string, m Mix) error { return nil }

// SetDual has no content stream in the simulation.
func (*Simulated) SetDual(ctx context.Context, conf, mt string) error { return nil }

// EndConference forgets the conference's calls.
func (s *Simulated) EndConference(ctx context.Context, conf string) error {
	recs, _, err := s.Dir.ListRecords(ctx, store.RecordQuery{Kind: KindCall, DomainMoid: callDomain, OwnerMoid: conf})
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if err := s.Dir.DeleteRecord(ctx, KindCall, callDomain, rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
