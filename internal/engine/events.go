package engine

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// The engine's side of the media contract (media.Events): what the media
// plane reports lands here, and the engine applies it as it applies the
// API's changes, with the same records, events and feature reactions.
var _ media.Events = (*Engine)(nil)

// DocParticipant marks a terminal that arrived on its own (Joined): its
// value is the participant's kind ("browser", "whip").
const DocParticipant = "_participant"

// DocLost marks a terminal whose connection was lost (Left with lost).
const DocLost = "_lost"

// running finds a running conference by its number alone (the media plane
// knows no user domain): conference numbers are unique on the platform.
func (e *Engine) running(ctx context.Context, confID string) (Conf, bool, error) {
	if kl, ok := e.st.(store.KeyLister); ok {
		keys, err := kl.RecordKeys(ctx, record.KindConf, StateRunning)
		if err != nil {
			return Conf{}, false, err
		}
		for _, k := range keys {
			if k.ID == confID {
				return e.lookup(ctx, k.DomainMoid, confID)
			}
		}
		return Conf{}, false, nil
	}
	recs, _, err := e.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{StateRunning}})
	if err != nil {
		return Conf{}, false, err
	}
	for _, rec := range recs {
		if rec.ID == confID {
			return e.lookup(ctx, rec.DomainMoid, confID)
		}
	}
	return Conf{}, false, nil
}

// CallOutcome applies the outcome of terminal mt's call: online (its
// occupancy taken, Features.Joined), or a failure retried per the
// conference's call settings (settle, calls.go). A report for a terminal
// that is not being called, or whose call is a retry not yet placed, is
// ignored (hung up meanwhile, or reported twice).
func (e *Engine) CallOutcome(ctx context.Context, conf, mt string, o media.Outcome, id media.Identity) error {
	if e.early(conf, mt, outcome{o, id}) { // reported while the call is placed: dialed applies it
		return nil
	}
	c, ok, err := e.running(ctx, conf)
	if err != nil || !ok {
		return err
	}
	for {
		t, err := e.getLocal(ctx, c, mt)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if t.Rec.State != StateCalling || t.Own.Redial.Value {
			return nil
		}
		setIdentity(&t, o, id)
		_, err = e.settle(ctx, c, t)
		if errors.Is(err, store.ErrConflict) {
			continue // changed meanwhile: read it again
		}
		return err
	}
}

// Joined makes a participant that arrived on its own a terminal of the
// conference, online from the start: listed with the others (its name as
// alias), counted against max_join_mt and the platform's terminal ports
// (as vc's POST .../mts counts them), pushed on the terminal channels
// like any terminal (its record's events), and given the conference's
// state (Features.Joined). It is no call identity: it takes no occupancy.
func (e *Engine) Joined(ctx context.Context, conf string, p media.Participant) (string, error) {
	c, ok, err := e.running(ctx, conf)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", media.ErrEnded
	}
	if p.Name == "" {
		return "", media.ErrRefused
	}
	all, err := e.st.CountRecords(ctx, store.RecordQuery{Kind: record.KindMT, States: []string{StateOnline, StateCalling}})
	if err != nil {
		return "", err
	}
	if all >= e.confs.cfg.MaxPorts {
		return "", media.ErrFull
	}
	if left, shared, err := e.confs.DomainPortsLeft(ctx, c.DomainMoid, c.ConfID); err != nil { // share.go
		return "", err
	} else if shared && left == 0 {
		return "", media.ErrFull
	}
	account := p.Account
	if account == "" {
		account = p.Name
	}
	a := arrival{Account: account, AccountType: p.AccountType, Protocol: p.Protocol, Type: 1, Alias: p.Name,
		E164: p.E164, IP: p.IP, Participant: model.Some(p.Kind)}
	key, field, offline := p.Rejoin, DocRejoin, false
	if key == "" && p.Caller != "" { // a caller calling in again (issue 38 item 8)
		key, field, offline = p.Caller, DocCaller, true
	}
	if key != "" {
		a.KeyField, a.Key = field, key
		t, ok, err := e.rejoin(ctx, c, a, offline) // rejoin.go
		if err != nil || ok {
			if errors.Is(err, ErrFull) {
				return "", media.ErrFull
			}
			if err != nil {
				return "", err
			}
			return t.MtID(), e.joined(ctx, c, t)
		}
	}
	t, err := e.addOnline(ctx, c, a)
	if errors.Is(err, ErrFull) {
		return "", media.ErrFull
	}
	if err != nil {
		return "", err
	}
	return t.MtID(), e.joined(ctx, c, t)
}

// Left takes a terminal out of the call when the media plane saw it go:
// offline, its occupancy freed, and dropped from the roles and features
// (Features.Left). lost marks a connection lost rather than closed.
func (e *Engine) Left(ctx context.Context, conf, mt string, lost bool) error {
	return e.leave(ctx, conf, mt, lost, nil)
}

// errStays ends a leave that keep refused.
var errStays = errors.New("engine: the terminal stays")

// leave is Left; keep (nil: none) may refuse it for the terminal as
// stored.
func (e *Engine) leave(ctx context.Context, conf, mt string, lost bool, keep func(Terminal) bool) error {
	c, ok, err := e.running(ctx, conf)
	if err != nil || !ok {
		return err
	}
	wasOnline := false
	t, err := e.Update(ctx, c, mt, func(t *Terminal) error {
		if keep != nil && keep(*t) {
			return errStays
		}
		wasOnline = t.Rec.State == StateOnline
		leaveCall(t)
		if lost {
			t.Own.Lost = model.Some(true)
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) || errors.Is(err, errStays) {
		return nil
	}
	if err != nil || !wasOnline {
		return err
	}
	if err := e.release(ctx, c, []Terminal{t}); err != nil {
		return err
	}
	if t.Own.Participant.Value != "" {
		if err := e.pruneLeft(ctx, c); err != nil { // participants.go
			return err
		}
	}
	return e.left(ctx, c, []string{mt}, lost)
}

// KeyFrameRequest asks terminal mt for a key frame through the backend
// that carries its call.
func (e *Engine) KeyFrameRequest(ctx context.Context, conf, mt string) error {
	return e.media.Apply(ctx, conf, mt, media.Control{Kind: media.ControlKeyFrame})
}

// SetBroadcast tells the media plane what the conference's participants
// see (conference control calls it on every change of speaker,
// composition, poll position or forced broadcast, and at the ticks that
// may move a composition or a poll): what this engine already told the
// media plane for the same version of the conference is not sent again.
func (e *Engine) SetBroadcast(ctx context.Context, c Conf, b media.Broadcast) error {
	if e.toldAlready(c, &b, nil) {
		return nil
	}
	if err := e.media.SetBroadcast(ctx, c.ConfID, b); err != nil {
		return err // not remembered: the next call sends it again
	}
	e.remember(c, &b, nil)
	return nil
}

// SetMix tells the media plane what the conference's participants hear;
// as SetBroadcast, it is not sent again for the same version.
func (e *Engine) SetMix(ctx context.Context, c Conf, m media.Mix) error {
	if e.toldAlready(c, nil, &m) {
		return nil
	}
	if err := e.media.SetMix(ctx, c.ConfID, m); err != nil {
		return err
	}
	e.remember(c, nil, &m)
	return nil
}

// told is what this engine last told the media plane of a conference,
// with the conference record's version each was computed from. Every node
// drives the same media owner: once another node changed the conference
// (a new version) what this node told may have been overwritten there,
// so a value is taken as told only for the version it was sent at (node
// A sets speaker 2, B sets 3, A sets 2 again: A's third request reads a
// newer version and is sent, issue 35 item 6).
type told struct {
	broadcast *media.Broadcast
	bVersion  int64
	mix       *media.Mix
	mVersion  int64
	at        time.Time // last sent: idle entries are swept
}

// toldIdle is how long an entry is kept after its last send; toldSweep
// how often the entries are swept. A swept conference (ended elsewhere,
// or unchanged for that long) costs at most one repeated send.
const (
	toldIdle  = 10 * time.Minute
	toldSweep = time.Minute
)

// toldAlready reports whether b or m was sent for conference c at its
// version.
func (e *Engine) toldAlready(c Conf, b *media.Broadcast, m *media.Mix) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.told[c.ConfID]
	switch {
	case !ok:
		return false
	case b != nil:
		return t.broadcast != nil && t.bVersion == c.Version && reflect.DeepEqual(*t.broadcast, *b)
	default:
		return t.mix != nil && t.mVersion == c.Version && reflect.DeepEqual(*t.mix, *m)
	}
}

// remember records b or m as sent for conference c at its version, after
// the media plane took it; it sweeps idle entries now and then.
func (e *Engine) remember(c Conf, b *media.Broadcast, m *media.Mix) {
	now := e.clk.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.told[c.ConfID]
	if b != nil {
		t.broadcast, t.bVersion = b, c.Version
	}
	if m != nil {
		t.mix, t.mVersion = m, c.Version
	}
	t.at = now
	e.told[c.ConfID] = t
	if now.Sub(e.swept) >= toldSweep {
		e.swept = now
		for id, x := range e.told {
			if now.Sub(x.at) >= toldIdle {
				delete(e.told, id)
			}
		}
	}
}

// DualStarted passes a terminal's own dual stream (a screen share) to
// conference control, which accepts it as the conference's source or
// refuses it (media.ErrRefused).
func (e *Engine) DualStarted(ctx context.Context, conf, mt string) error {
	c, ok, err := e.running(ctx, conf)
	if err != nil {
		return err
	}
	if !ok {
		return media.ErrEnded
	}
	st, err := e.State(ctx, c, mt)
	online := err == nil && st == StateOnline
	err = e.applyChange(ctx, c, e.features.DualStarted(ctx, c, mt, online))
	if errors.Is(err, ErrConfNotFound) {
		return fmt.Errorf("%w: %v", media.ErrEnded, err)
	}
	return err
}

// DualStopped passes the end of a terminal's own dual stream on.
func (e *Engine) DualStopped(ctx context.Context, conf, mt string) error {
	c, ok, err := e.running(ctx, conf)
	if err != nil || !ok {
		return err
	}
	return e.apply(ctx, c, e.features.DualStopped(ctx, c, mt))
}

// SetDual names the terminal whose dual stream the conference receives
// ("" none).
func (e *Engine) SetDual(ctx context.Context, c Conf, mtID string) error {
	return e.media.SetDual(ctx, c.ConfID, mtID)
}

// MediaMoved forgets what this engine told the media plane of a
// conference whose media another node's lease gave to this one (docs/media-nodes.md
// "Failover"): the new owner's SFU was told nothing, so the next
// SetBroadcast and SetMix are sent whatever the version.
func (e *Engine) MediaMoved(confID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.told, confID)
}
