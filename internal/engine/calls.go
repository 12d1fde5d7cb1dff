package engine

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// ErrFull is returned when a conference has max_join_mt terminals.
var ErrFull = errors.New("engine: the conference has max_join_mt terminals")

// Member is a terminal to add (seed 000 "Terminal entry").
type Member struct {
	Callee   media.Callee
	CallMode int  // -1: the conference's
	Chase    bool // keep calling it whenever it is not online (keep_calling_members)
	Dial     bool // call it once even in manual mode (invited members at the start)
}

// Call dials terminals that are not online (reference 05 "批量呼叫终端");
// a cascaded mt_id is called by its own conference.
func (e *Engine) Call(ctx context.Context, c Conf, mtIDs []string) error {
	return e.eachConf(ctx, c, mtIDs, e.callLocal)
}

func (e *Engine) callLocal(ctx context.Context, c Conf, mtIDs []string) error {
	for _, id := range mtIDs {
		if err := e.callOne(ctx, c, id); err != nil {
			return err
		}
	}
	return nil
}

// callRetries bounds how often a call is placed again when the terminal
// changed between its read and the call's write (a hang-up still running).
const callRetries = 4

// callOne dials one terminal that is not online, reading it again when
// another writer changed it meanwhile.
func (e *Engine) callOne(ctx context.Context, c Conf, id string) error {
	for attempt := 0; ; attempt++ {
		t, err := e.Get(ctx, c, id)
		if err != nil {
			return err
		}
		if t.Rec.State == StateOnline || t.Rec.State == StateCalling {
			return nil
		}
		t.Own.Attempts = model.Some(0)
		_, err = e.dial(ctx, c, t)
		if errors.Is(err, store.ErrConflict) && attempt < callRetries {
			continue
		}
		return err
	}
}

// dial places a call and stores the terminal as being called (dialed
// follows it up).
func (e *Engine) dial(ctx context.Context, c Conf, t Terminal) (Terminal, error) {
	answered, err := e.placeCall(ctx, c, &t)
	if err != nil {
		return t, err
	}
	if err := e.save(ctx, &t); err != nil {
		e.abandon(ctx, c, []Terminal{t})
		return t, err
	}
	e.calls.Attempted.Add(1) // counted once stored: a call placed again after a conflict is one attempt
	return e.dialed(ctx, c, t, answered)
}

// placeCall places a terminal's call and marks it as being called in t,
// which the caller stores (dial, Add) before dialed follows it up. A
// conference number is a cascade link, answered at once by the engine
// (cascade.go): answered is then true, and t holds the outcome. Any other
// call goes out through the media backend, which reports its outcome
// later (CallOutcome, events.go), or at once: a report that comes before
// the terminal is stored is kept until dialed applies it.
func (e *Engine) placeCall(ctx context.Context, c Conf, t *Terminal) (answered bool, err error) {
	call, peer, isPeer, err := e.dialPeer(ctx, c, t.callee())
	if err != nil {
		return false, err
	}
	if !isPeer {
		e.predial(c, []Terminal{*t})
		id, err := e.media.Dial(ctx, c.ConfID, t.MtID(), t.callee())
		if err != nil {
			e.undial(c, []Terminal{*t})
			return false, err
		}
		setAddress(t, id)
	}
	return calling(t, call, peer, isPeer), nil
}

// predial notes the calls of ts as being placed, so that an outcome
// reported before they are stored is kept (early).
func (e *Engine) predial(c Conf, ts []Terminal) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, t := range ts {
		e.dialing[recID(c.ConfID, t.MtID())] = nil
	}
}

// calling marks t as being called (placeCall), answered at once when the
// callee is a peer conference.
func calling(t *Terminal, call linkCall, peer Peer, isPeer bool) (answered bool) {
	t.Own.CascadeConf, t.Own.OccupyCode, t.Own.OccupyConfName = model.Opt[string]{}, model.Opt[int]{}, model.Opt[string]{}
	delete(t.Doc.Extra, DocCascadeConf) // of another form
	delete(t.Doc.Extra, DocOccupyCode)
	delete(t.Doc.Extra, DocOccupyConfName)
	t.Own.Attempts = model.Some(t.Own.Attempts.Value + 1)
	t.Rec.State, t.Rec.DueAt = StateCalling, time.Time{} // until the outcome is reported
	if !isPeer {
		return false
	}
	if peer.Live {
		t.Own.CascadeConf = model.Some(peer.Conf.ConfID)
	}
	setIdentity(t, call.outcome, call.identity)
	return true
}

// outcome is a call's outcome reported before its terminal was stored.
type outcome struct {
	o  media.Outcome
	id media.Identity
}

// early keeps a report for a call being placed (placeCall to dialed);
// false when no such call is being placed here.
func (e *Engine) early(conf, mt string, o outcome) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := recID(conf, mt)
	if _, ok := e.dialing[key]; !ok {
		return false
	}
	e.dialing[key] = &o
	return true
}

// abandon ends the calls of ts whose records could not be stored (another
// writer changed them meanwhile): the backend hangs them up, so no real
// call rings on for a terminal the store does not say is being called.
func (e *Engine) abandon(ctx context.Context, c Conf, ts []Terminal) {
	e.undial(c, ts)
	for _, t := range ts {
		if t.Rec.State == StateCalling && !t.Own.CascadeConf.Set {
			_ = e.media.Hangup(ctx, c.ConfID, t.MtID())
		}
	}
}

// undial forgets the calls of ts being placed.
func (e *Engine) undial(c Conf, ts []Terminal) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, t := range ts {
		delete(e.dialing, recID(c.ConfID, t.MtID()))
	}
}

// callee is whom a terminal's call is for.
func (t Terminal) callee() media.Callee {
	return media.Callee{Account: t.Account(), AccountType: t.Doc.AccountType.Value, Protocol: t.Protocol(), Bitrate: t.Bitrate()}
}

// setAddress writes what was learned of a terminal into its document.
func setAddress(t *Terminal, id media.Identity) {
	if id.Alias != "" {
		t.Doc.Alias = model.Some(id.Alias)
	}
	t.Doc.E164, t.Doc.IP, t.Doc.Type = model.Some(id.E164), model.Some(id.IP), model.Some(id.MtType)
}

// setIdentity writes a call's outcome and what was learned of the
// terminal into its document.
func setIdentity(t *Terminal, o media.Outcome, id media.Identity) {
	setAddress(t, id)
	t.Own.Outcome = model.Some(int(o))
}

// dialed follows up a call that t, as stored, records: a link's outcome,
// or one the backend reported while the call was placed, applies now.
func (e *Engine) dialed(ctx context.Context, c Conf, t Terminal, answered bool) (Terminal, error) {
	if answered {
		return e.settle(ctx, c, t)
	}
	key := recID(c.ConfID, t.MtID())
	e.mu.Lock()
	o := e.dialing[key]
	delete(e.dialing, key)
	e.mu.Unlock()
	if o == nil {
		return t, nil
	}
	setIdentity(&t, o.o, o.id)
	return e.settle(ctx, c, t)
}

// CallCounts counts an engine's dials and the dials that were not
// answered, for the metrics at /metrics (internal/ops). Each engine has
// its own, so that servers sharing a process (the multi-node tests) count
// apart.
type CallCounts struct {
	Attempted, Failed atomic.Int64
}

// Calls returns the engine's call counts.
func (e *Engine) Calls() *CallCounts { return &e.calls }

// settle applies a due call's outcome: online with channels, or a failure
// that is retried per the conference's call settings.
func (e *Engine) settle(ctx context.Context, c Conf, t Terminal) (Terminal, error) {
	if media.Outcome(t.Own.Outcome.Value) == media.Answered {
		if err := e.link(ctx, c, t); errors.Is(err, ErrRefused) {
			t.Own.Outcome = model.Some(int(media.Busy))
			return e.settle(ctx, c, t)
		} else if err != nil {
			return t, err
		}
		prev := t
		prev.Doc = t.Doc.clone()
		t.Rec.State, t.Rec.DueAt = StateOnline, time.Time{}
		t.Doc.Online = model.Some(1)
		t.Doc.setChannels(t.Bitrate())
		var occ errOccupied
		if err := e.goOnline(ctx, c, &t); errors.As(err, &occ) { // busy in another conference
			t = prev
			t.Own.Outcome, t.Own.OccupyCode = model.Some(int(media.Busy)), model.Some(occ.code)
			if occ.name != "" {
				t.Own.OccupyConfName = model.Some(occ.name)
			}
			return e.settle(ctx, c, t)
		} else if err != nil {
			return t, err
		}
		return t, e.joined(ctx, c, t)
	}
	t.Doc.Online = model.Some(0)
	t.Rec.State, t.Rec.DueAt = StateIdle, time.Time{}
	if e.retries(c, t) {
		t.Rec.State = StateCalling
		t.Rec.DueAt = e.clk.Now().Add(interval(c))
		t.Own.Redial = model.Some(true)
	}
	if err := e.save(ctx, &t); err != nil {
		return t, err
	}
	e.calls.Failed.Add(1) // counted once stored: settled again after a conflict, one failure
	return t, nil
}

// retries tells whether a failed call is called again: automatic mode
// within call_times attempts (0 = no limit), chase mode and
// keep_calling_members always; manual mode never.
func (e *Engine) retries(c Conf, t Terminal) bool {
	if t.Own.Chase.Value {
		return true
	}
	switch t.CallMode() {
	case CallChase:
		return true
	case CallAutomatic:
		return c.CallTimes == 0 || t.Own.Attempts.Value < c.CallTimes
	}
	return false
}

func interval(c Conf) time.Duration {
	if c.CallInterval > 0 {
		return c.CallInterval
	}
	return DefaultCallInterval
}

// Hangup ends terminals' calls; they stay members of the conference
// (reference 05 "批量挂断终端").
func (e *Engine) Hangup(ctx context.Context, c Conf, mtIDs []string) error {
	return e.eachConf(ctx, c, mtIDs, e.hangupLocal)
}

func (e *Engine) hangupLocal(ctx context.Context, c Conf, mtIDs []string) error {
	var left []Terminal
	for _, id := range mtIDs {
		wasOnline := false
		t, err := e.Update(ctx, c, id, func(t *Terminal) error {
			wasOnline = t.Rec.State == StateOnline
			leaveCall(t)
			return nil
		})
		if err != nil {
			return err
		}
		if wasOnline {
			left = append(left, t)
		}
		if err := e.media.Hangup(ctx, c.ConfID, id); err != nil {
			return err
		}
	}
	if err := e.release(ctx, c, left); err != nil {
		return err
	}
	return e.left(ctx, c, mtIDs, false)
}

// leaveCall takes a terminal out of the call: idle, offline, without
// channels, no longer called again.
func leaveCall(t *Terminal) {
	t.Rec.State, t.Rec.DueAt = StateIdle, time.Time{}
	t.Doc.Online = model.Some(0)
	t.Own.Chase = model.Some(false)
	clearChannels(t)
}

func (e *Engine) left(ctx context.Context, c Conf, mtIDs []string, lost bool) error {
	if len(mtIDs) == 0 {
		return nil
	}
	e.closeCalls(ctx, c, mtIDs, lost) // history.go
	return e.apply(ctx, c, e.features.Left(ctx, c, mtIDs))
}

// Remove hangs up and deletes terminals (reference 05 "批量删除终端").
func (e *Engine) Remove(ctx context.Context, c Conf, mtIDs []string) error {
	return e.eachConf(ctx, c, mtIDs, e.removeLocal)
}

func (e *Engine) removeLocal(ctx context.Context, c Conf, mtIDs []string) error {
	var left []Terminal
	for _, id := range mtIDs {
		t, err := e.Get(ctx, c, id)
		if err != nil {
			return err
		}
		if t.Rec.State == StateOnline {
			left = append(left, t)
		}
	}
	for _, id := range mtIDs {
		if err := e.media.Hangup(ctx, c.ConfID, id); err != nil {
			return err
		}
		if err := e.st.DeleteRecord(ctx, record.KindMT, c.DomainMoid, recID(c.ConfID, id)); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if err := e.release(ctx, c, left); err != nil {
		return err
	}
	return e.left(ctx, c, mtIDs, false)
}

// RemoveAll deletes every terminal of an ended conference (the
// conference is gone, so Features.Left is not called).
func (e *Engine) RemoveAll(ctx context.Context, c Conf) error {
	ts, err := e.List(ctx, c)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := e.media.Hangup(ctx, c.ConfID, t.MtID()); err != nil {
			return err
		}
		if err := e.st.DeleteRecord(ctx, record.KindMT, c.DomainMoid, t.Rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if t.Rec.State == StateOnline {
			if err := e.release(ctx, c, []Terminal{t}); err != nil {
				return err
			}
		}
	}
	return nil
}

// ConfLookup gives the engine a conference's call settings when a due
// call settles.
type ConfLookup func(ctx context.Context, domainMoid, confID string) (Conf, bool, error)

// RunDueCalls settles every call whose outcome is due at the clock's now
// and redials the retries that are due (RunDue runs it with the running
// conferences; tests and benchmarks give their own lookup). A settlement is a swap over the version
// read, so with several nodes each call settles once.
func (e *Engine) RunDueCalls(ctx context.Context, lookup ConfLookup) error {
	due, err := e.st.DueRecords(ctx, record.KindMT, StateCalling, e.clk.Now())
	if err != nil {
		return err
	}
	for _, rec := range due {
		if mine, err := e.claim(ctx, rec); err != nil || !mine {
			if err != nil {
				return err
			}
			continue // another node has it (claim.go)
		}
		t, err := DecodeTerminal(rec)
		if err != nil {
			return err
		}
		c, ok, err := lookup(ctx, rec.DomainMoid, rec.OwnerMoid)
		if err != nil {
			return err
		}
		if !ok { // the conference is gone
			_ = e.st.DeleteRecord(ctx, record.KindMT, rec.DomainMoid, rec.ID)
			continue
		}
		if t.Own.Redial.Value {
			t.Own.Redial = model.Opt[bool]{}
			_, err = e.dial(ctx, c, t)
		} else {
			_, err = e.settle(ctx, c, t)
		}
		if err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

func str(v any) string { s, _ := v.(string); return s }

// num reads an integer from a document value (json.Number, int or float).
func num(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	case interface{ String() string }:
		n, _ := strconv.Atoi(x.String())
		return n
	}
	return 0
}
