// Package upu serves unified presence: Confer's presence of a user
// domain's terminals (from the terminal directory and the conference
// engine's terminal records) and accounts (from their login sessions).
// The version query is the system module's. docs/upu.md describes the
// endpoints.
package upu

import (
	"context"
	"sort"
	"time"

	"encoding/json"
	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
)

// Presence states of a terminal.
const (
	Online  = "online"
	Calling = "calling"
	Offline = "offline"
)

// Module is the upu module's state.
type Module struct {
	st         store.Store
	clk        clock.Clock
	confs      *engine.Conferences
	sessionTTL time.Duration
}

// New returns the module; sessionTTL is the login sessions' lifetime
// (auth.Config.SessionTTL), from which login and activity times follow.
func New(st store.Store, clk clock.Clock, confs *engine.Conferences, sessionTTL time.Duration) *Module {
	return &Module{st: st, clk: clk, confs: confs, sessionTTL: sessionTTL}
}

// Routes is the upu route table: each endpoint of the module with its
// handler. server.New attaches it; internal/catalog describes the endpoints.
func (m *Module) Routes() api.Routes {
	return api.Routes{
		"upu.terminals.list": api.Typed(m.terminals),
		"upu.accounts.list":  api.Typed(m.accounts),
	}
}

// paging is a list's start (default 0) and count (default 10; 0 for all).
func paging(start, count model.Opt[int]) (int, int) {
	return max(start.Or(0), 0), max(count.Or(10), 0)
}

func pageOf[T any](xs []T, start, count int) []T {
	if start >= len(xs) {
		return nil
	}
	xs = xs[start:]
	if count > 0 && count < len(xs) {
		xs = xs[:count]
	}
	return xs
}

// stamp writes a time in the clock's zone; "" for none.
func (m *Module) stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return record.FormatTime(t.In(m.clk.Now().Location()))
}

// class is the presence state of a terminal record's state.
func class(state string) string {
	switch state {
	case engine.StateOnline:
		return Online
	case engine.StateCalling:
		return Calling
	}
	return Offline
}

// rank orders presence states: online above calling above offline.
func rank(s string) int {
	switch s {
	case Online:
		return 2
	case Calling:
		return 1
	}
	return 0
}

// terminal is one terminal's presence being worked out.
type terminal struct {
	doc model.UPUTerminalsListReplyTerminal
	rec *store.Record // its most present terminal record, nil when in no running conference
	mt  storedMT
}

// storedMT is what presence reads of a terminal's stored document (the
// engine's).
type storedMT struct {
	MtID    record.Text `json:"mt_id"`
	Account record.Text `json:"account"`
	Alias   record.Text `json:"alias"`
	E164    record.Text `json:"e164"`
	IP      record.Text `json:"ip"`
}

// terminals serves the presence of the domain's terminals: the directory's
// entries of the domain (and those of no domain, which every domain may
// call) and every terminal of the domain's running conferences. Another
// domain's conferences are not looked at.
func (m *Module) terminals(ctx context.Context, r *api.Request) (*model.UPUTerminalsListReply, error) {
	var q model.UPUTerminalsListRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	dir, err := m.st.ListDirectory(ctx)
	if err != nil {
		return nil, err
	}
	byAccount := map[string]*terminal{}
	for _, e := range dir {
		if e.DomainMoid != domain && e.DomainMoid != "" {
			continue
		}
		byAccount[e.Account] = &terminal{doc: model.UPUTerminalsListReplyTerminal{Account: e.Account, Alias: e.Alias, E164: e.E164, IP: e.IP, InDirectory: 1}}
	}
	confs, err := m.confs.Records(ctx, domain, "", engine.StateRunning)
	if err != nil {
		return nil, err
	}
	names := map[string]string{} // the running conferences' names, read from their stored bytes
	for _, rec := range confs {
		var c struct {
			Name record.Text `json:"name"`
		}
		if err := json.Unmarshal(rec.Data, &c); err != nil {
			return nil, err
		}
		names[rec.ID] = string(c.Name)
	}
	mts, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	var from time.Time
	for i := range mts {
		rec := &mts[i]
		if _, ok := names[rec.OwnerMoid]; !ok {
			continue // its conference has ended
		}
		var doc storedMT
		if err := json.Unmarshal(rec.Data, &doc); err != nil {
			return nil, err
		}
		acct := string(doc.Account)
		t := byAccount[acct]
		if t == nil {
			t = &terminal{doc: model.UPUTerminalsListReplyTerminal{Account: acct, Alias: string(doc.Alias),
				E164: string(doc.E164), IP: string(doc.IP)}}
			byAccount[acct] = t
		}
		if t.rec == nil || rank(class(rec.State)) > rank(class(t.rec.State)) ||
			(rank(class(rec.State)) == rank(class(t.rec.State)) && rec.UpdatedAt.After(t.rec.UpdatedAt)) {
			t.rec, t.mt = rec, doc
		}
		if from.IsZero() || rec.CreatedAt.Before(from) {
			from = rec.CreatedAt
		}
	}
	history := map[string][]store.Event{}
	if !from.IsZero() {
		evs, err := m.st.RecentEvents(ctx, record.KindMT, domain, from)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			history[e.ID] = append(history[e.ID], e)
		}
	}
	filter := q.Account.Value
	var list []model.UPUTerminalsListReplyTerminal
	for acct, t := range byAccount {
		if filter != "" && acct != filter {
			continue
		}
		doc := t.doc
		doc.State = Offline
		if t.rec != nil {
			st := class(t.rec.State)
			doc.State = st
			doc.Since = m.stamp(since(history[t.rec.ID], st, *t.rec))
			if st != Offline {
				doc.Online = flag(st == Online)
				doc.ConfID, doc.ConfName = t.rec.OwnerMoid, names[t.rec.OwnerMoid]
				doc.MtID = string(t.mt.MtID)
			}
		}
		list = append(list, doc)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Account < list[j].Account })
	start, count := paging(q.Start, q.Count)
	return &model.UPUTerminalsListReply{Total: len(list), Terminals: pageOf(list, start, count)}, nil
}

// since is when a terminal record entered its present state: the time of
// the first of the trailing run of its events whose state is of that
// presence state (events of the same state, such as media controls
// while online, do not break the run). Without events (pruned) it is the
// record's creation.
func since(evs []store.Event, st string, rec store.Record) time.Time {
	t := rec.CreatedAt
	if len(evs) == 0 {
		return t
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Op == store.OpDelete {
			continue
		}
		if class(evs[i].State) != st {
			break
		}
		t = evs[i].At
	}
	return t
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// accounts serves the presence of the domain's accounts: online while a
// login session lives.
func (m *Module) accounts(ctx context.Context, r *api.Request) (*model.UPUAccountsListReply, error) {
	var q model.UPUAccountsListRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	as, _, err := m.st.ListAccounts(ctx, store.AccountQuery{DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	ss, err := m.st.ListSessions(ctx, domain, now)
	if err != nil {
		return nil, err
	}
	type presence struct {
		n             int
		login, active time.Time
	}
	live := map[string]*presence{}
	for _, s := range ss {
		p := live[s.AccountMoid]
		if p == nil {
			p = &presence{}
			live[s.AccountMoid] = p
		}
		p.n++
		if !s.LoginExpiresAt.IsZero() {
			if login := s.LoginExpiresAt.Add(-m.sessionTTL); p.login.IsZero() || login.Before(p.login) {
				p.login = login
			}
		}
		if active := s.ExpiresAt.Add(-m.sessionTTL); active.After(p.active) {
			p.active = active
		}
	}
	// A SIP terminal registered under the account's E.164 number makes it
	// online too (docs/sip.md "Registrar").
	regs, err := sipcred.Live(ctx, m.st, domain, now)
	if err != nil {
		return nil, err
	}
	filter := q.Account.Value
	var list []model.UPUAccountsListReplyAccount
	for _, a := range as {
		if filter != "" && a.Username != filter {
			continue
		}
		doc := model.UPUAccountsListReplyAccount{AccountMoid: a.Moid, Account: a.Username, Name: a.Name, Enable: flag(!a.Disabled)}
		if p := live[a.Moid]; p != nil && !a.Disabled {
			doc.Online, doc.Sessions, doc.Since, doc.LastActive = 1, p.n, m.stamp(p.login), m.stamp(p.active)
		} else if reg, ok := regs[a.Moid]; ok && !a.Disabled {
			doc.Online, doc.Since, doc.LastActive = 1, m.stamp(reg.Since), m.stamp(reg.Since)
		}
		list = append(list, doc)
	}
	start, count := paging(q.Start, q.Count)
	return &model.UPUAccountsListReply{Total: len(list), Accounts: pageOf(list, start, count)}, nil
}
