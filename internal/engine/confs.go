// Package conference owns conferences as records: creation (instant, from
// a template or a virtual meeting room, or booked for later), numbering,
// capacity, ending, and the time-driven starts and ends. The mc module
// creates and ends conferences through it; the vc module reads and
// controls them. docs/conferences.md describes the behaviour.
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Conference states (store.Record.State of KindConf). A conference record
// is keyed by its number (conf_id): booked and running conferences hold
// their number; ending deletes the record, which frees it.
const (
	StateBooked  = "booked"
	StateRunning = "running"
	StateEnded   = "ended"   // transient: set exactly once, then the record is deleted
	StatePending = "pending" // awaiting approval (amc)
)

// NumberCounter is the store counter (store.NextNumber) that hands out
// conference numbers.
const NumberCounter = "conf"

// Config sets numbering and capacity. A zero field takes the value of
// DefaultConfig.
type Config struct {
	NumberMin, NumberMax int64 // conf_id range (E.164 style numeric strings)
	MaxConfs             int   // concurrent running conferences
	MaxPorts             int   // terminal ports across running conferences
	Quota                Quota // live conferences per account and per domain (quota.go); zero: none
	// HistoryRetention is how long an ended conference's history and
	// call records are kept (history.go): zero DefaultHistoryRetention,
	// negative none.
	HistoryRetention time.Duration
	// DomainShare is the percentage of MaxConfs and MaxPorts one user
	// domain may take while the platform has several (share.go); 0 or
	// 100: no share.
	DomainShare int
}

// DefaultConfig: conference numbers 1110000 to 1119999, 100 conferences,
// 1000 terminal ports, DefaultQuota, DefaultDomainShare.
func DefaultConfig() Config {
	return Config{NumberMin: 1110000, NumberMax: 1119999, MaxConfs: 100, MaxPorts: 1000, Quota: DefaultQuota(), DomainShare: DefaultDomainShare}
}

// Conference is a conference record with its decoded document (the
// newest wire model: the creation parameters plus the server's fields):
// the server's own members as fields (own.go, own_media.go), the other
// members in Doc. Conf, read from it by ConfOf, is the part the
// terminals' operations need.
type Conference struct {
	Rec   store.Record
	Roles Roles
	VIPs  []VIP // nil when the document has none
	// Superior is a subordinate's superior in a cascade, Links a
	// superior's links to its subordinates; nil when none.
	Superior *Superior
	Links    []CascadeLink
	// HDUAliases are the aliases given to the TV walls the conference
	// occupies (hdu_id to alias, vc's hdu.go); nil when none were given.
	HDUAliases map[string]string
	// Mix is the conference's main mixer (vc_mix); nil when it is not
	// mixing.
	Mix *Mix
	// HDUPoll is the TV-wall batch poll (vc_hdupoll), nil when none;
	// HDUPollSeq the poll_id of the last one started (vc_hdupoll_seq), 0
	// before the first.
	HDUPoll    *HDUPoll
	HDUPollSeq int
	// SelfVMPs are the terminals' self compositions (vc_selfvmps),
	// HDUVMPs the TV walls' (vc_hduvmps); nil when the document has none
	// (own_vmp.go).
	SelfVMPs []SelfVMP
	HDUVMPs  []SelfVMP
	// HDUs are the TV walls the conference started (vc_hdus); nil when
	// the document has none (own_vmp.go).
	HDUs []HDU
	// VMP is the conference's picture composition (vc_vmp); nil when
	// none runs (own_vmp.go).
	VMP *VMP
	// Poll, UploadPoll and ChairmanPoll are the conference poll
	// (vc_poll), the upload terminal's (vc_upload_poll) and the
	// chairman's (vc_chairman_poll); nil when none was started, kept
	// stopped after one ended (own_poll.go).
	Poll, UploadPoll, ChairmanPoll *Poll
	// Recorders are the running recordings (vc_recorders); nil when the
	// document has none (own_rec.go).
	Recorders []Recording
	// recordersOther is a list of recordings of another form, read
	// leniently into Recorders (own_rec.go); nil for one this release
	// reads.
	recordersOther *otherRecorders
	// VCState holds vc's playback, monitors, selective viewings and last
	// short message (own_vc.go).
	VCState
	Doc ConfDoc // every member but the server's own above
}

// ID returns the conference number (conf_id).
func (c Conference) ID() string { return c.Rec.ID }

// Conferences creates, reads, starts and ends conference records. It is
// the records' half of the Engine (engine.go): a start and an end call the
// engine's follow-up (Engine.started, Engine.ended) directly, once per
// change, on the node that made it.
type Conferences struct {
	st  store.Store
	clk clock.Clock
	cfg Config
	eng *Engine

	mu    sync.Mutex      // serialises capacity checks with the changes they admit
	ports Memo[confPorts] // each running conference's size, by version (Usage)
	docs  docCache        // decoded documents by their stored bytes (doccache.go)
}

// newConferences returns the records' half of eng.
func newConferences(st store.Store, clk clock.Clock, cfg Config, eng *Engine) *Conferences {
	d := DefaultConfig()
	if cfg.NumberMin == 0 && cfg.NumberMax == 0 {
		cfg.NumberMin, cfg.NumberMax = d.NumberMin, d.NumberMax
	}
	if cfg.MaxConfs == 0 {
		cfg.MaxConfs = d.MaxConfs
	}
	if cfg.MaxPorts == 0 {
		cfg.MaxPorts = d.MaxPorts
	}
	return &Conferences{st: st, clk: clk, cfg: cfg, eng: eng}
}

// Config returns the numbering and capacity settings.
func (s *Conferences) Config() Config { return s.cfg }

// notFound is the reference's "conference does not exist" (A3 12103).
func notFound(id string) error {
	return ConfNotFound(id)
}

// Get returns a conference of the domain that is in one of states (booked
// or running when none is given). Any other conference, one of another
// domain, or an ended one answers 12103.
func (s *Conferences) Get(ctx context.Context, domainMoid, confID string, states ...string) (Conference, error) {
	rec, err := s.st.GetRecord(ctx, record.KindConf, domainMoid, confID)
	return s.got(rec, err, domainMoid, confID, states)
}

// got checks a conference record read by Get and decodes its document,
// or copies the one kept for its bytes (doccache.go).
func (s *Conferences) got(rec store.Record, err error, domainMoid, confID string, states []string) (Conference, error) {
	if len(states) == 0 {
		states = []string{StateBooked, StateRunning}
	}
	if errors.Is(err, store.ErrNotFound) {
		s.docs.forget(docKey(domainMoid, confID))
		return Conference{}, notFound(confID)
	}
	if err != nil {
		return Conference{}, err
	}
	in := false
	for _, st := range states {
		in = in || rec.State == st
	}
	if !in {
		return Conference{}, notFound(confID)
	}
	key := docKey(domainMoid, confID)
	if c, ok := s.docs.get(key, rec.Data); ok {
		c.Rec = rec
		return c, nil
	}
	c, err := decode(rec)
	if err == nil {
		s.docs.put(key, rec, c.clone())
	}
	return c, err
}

// List returns the conferences of a domain in a state, of one creating
// account when ownerMoid is set, ordered by start time then number.
func (s *Conferences) List(ctx context.Context, domainMoid, ownerMoid, state string) ([]Conference, error) {
	recs, err := s.Records(ctx, domainMoid, ownerMoid, state)
	if err != nil {
		return nil, err
	}
	out := make([]Conference, 0, len(recs))
	for _, rec := range recs {
		c, err := decode(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ti, tj := out[i].StartTime(), out[j].StartTime()
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		return out[i].ID() < out[j].ID()
	})
	return out, nil
}

// Records returns the records of the conferences of a domain in a state,
// of one creating account when ownerMoid is set, in no order and not
// decoded: for a reader that reads their stored documents as its own type
// (mc's booked list).
func (s *Conferences) Records(ctx context.Context, domainMoid, ownerMoid, state string) ([]store.Record, error) {
	recs, _, err := s.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, DomainMoid: domainMoid,
		OwnerMoid: ownerMoid, States: []string{state}})
	return recs, err
}

// Read is a conference's stored document read as a T (ListAs).
type Read[T any] struct {
	ID    string    // conf_id
	Start time.Time // as Conference.StartTime
	Doc   T
}

// ListAs returns the conferences of a domain in a state, of one creating
// account when ownerMoid is set, ordered as List, each stored document
// read straight into a T with no map in between (a reply's item: a member
// of another form than T's reads as its zero value, as record.Member of
// the decoded document read it; a document that is not JSON is an error,
// as in List). startOf gives the start_time member T read ("" when it has
// none).
func ListAs[T any](ctx context.Context, s *Conferences, domainMoid, ownerMoid, state string, startOf func(*T) string) ([]Read[T], error) {
	recs, err := s.Records(ctx, domainMoid, ownerMoid, state)
	if err != nil {
		return nil, err
	}
	out := make([]Read[T], len(recs))
	for i, rec := range recs {
		if out[i], err = readAs(rec, startOf); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(out, func(a, b Read[T]) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// readAs reads one record for ListAs.
func readAs[T any](rec store.Record, startOf func(*T) string) (Read[T], error) {
	r := Read[T]{ID: rec.ID, Start: rec.CreatedAt}
	var wrongType *json.UnmarshalTypeError
	if err := json.Unmarshal(rec.Data, &r.Doc); err != nil && !errors.As(err, &wrongType) {
		return Read[T]{}, err
	}
	if t, err := record.ParseTime(startOf(&r.Doc)); err == nil {
		r.Start = t
	}
	return r, nil
}

// StartTime returns the conference's start time (its record's creation
// time when the document has none).
func (c Conference) StartTime() time.Time {
	if t, err := record.ParseTime(c.StartTimeText()); err == nil {
		return t
	}
	return c.Rec.CreatedAt
}
