package vc

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The time-driven media features of a conference (issue 6): polls,
// recording, playback, monitors and selective viewing. Their state lives in
// the conference document under the keys below, as JSON of the newest wire
// model plus stored timestamps (UNIX milliseconds); every time-driven value
// (the polled member, recording length, playback position, monitor expiry)
// is derived from those timestamps and the injected clock at read time
// (DESIGN principle 4), so no timer runs and a restart loses nothing.
//
//	vc_poll, vc_upload_poll, vc_chairman_poll  a poll (poll.go; typed:
//	                                           engine.Poll, c.Poll, ...)
//	vc_recorders                               the running recordings (rec.go;
//	                                           c.Recorders)
//	vc_playback                                the playback (playback.go;
//	                                           c.Playback)
//	vc_monitors                                the monitors (monitor.go;
//	                                           c.Monitors)
//	vc_inspections                             selective viewing (inspect.go;
//	                                           c.Inspections)
//
// This file holds what they share: the departure of terminals (timelineLeave) and the due sweep
// (RunDueTimeline). They are the server's own members of the
// conference, typed fields of engine.Conference (engine's own_poll.go,
// own_rec.go and own_vc.go).

// tlTerminals returns the conference's terminals by mt_id.
func (m *Module) tlTerminals(ctx context.Context, c engine.Conference) (map[string]engine.Terminal, error) {
	sub, err := m.cascadeTree(ctx, c) // subordinates' terminals, "4.1"
	if err != nil {
		return nil, err
	}
	return m.tlTerminalsTree(ctx, c, sub)
}

// tlTerminalsTree is tlTerminals with the terminals of c's subordinates
// given (a feature hook's tree, engine.Change).
func (m *Module) tlTerminalsTree(ctx context.Context, c engine.Conference, sub []engine.Terminal) (map[string]engine.Terminal, error) {
	ts, err := m.terminals(ctx, engine.ConfOf(c))
	if err != nil {
		return nil, err
	}
	out := make(map[string]engine.Terminal, len(ts)+len(sub))
	for _, t := range append(ts, sub...) {
		out[t.MtID()] = t
	}
	return out, nil
}

// tlOnline tells whether a terminal of the map is in the call.
func tlOnline(ts map[string]engine.Terminal, mtID string) bool {
	t, ok := ts[mtID]
	return ok && t.Rec.State == engine.StateOnline
}

// tlMember checks that mtID is a terminal of the conference (12104) and,
// with online, that it is in the call (20401).
func tlMember(c engine.Conference, ts map[string]engine.Terminal, field, mtID string, online bool) error {
	if _, ok := ts[mtID]; !ok || mtID == "" {
		return wire.Errorf(wire.CodeMTNotFound, "%s: terminal %q does not exist in conference %s", field, mtID, c.ID())
	}
	if online && !tlOnline(ts, mtID) {
		return wire.Errorf(CodeMtUnreachable, "%s: terminal %s of conference %s is not online", field, mtID, c.ID())
	}
	return nil
}

// tlMs is a stored timestamp; tlAt reads one back.
func tlMs(t time.Time) int64 { return t.UnixMilli() }

func tlAt(v any) time.Time { return time.UnixMilli(tlInt64(v)) }

func tlInt64(v any) int64 {
	switch x := v.(type) {
	case json.Number:
		n, _ := x.Int64()
		return n
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}

func tlInt(v any) int { n, _ := record.IntOK(v); return n }

func tlStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}

// tlObject tells whether a stored member is a JSON object (ok) and
// whether it has any member, from its encoding: the member may be
// decoded JSON or a typed value stored (record.Stored), and nothing of
// it is read as a map.
func tlObject(v any) (nonEmpty, ok bool) {
	b, err := json.Marshal(v)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return false, false
	}
	return string(b) != "{}", true
}

// timelineLeave keeps the features consistent when terminals leave the
// call (hung up or removed; issue 6 "Semantics that must hold"): each poll
// takes a new anchor so that the rotation skips them from now on (and
// stops when no member is left online, reference A3 20524), monitors of
// them are released, and selective viewings they take part in end. It is
// the timeline's part of a departure (leave.timeline), which the engine's
// Features.Left decides with the others (leave.go); the tests run it alone
// (TimelineLeave).
func (m *Module) timelineLeave(ctx context.Context, ec engine.Conf, mtIDs []string) error {
	l := &leave{m: m, ids: mtIDs, gone: make(leftSet, len(mtIDs))}
	for _, id := range mtIDs {
		l.gone[id] = true
	}
	nctx, notes := store.WithNotices(ctx) // failed viewings and monitors, with the write (push_notices.go)
	c, err := m.confUpdate(nctx, ec.DomainMoid, ec.ConfID, func(c *engine.Conference) (bool, error) {
		tree, err := m.cascadeTree(ctx, *c)
		if err != nil {
			return false, err
		}
		l.notices = nil
		changed, err := l.timeline(ctx, c, tree, m.clk.Now())
		notes.Set(l.notices...)
		return changed, err
	})
	if errors.Is(err, engine.ErrConfNotFound) {
		return nil // the conference has ended: nothing is left to keep consistent
	}
	if err != nil {
		return err
	}
	if err := m.inspectFlags(ctx, c, append(l.viewers, mtIDs...)); err != nil {
		return err
	}
	for _, id := range mtIDs { // a hung-up terminal is recorded no more
		if err := m.setTermFlags(ctx, engine.ConfOf(c), id, termFlags{Rec: model.Some(0)}); err != nil {
			return err
		}
	}
	return nil
}

// recorderLeave drops terminals that left from the members of every
// terminal recording; a terminal recording left without members keeps
// running (recording nothing) until it is stopped, so its program is not
// cut short by a dropped call.
func recorderLeave(c *engine.Conference, gone leftSet) bool {
	changed := false
	for i := range c.Recorders {
		rc := &c.Recorders[i]
		kept := []string{}
		for _, id := range rc.Members {
			if gone.has(id) {
				changed = true
				continue
			}
			kept = append(kept, id)
		}
		rc.Members = kept
	}
	return changed
}

// RunDueTimeline settles what time has changed in every running
// conference, so that stored documents catch up with what reads already
// derive: monitors whose heartbeat stopped are deleted, polls that
// completed their rounds are stopped (clearing poll_enable), and
// playbacks that reached the end of their program are stopped. The server
// tick calls it; each change is a swap over the version read, so several
// nodes may run it at once. It visits the running conferences whose
// documents hold such state (decoding a conference again only when its
// version changed, engine.Scan) and writes only those that changed.
func (m *Module) RunDueTimeline(ctx context.Context) error {
	confs, err := engine.Scan(ctx, m.st, &m.tlScan, engine.StateRunning, func(c engine.Conference) bool { return tlHasState(&c) })
	if err != nil {
		return err
	}
	var errs []error
	for _, sc := range confs {
		rec := sc.Key
		if !sc.Val {
			continue
		}
		nctx, notes := store.WithNotices(ctx) // push notifications go with the write (push_notices.go)
		_, err = m.confUpdate(nctx, rec.DomainMoid, rec.ID, func(c *engine.Conference) (bool, error) {
			now := m.clk.Now()
			changed := monitorSettle(c, now)
			changed = playbackSettle(c, now) || changed
			lost, ns, err := m.playbackLost(ctx, c, now)
			if err != nil {
				return false, err
			}
			notes.Set(ns...)
			changed = lost || changed
			if pollsActive(c) {
				ts, err := m.tlTerminals(ctx, *c)
				if err != nil {
					return false, err
				}
				for _, k := range pollKinds {
					changed = pollSettle(c, k, ts, now) || changed
				}
				changed = pollMark(c, ts, now) || changed
			}
			return changed, nil
		})
		if err != nil && !errors.Is(err, engine.ErrConfNotFound) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// tlHasState tells whether a conference holds any state of these
// features that time can change.
func tlHasState(c *engine.Conference) bool {
	return len(c.Monitors) > 0 || c.Playback != nil || pollsActive(c)
}
