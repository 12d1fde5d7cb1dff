// Package engine owns conferences, from creation to end: their records
// (creation, numbering, capacity, booking, approval, start and end:
// Conferences, docs/conferences.md) and their terminals (it adds them,
// calls them through the media backend, applies the call's outcome when it
// is due, answer after ringing or a failure and a retry per call_times and
// call_interval, hangs them up and removes them: Engine). What conference
// control adds to a conference's life (compositions, mixes, polls,
// recordings, cascade links) reaches it through one interface, Features,
// given to New. State lives in the store (records of kinds "conf" and
// "mt"), so it survives a restart and every node sees it; everything
// time-driven reads the injected clock (DESIGN principles 3 to 5).
//
// A conference start, top to bottom: Conferences.Create (create.go),
// Conferences.Approve (approval.go) or a booked start in
// Conferences.RunDue (lifecycle.go) makes the record running, marked
// pending; then Engine.started (conference.go) runs Features.Started and
// calls the invitees (start_follow.go: Add, placeCall, media.Backend.Dial)
// and removes the mark (Conferences.StartDone, start_pending.go). The
// calls' outcomes apply in Engine.RunDueCalls (calls.go: settle), where an
// answered terminal goes online and Features.Joined runs.
package engine

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

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
	// Version is the conference record's version this was read at
	// (ConfOf): what the media plane was told is known only for that
	// version, since every node drives the same media owner (events.go).
	Version int64
}

// Engine owns the conferences: their records (Conferences) and their
// terminals.
type Engine struct {
	st       store.Store
	clk      clock.Clock
	media    media.Backend
	features Features
	log      *slog.Logger
	confs    *Conferences
	calls    CallCounts

	mu      sync.Mutex             // guards dialing and told
	dialing map[string]*outcome    // calls being placed (placeCall to dialed), with an early report
	told    map[string]told        // what the media plane was last told of each conference (events.go)
	swept   time.Time              // when told was last swept of idle conferences
	stale   map[staleKey]time.Time // participants the media plane did not hold, since when (stale.go)
	staleAt time.Time              // the last check of stale
	voice   map[string]voiced      // the loudest participant of each conference, since when (voice.go)
}

// New returns an Engine with numbering and capacity cfg (zero fields take
// DefaultConfig's values), logging the failures of work that follows a
// change already made (a start's calls) to log. newMedia makes the media
// backend from the engine's side of the contract (media.Events, events.go),
// which the backend reports to; nil is the simulated backend over the
// store's directory (media.Simulation). newFeatures, when given, makes
// the features of conference control from the engine they act through (a
// conference control module needs the engine, and the engine its
// features); without it the engine runs conferences without features
// (NoFeatures).
func New(st store.Store, clk clock.Clock, cfg Config, newMedia func(media.Events) media.Backend, log *slog.Logger, newFeatures func(*Engine) Features) *Engine {
	if log == nil {
		log = slog.Default()
	}
	if newMedia == nil {
		newMedia = media.Simulation(st, clk)
	}
	e := &Engine{st: st, clk: clk, log: log, features: NoFeatures{}, dialing: map[string]*outcome{}, told: map[string]told{}, voice: map[string]voiced{}}
	e.media = newMedia(e)
	e.confs = newConferences(st, clk, cfg, e)
	if newFeatures != nil {
		e.features = newFeatures(e)
	}
	return e
}

// Conferences returns the engine's conference records.
func (e *Engine) Conferences() *Conferences { return e.confs }

// Terminal is a terminal record with its document: the engine's own
// members in Own (terminal.go), the others in Doc (TermDoc).
type Terminal struct {
	Rec store.Record
	Doc TermDoc
	Own TerminalOwn
}

// The members of a terminal's document that the engine writes and other
// modules read, as record.Str and record.Int read the map document: the
// engine writes the strings as strings and the numbers as integers, so
// these are its values; a string member stored as a number reads as the
// number's text, a number member stored as a string or an integral float
// as its value (TermDoc.intOf, strOf).

// MtID returns the terminal's mt_id (a string only).
func (t Terminal) MtID() string { return t.Doc.MtID.Value }

// Account returns the terminal's account.
func (t Terminal) Account() string { return t.Doc.strOf(t.Doc.Account, "account") }

// AccountType returns the terminal's account type.
func (t Terminal) AccountType() int { return t.Doc.intOf(t.Doc.AccountType, "account_type") }

// Alias returns the terminal's alias (its name).
func (t Terminal) Alias() string { return t.Doc.strOf(t.Doc.Alias, "alias") }

// E164 returns the terminal's E164 number.
func (t Terminal) E164() string { return t.Doc.strOf(t.Doc.E164, "e164") }

// IP returns the terminal's IP address.
func (t Terminal) IP() string { return t.Doc.strOf(t.Doc.IP, "ip") }

// Type returns the terminal's type (1 a terminal, TypeSubordinate, TypeSuperior, ...).
func (t Terminal) Type() int { return t.Doc.intOf(t.Doc.Type, "type") }

// Protocol returns the terminal's call protocol (0 H.323, 1 SIP).
func (t Terminal) Protocol() int { return t.Doc.intOf(t.Doc.Protocol, "protocol") }

// Bitrate returns the terminal's call bit rate.
func (t Terminal) Bitrate() int { return t.Doc.intOf(t.Doc.Bitrate, "bitrate") }

// CallMode returns how the terminal is called (CallManual, CallAutomatic, CallChase).
func (t Terminal) CallMode() int { return t.Doc.intOf(t.Doc.CallMode, "call_mode") }

// Online returns the terminal's online flag (1 in the call).
func (t Terminal) Online() int { return t.Doc.intOf(t.Doc.Online, "online") }

// Silence returns the terminal's silence flag (1 it hears nothing).
func (t Terminal) Silence() int { return t.Doc.intOf(t.Doc.Silence, "silence") }

// Mute returns the terminal's mute flag (1 it is not heard).
func (t Terminal) Mute() int { return t.Doc.intOf(t.Doc.Mute, "mute") }

// Poll returns the terminal's poll flag.
func (t Terminal) Poll() int { return t.Doc.intOf(t.Doc.Poll, "poll") }

// Dual returns the terminal's dual-stream flag.
func (t Terminal) Dual() int { return t.Doc.intOf(t.Doc.Dual, "dual") }

// Mix returns the terminal's mix flag.
func (t Terminal) Mix() int { return t.Doc.intOf(t.Doc.Mix, "mix") }

// VMP returns the terminal's picture composition flag.
func (t Terminal) VMP() int { return t.Doc.intOf(t.Doc.VMP, "vmp") }

// Inspection returns the terminal's selective viewing flag.
func (t Terminal) Inspection() int { return t.Doc.intOf(t.Doc.Inspection, "inspection") }

// Recorded returns the terminal's recording flag (rec).
func (t Terminal) Recorded() int { return t.Doc.intOf(t.Doc.Rec, "rec") }

// Upload returns the terminal's upload flag.
func (t Terminal) Upload() int { return t.Doc.intOf(t.Doc.Upload, "upload") }

// RcvVolume returns the terminal's loudspeaker volume.
func (t Terminal) RcvVolume() int { return t.Doc.intOf(t.Doc.RcvVolume, "rcv_volume") }

// SndVolume returns the terminal's microphone volume.
func (t Terminal) SndVolume() int { return t.Doc.intOf(t.Doc.SndVolume, "snd_volume") }

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
	rec, err := e.st.GetRecord(ctx, record.KindMT, c.DomainMoid, recID(c.ConfID, mtID))
	if errors.Is(err, store.ErrNotFound) {
		return Terminal{}, ErrNotFound
	}
	if err != nil {
		return Terminal{}, err
	}
	return DecodeTerminal(rec)
}

// List returns the terminals of a conference in the order they were added.
func (e *Engine) List(ctx context.Context, c Conf) ([]Terminal, error) {
	recs, _, err := e.st.ListRecords(ctx, TerminalsQuery(c))
	if err != nil {
		return nil, err
	}
	return DecodeTerminals(recs)
}

// TerminalsQuery and DecodeTerminals are List for those that read a
// conference's terminals from the store themselves, not through the
// engine: the feature hooks, which return to the engine what they decided
// (features_apply.go).
func TerminalsQuery(c Conf) store.RecordQuery {
	return store.RecordQuery{Kind: record.KindMT, DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID}
}

// DecodeTerminals decodes the records of TerminalsQuery in the order the
// terminals were added.
func DecodeTerminals(recs []store.Record) ([]Terminal, error) {
	out := make([]Terminal, 0, len(recs))
	for _, rec := range recs {
		t, err := DecodeTerminal(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	sortByMtID(out)
	return out, nil
}

func sortByMtID(ts []Terminal) {
	n := func(t Terminal) int { v, _ := strconv.Atoi(t.MtID()); return v }
	// Stable, in n log n: a conference lists up to max_join_mt terminals
	// on every leave (an insertion sort was a fifth of a SIP call's
	// tear-down).
	slices.SortStableFunc(ts, func(a, b Terminal) int { return cmp.Compare(n(a), n(b)) })
}

// save writes a terminal over the version it was read at.
func (e *Engine) save(ctx context.Context, t *Terminal) error {
	data, err := encodeTerminal(*t)
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

// MtIDText returns the terminal's mt_id as the replies read it (a number
// stored for it as its text; MtID reads a string only).
func (t Terminal) MtIDText() string { return t.Doc.strOf(t.Doc.MtID, "mt_id") }
