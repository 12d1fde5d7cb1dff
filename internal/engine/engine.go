// Package engine runs conferences' terminals: it adds them, calls them
// through the media backend, applies the call's outcome when it is due
// (answer after ringing, or a failure and a retry per call_times and
// call_interval), hangs them up and removes them. Terminal state lives in
// the store (records of kind "mt"), so it survives a restart and every node
// sees it; everything time-driven reads the injected clock (DESIGN
// principles 3 to 5).
package engine

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/conference"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// KindMT is the record kind of a conference's terminal. Its id is
// "<conf_id>/<mt_id>"; OwnerMoid holds the conf_id.
const KindMT = "mt"

// Terminal record states.
const (
	StateIdle    = "idle"    // a member that is not in the call (never called, hung up, or the call failed)
	StateCalling = "calling" // ringing; DueAt is when the call's outcome applies
	StateOnline  = "online"
)

// Call modes (reference 04/05 call_mode; seed 001: 3 from 5.2.0.2.0).
const (
	CallManual    = 0
	CallAutomatic = 2
	CallChase     = 3
)

// DefaultCallInterval is the retry interval when a conference sets none
// (the reference's examples use 20 seconds).
const DefaultCallInterval = 20 * time.Second

// Conf is what the engine needs to know of a conference.
type Conf struct {
	DomainMoid   string
	ConfID       string
	CallMode     int
	CallTimes    int // call attempts before giving up; 0 = no limit
	CallInterval time.Duration
	MaxJoinMt    int // terminals allowed in the conference; 0 = no limit
	Bitrate      int
}

// Engine runs terminals.
type Engine struct {
	st    store.Store
	clk   clock.Clock
	media media.Backend

	// OnLeave, when set, is called after terminals leave a conference's
	// call (hung up or removed), so that conference control can drop them
	// from the speaker, chairman, dual stream and VIP list.
	OnLeave func(ctx context.Context, c Conf, mtIDs []string) error
	// OnJoin, when set, is called after a terminal's call is answered,
	// so that conference control applies the conference's state to it.
	OnJoin func(ctx context.Context, c Conf, t Terminal) error
	// OnStart, when set, is called when a conference starts running,
	// before its invited terminals are called, so that conference control
	// starts the features its creation set (Attach).
	OnStart func(ctx context.Context, c conference.Conf) error

	// Peers, when set, finds the conferences that link terminals call,
	// and OnLink establishes a cascade when a link is answered
	// (cascade.go).
	Peers  Peers
	OnLink LinkFunc
}

// New returns an Engine.
func New(st store.Store, clk clock.Clock, mb media.Backend) *Engine {
	return &Engine{st: st, clk: clk, media: mb}
}

// Terminal is a terminal record with its document.
type Terminal struct {
	Rec store.Record
	Doc map[string]any
}

// MtID returns the terminal's mt_id.
func (t Terminal) MtID() string { s, _ := t.Doc["mt_id"].(string); return s }

func recID(confID, mtID string) string { return confID + "/" + mtID }

// ErrNotFound is returned for an unknown terminal.
var ErrNotFound = errors.New("engine: terminal not found")

// Get reads one terminal of a conference; a cascaded mt_id ("4.1")
// reads the terminal in the subordinate conference (cascade.go).
func (e *Engine) Get(ctx context.Context, c Conf, mtID string) (Terminal, error) {
	c, mtID, err := e.Resolve(ctx, c, mtID)
	if err != nil {
		return Terminal{}, err
	}
	return e.getLocal(ctx, c, mtID)
}

// getLocal reads a terminal of the conference itself.
func (e *Engine) getLocal(ctx context.Context, c Conf, mtID string) (Terminal, error) {
	rec, err := e.st.GetRecord(ctx, KindMT, c.DomainMoid, recID(c.ConfID, mtID))
	if errors.Is(err, store.ErrNotFound) {
		return Terminal{}, ErrNotFound
	}
	if err != nil {
		return Terminal{}, err
	}
	doc, err := shape.Decode(rec.Data)
	return Terminal{rec, doc}, err
}

// List returns the terminals of a conference in the order they were added.
func (e *Engine) List(ctx context.Context, c Conf) ([]Terminal, error) {
	recs, _, err := e.st.ListRecords(ctx, store.RecordQuery{Kind: KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID})
	if err != nil {
		return nil, err
	}
	out := make([]Terminal, 0, len(recs))
	for _, rec := range recs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, Terminal{rec, doc})
	}
	sortByMtID(out)
	return out, nil
}

func sortByMtID(ts []Terminal) {
	n := func(t Terminal) int { v, _ := strconv.Atoi(t.MtID()); return v }
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && n(ts[j]) < n(ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// save writes a terminal over the version it was read at.
func (e *Engine) save(ctx context.Context, t *Terminal) error {
	data, err := shape.Encode(t.Doc)
	if err != nil {
		return err
	}
	t.Rec.Data = data
	t.Rec.UpdatedAt = e.clk.Now()
	if err := e.st.SwapRecord(ctx, t.Rec); err != nil {
		return err
	}
	t.Rec.Version++
	return nil
}

// Update reads a terminal, applies change and writes it back, retrying when
// another writer got there first.
func (e *Engine) Update(ctx context.Context, c Conf, mtID string, change func(t *Terminal) error) (Terminal, error) {
	for {
		t, err := e.Get(ctx, c, mtID)
		if err != nil {
			return t, err
		}
		if err := change(&t); err != nil {
			return t, err
		}
		err = e.save(ctx, &t)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return t, err
	}
}
