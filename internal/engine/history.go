package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Conference history and call records (issue 41; a Confer extension,
// docs/conferences.md "History"). The platform keeps no ended conference:
// its end deletes the record. Operators of Pexip, Cisco Meeting Server and
// Jitsi expect call records, so the engine keeps them beside the
// platform's model:
//
//   - while a conference runs, every call of a terminal (from the moment
//     it is online to the moment it leaves) is one record of kind
//     record.KindCallRecord, owned by the conference number, in state
//     "open" until it leaves, then "closed";
//   - when the conference ends, one record of kind record.KindHistory
//     holds the conference (its number, name, creator, start and end) and
//     its calls, and the call records are deleted; it is deleted
//     Config.HistoryRetention after the end (RunDue).
//
// A failure to keep history is logged and never fails the call or the
// control that caused it: history follows the conference, it does not
// govern it.

// History states.
const (
	callOpen   = "open"
	callClosed = "closed"
	histEnded  = "ended"
)

// DefaultHistoryRetention is how long an ended conference's history is
// kept when Config.HistoryRetention is zero.
const DefaultHistoryRetention = 90 * 24 * time.Hour

// maxHistoryCalls bounds the calls kept in one conference's history (a
// conference of 192 terminals that each rejoin five times fits); the
// count of those left out is kept.
const maxHistoryCalls = 2000

// Call is one call of a terminal in a conference: from online to gone.
type Call struct {
	MtID     string    `json:"mt_id"`
	Alias    string    `json:"alias"`
	Account  string    `json:"account"`
	Protocol int       `json:"protocol"`
	E164     string    `json:"e164,omitempty"`
	IP       string    `json:"ip,omitempty"`
	Kind     string    `json:"kind,omitempty"` // how it joined: "browser", "whip", ... ; "" when called
	Joined   time.Time `json:"joined"`
	Left     time.Time `json:"left,omitzero"` // zero while in the call
	Lost     bool      `json:"lost,omitempty"`
}

// History is an ended conference with its calls.
type History struct {
	ID           string    `json:"history_id"`
	ConfID       string    `json:"conf_id"`
	Name         string    `json:"name"`
	CreatorMoid  string    `json:"creator_moid,omitempty"`
	CreatorName  string    `json:"creator_name,omitempty"`
	Start        time.Time `json:"start"`
	End          time.Time `json:"end"`
	Calls        []Call    `json:"calls"`
	CallsDropped int       `json:"calls_dropped,omitempty"`
}

// Participants counts the distinct terminals that took part.
func (h History) Participants() int {
	seen := map[string]bool{}
	for _, c := range h.Calls {
		seen[c.MtID] = true
	}
	return len(seen)
}

func (e *Engine) historyOn() bool { return e.confs.cfg.HistoryRetention >= 0 }

// joined records t's call and applies the conference's state to it
// (Features.Joined): every path that brings a terminal online ends here.
func (e *Engine) joined(ctx context.Context, c Conf, t Terminal) error {
	if e.historyOn() {
		now := e.clk.Now()
		call := Call{MtID: t.MtID(), Alias: t.Alias(), Account: t.Account(),
			Protocol: t.Protocol(), E164: t.E164(), IP: t.IP(),
			Kind: t.Own.Participant.Value, Joined: now}
		data, _ := json.Marshal(call)
		rec := store.Record{Kind: record.KindCallRecord, ID: fmt.Sprintf("%s/%s/%d", c.ConfID, call.MtID, now.UnixNano()),
			DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID, State: callOpen, Data: data, CreatedAt: now, UpdatedAt: now}
		if err := e.st.CreateRecord(ctx, rec); err != nil && !errors.Is(err, store.ErrDuplicate) {
			e.log.Warn("keeping a call record", "conf_id", c.ConfID, "mt_id", call.MtID, "err", err)
		}
	}
	return e.apply(ctx, c, e.features.Joined(ctx, c, t))
}

// closeCalls closes the open call records of c's terminals mtIDs (all
// when mtIDs is nil) at now.
func (e *Engine) closeCalls(ctx context.Context, c Conf, mtIDs []string, lost bool) {
	if !e.historyOn() {
		return
	}
	recs, _, err := e.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindCallRecord, DomainMoid: c.DomainMoid,
		OwnerMoid: c.ConfID, States: []string{callOpen}})
	if err != nil {
		e.log.Warn("reading call records", "conf_id", c.ConfID, "err", err)
		return
	}
	want := map[string]bool{}
	for _, id := range mtIDs {
		want[id] = true
	}
	now := e.clk.Now()
	for _, rec := range recs {
		var call Call
		if json.Unmarshal(rec.Data, &call) != nil || (mtIDs != nil && !want[call.MtID]) {
			continue
		}
		call.Left, call.Lost = now, lost
		rec.Data, _ = json.Marshal(call)
		rec.State, rec.UpdatedAt = callClosed, now
		if err := e.st.SwapRecord(ctx, rec); err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrNotFound) {
			e.log.Warn("closing a call record", "conf_id", c.ConfID, "mt_id", call.MtID, "err", err)
		}
	}
}

// keepHistory stores ended conference c's history with its calls, and
// deletes the call records.
func (e *Engine) keepHistory(ctx context.Context, c Conference) {
	if !e.historyOn() {
		return
	}
	conf := ConfOf(c)
	e.closeCalls(ctx, conf, nil, false)
	recs, _, err := e.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindCallRecord, DomainMoid: conf.DomainMoid, OwnerMoid: conf.ConfID})
	if err != nil {
		e.log.Warn("reading call records", "conf_id", conf.ConfID, "err", err)
		return
	}
	now := e.clk.Now()
	h := History{ID: historyID(conf.ConfID, now), ConfID: conf.ConfID, Name: c.nameString(),
		CreatorMoid: c.Rec.OwnerMoid, CreatorName: c.CreatorName(), End: now, Calls: []Call{}}
	h.Start = startOf(c)
	for _, rec := range recs {
		var call Call
		if json.Unmarshal(rec.Data, &call) != nil {
			continue
		}
		if len(h.Calls) < maxHistoryCalls {
			h.Calls = append(h.Calls, call)
		} else {
			h.CallsDropped++
		}
	}
	data, err := json.Marshal(h)
	if err != nil {
		return
	}
	rec := store.Record{Kind: record.KindHistory, ID: h.ID, DomainMoid: conf.DomainMoid, OwnerMoid: c.Rec.OwnerMoid,
		State: histEnded, DueAt: now.Add(e.retention()), Data: data, CreatedAt: now, UpdatedAt: now}
	if err := e.st.CreateRecord(ctx, rec); err != nil && !errors.Is(err, store.ErrDuplicate) {
		e.log.Warn("keeping a conference's history", "conf_id", conf.ConfID, "err", err)
		return
	}
	for _, r := range recs {
		if err := e.st.DeleteRecord(ctx, record.KindCallRecord, r.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			e.log.Warn("deleting a call record", "conf_id", conf.ConfID, "err", err)
		}
	}
}

func (e *Engine) retention() time.Duration {
	if r := e.confs.cfg.HistoryRetention; r > 0 {
		return r
	}
	return DefaultHistoryRetention
}

// historyID names an ended conference: its number and the end's time in
// milliseconds (numbers are reused by later conferences).
func historyID(confID string, end time.Time) string {
	return fmt.Sprintf("%s-%d", confID, end.UnixMilli())
}

// startOf is a conference's start time (start_time, ISO 8601), or its
// record's creation when unreadable.
func startOf(c Conference) time.Time {
	if t, err := record.ParseTime(c.startTimeString()); err == nil {
		return t
	}
	return c.Rec.CreatedAt
}

// runDueHistory deletes the histories whose retention ended.
func (e *Engine) runDueHistory(ctx context.Context) error {
	recs, err := e.st.DueRecords(ctx, record.KindHistory, histEnded, e.clk.Now())
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := e.st.DeleteRecord(ctx, record.KindHistory, r.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}

// HistoryQuery selects ended conferences: a user domain's, an account's
// own when Owner is set, whose name or number holds Keyword, ended in
// [From, To) when those are set; newest first.
type HistoryQuery struct {
	DomainMoid, Owner, Keyword string
	From, To                   time.Time
	Start, Count               int
}

// Histories lists ended conferences (without their calls' detail: Calls
// is kept, the caller projects) and the total that matched.
//
// Without a keyword or times the store pages; with them every history of
// the domain (or account) within the retention is read and filtered.
func (e *Engine) Histories(ctx context.Context, q HistoryQuery) ([]History, int, error) {
	sq := store.RecordQuery{Kind: record.KindHistory, DomainMoid: q.DomainMoid, OwnerMoid: q.Owner, Desc: true}
	filter := q.Keyword != "" || !q.From.IsZero() || !q.To.IsZero()
	if !filter {
		sq.Start, sq.Count = q.Start, q.Count
	}
	recs, total, err := e.st.ListRecords(ctx, sq)
	if err != nil {
		return nil, 0, err
	}
	kw := strings.ToLower(q.Keyword)
	all := []History{}
	for _, r := range recs {
		var h History
		if json.Unmarshal(r.Data, &h) != nil {
			continue
		}
		if kw != "" && !strings.Contains(strings.ToLower(h.Name), kw) && !strings.Contains(h.ConfID, kw) {
			continue
		}
		if (!q.From.IsZero() && h.End.Before(q.From)) || (!q.To.IsZero() && !h.End.Before(q.To)) {
			continue
		}
		all = append(all, h)
	}
	if !filter {
		return all, total, nil
	}
	total = len(all)
	if q.Start >= len(all) {
		return []History{}, total, nil
	}
	all = all[q.Start:]
	if q.Count > 0 && q.Count < len(all) {
		all = all[:q.Count]
	}
	return all, total, nil
}

// ErrHistoryNotFound is an unknown history id (or another account's).
var ErrHistoryNotFound = errors.New("engine: no such conference history")

// HistoryOf reads one ended conference with its calls; owner, when set,
// must be its creator.
func (e *Engine) HistoryOf(ctx context.Context, domainMoid, owner, id string) (History, error) {
	r, err := e.st.GetRecord(ctx, record.KindHistory, domainMoid, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && owner != "" && r.OwnerMoid != owner) {
		return History{}, ErrHistoryNotFound
	}
	if err != nil {
		return History{}, err
	}
	var h History
	if err := json.Unmarshal(r.Data, &h); err != nil {
		return History{}, err
	}
	return h, nil
}

// Histories lists ended conferences (Engine.Histories).
func (s *Conferences) Histories(ctx context.Context, q HistoryQuery) ([]History, int, error) {
	return s.eng.Histories(ctx, q)
}

// History reads one ended conference with its calls (Engine.HistoryOf).
func (s *Conferences) History(ctx context.Context, domainMoid, owner, id string) (History, error) {
	return s.eng.HistoryOf(ctx, domainMoid, owner, id)
}
