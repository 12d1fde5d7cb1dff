package engine

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Cascades (issue 13; reference 05 "获取会议级联信息", "获取级联会议终端列表"):
// a terminal whose account is the number of another live conference is a
// link: when its call is answered the called conference becomes a
// subordinate of the caller. The link terminal's mt_id is the cascade_id of
// the subordinate, and a terminal of the subordinate is known to the
// superior as "<link mt_id>.<its mt_id>" ("4.1"), deeper levels adding a
// component each ("4.2.3"). Every engine operation that takes an mt_id
// accepts such a path and acts on the terminal where it lives.

// Terminal types of reference 05 ("type": 7 下级会议, 8 上级会议).
const (
	TypeSubordinate = 7 // the superior's link terminal calling a subordinate
	TypeSuperior    = 8 // the subordinate's terminal standing for its superior
)

// DocCascadeConf is the field of a link terminal's document (in the
// superior) naming the subordinate conference it calls.
const DocCascadeConf = "_cascade_conf"

// DocUplink marks the subordinate's terminal of type 8 that stands for
// the superior; its value is the superior's conf_id.
const DocUplink = "_uplink"

// Peer is a conference that a terminal's account names.
type Peer struct {
	Conf Conf
	Name string
	Live bool // running; false for a conference number that is not
}

// ErrNoPeer is returned by Peers.Find for an account that names no
// conference.
var ErrNoPeer = errors.New("engine: not a conference number")

// Peers finds the conferences that links call. It is the seam of
// cascading: the local implementation (LocalPeers, embedded in conference
// control's Features) finds conferences of this platform; one that finds conferences on another platform would
// return them here, with the engine's operations on their terminals
// going to that platform (see docs/cascades.md "The seam").
type Peers interface {
	// Find looks an account up as a conference number of the domain:
	// ErrNoPeer when it is none.
	Find(ctx context.Context, domainMoid, account string) (Peer, error)
	// Conf returns a running conference of the domain by number (false
	// when it is not running).
	Conf(ctx context.Context, domainMoid, confID string) (Conf, bool, error)
}

// LocalPeers finds this platform's conferences (Peers) in the engine's
// conferences, read from the store: a running conference of the domain
// with that number, or a number in the platform's conference number
// range, is a conference number; only a running one is live. A
// conference of another user domain is no conference of the caller's
// (never linked: no user sees another domain's terminals). Conference
// control's Features embed it, so that the engine's lookups for a link
// do not go through conference control and back (docs/architecture.md
// "The other hooks, traced").
type LocalPeers struct{ Confs *Conferences }

// Find looks an account up as a conference number of the domain.
func (p LocalPeers) Find(ctx context.Context, domainMoid, account string) (Peer, error) {
	n, ok := confNumber(account)
	if !ok {
		return Peer{}, ErrNoPeer
	}
	c, err := p.Confs.Get(ctx, domainMoid, account, StateRunning)
	if err == nil {
		return Peer{Conf: runningConfOf(c), Name: c.Name(), Live: true}, nil
	}
	if !errors.Is(err, ErrConfNotFound) {
		return Peer{}, err
	}
	if cfg := p.Confs.Config(); n >= cfg.NumberMin && n <= cfg.NumberMax {
		return Peer{Conf: Conf{DomainMoid: domainMoid, ConfID: account}}, nil
	}
	return Peer{}, ErrNoPeer
}

// Conf returns a running conference's engine view, with its terminal
// limit.
func (p LocalPeers) Conf(ctx context.Context, domainMoid, confID string) (Conf, bool, error) {
	c, err := p.Confs.Get(ctx, domainMoid, confID, StateRunning)
	if errors.Is(err, ErrConfNotFound) {
		return Conf{}, false, nil
	}
	if err != nil {
		return Conf{}, false, err
	}
	return runningConfOf(c), true, nil
}

// runningConf is the running conference confID of the domain, with its
// terminal limit (false when it is not running).
func (e *Engine) runningConf(ctx context.Context, domainMoid, confID string) (Conf, bool, error) {
	return LocalPeers{e.confs}.Conf(ctx, domainMoid, confID)
}

// runningConfOf is the engine view of a running conference with its
// terminal limit.
func runningConfOf(c Conference) Conf {
	ec := ConfOf(c)
	ec.MaxJoinMt = c.Ports()
	return ec
}

// confNumber reads a conference number: up to 18 decimal digits.
func confNumber(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int64(r-'0')
	}
	return n, true
}

// dialPeer answers the call of a link at once: a live conference answers,
// a conference number that is not live is offline. ok is false for an
// account that is no conference number.
func (e *Engine) dialPeer(ctx context.Context, c Conf, callee media.Callee) (linkCall, Peer, bool, error) {
	p, err := e.features.Find(ctx, c.DomainMoid, callee.Account)
	if errors.Is(err, ErrNoPeer) {
		return linkCall{}, Peer{}, false, nil
	}
	if err != nil {
		return linkCall{}, Peer{}, false, err
	}
	id := media.Identity{Alias: p.Name, E164: p.Conf.ConfID, MtType: TypeSubordinate}
	if !p.Live {
		return linkCall{media.Offline, id}, p, true, nil
	}
	return linkCall{media.Answered, id}, p, true, nil
}

// linkCall is the outcome of a link's call, known at once.
type linkCall struct {
	outcome  media.Outcome
	identity media.Identity
}

// splitPath splits a cascaded mt_id into the link's mt_id and the rest;
// ok is false for a local mt_id. A leading "0." (the local conference, as
// reference 05 writes cascade ids) is dropped.
func splitPath(mtID string) (link, rest string, ok bool) {
	mtID = strings.TrimPrefix(mtID, "0.")
	return strings.Cut(mtID, ".")
}

// Sub returns the subordinate conference that a link terminal of c calls,
// while the link is online.
func (e *Engine) Sub(ctx context.Context, c Conf, linkMtID string) (Conf, error) {
	link, err := e.getLocal(ctx, c, linkMtID)
	if err != nil {
		return Conf{}, err
	}
	subID := link.Own.CascadeConf.Value
	if subID == "" || link.Rec.State != StateOnline {
		return Conf{}, ErrNotFound
	}
	sub, ok, err := e.features.Conf(ctx, c.DomainMoid, subID)
	if err != nil {
		return Conf{}, err
	}
	if !ok {
		return Conf{}, ErrNotFound
	}
	return sub, nil
}

// Resolve follows a cascaded mt_id down to the conference that holds the
// terminal and its mt_id there; a local mt_id resolves to c itself.
func (e *Engine) Resolve(ctx context.Context, c Conf, mtID string) (Conf, string, error) {
	for depth := 0; ; depth++ {
		link, rest, ok := splitPath(mtID)
		if !ok {
			return c, mtID, nil
		}
		if depth > maxDepth {
			return Conf{}, "", ErrNotFound
		}
		sub, err := e.Sub(ctx, c, link)
		if err != nil {
			return Conf{}, "", err
		}
		c, mtID = sub, rest
	}
}

// maxDepth bounds the levels a path may cross (the link step refuses
// loops, so a tree is never deeper than the conferences it holds).
const maxDepth = 16

// ResolveConf finds the conference of a cascade_id under c: "0" (or "")
// is c, "4" the subordinate that c's link terminal 4 calls, "4.2" the one
// that terminal 2 of that subordinate calls.
func (e *Engine) ResolveConf(ctx context.Context, c Conf, cascadeID string) (Conf, error) {
	if cascadeID == "0" || cascadeID == "" {
		return c, nil
	}
	cascadeID = strings.TrimPrefix(cascadeID, "0.")
	for _, link := range strings.Split(cascadeID, ".") {
		sub, err := e.Sub(ctx, c, link)
		if err != nil {
			return Conf{}, err
		}
		c = sub
	}
	return c, nil
}

// Prefixed lists the terminals of a conference as its superior at prefix
// sees them: without the terminal standing for that superior, each with a
// copy of its document whose mt_id carries the prefix ("4." + "1").
func Prefixed(ts []Terminal, prefix string) []Terminal {
	out := make([]Terminal, 0, len(ts))
	for _, t := range ts {
		if t.Own.Uplink.Value != "" {
			continue
		}
		id := prefix + t.MtID()
		t.Doc = t.Doc.clone() // the caller's terminal keeps its own
		t.Doc.MtID = model.Some(id)
		out = append(out, t)
	}
	return out
}

// Tree returns the terminals of every subordinate of c, at every level,
// with cascaded mt_ids (not c's own terminals).
func (e *Engine) Tree(ctx context.Context, c Conf) ([]Terminal, error) {
	return e.tree(ctx, c, "", 0)
}

func (e *Engine) tree(ctx context.Context, c Conf, prefix string, depth int) ([]Terminal, error) {
	if depth > maxDepth {
		return nil, nil
	}
	ts, err := e.List(ctx, c)
	if err != nil {
		return nil, err
	}
	var out []Terminal
	for _, t := range ts {
		if t.Own.CascadeConf.Value == "" || t.Rec.State != StateOnline {
			continue
		}
		sub, err := e.Sub(ctx, c, t.MtID())
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		subTs, err := e.List(ctx, sub)
		if err != nil {
			return nil, err
		}
		p := prefix + t.MtID() + "."
		out = append(out, Prefixed(subTs, p)...)
		deeper, err := e.tree(ctx, sub, p, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, deeper...)
	}
	return out, nil
}

// AddUplink adds to the subordinate sub the terminal of type 8 that
// stands for its superior sup (named supName): online at once, as the
// superior's call was answered.
func (e *Engine) AddUplink(ctx context.Context, sub Conf, sup Conf, supName string) (Terminal, error) {
	sub.MaxJoinMt = 0 // the superior takes its place whatever the subordinate's size
	return e.addOnline(ctx, sub, arrival{Account: sup.ConfID, Type: TypeSuperior, Alias: supName, E164: sup.ConfID,
		Uplink: model.Some(sup.ConfID)})
}

// arrival is what a terminal in the call from the start holds besides
// an online terminal's defaults (onlineTerminal): a participant that
// joined (Joined, rejoin) or a subordinate's uplink (AddUplink).
type arrival struct {
	Account     string
	AccountType int
	Protocol    int
	Type        int
	Alias       string
	E164        string
	IP          string
	Participant model.Opt[string] // DocParticipant
	Uplink      model.Opt[string] // DocUplink
	KeyField    string            // DocRejoin or DocCaller, holding Key; "" none
	Key         string
}

// apply writes a's members into a terminal's document.
func (a arrival) apply(t *Terminal) {
	d := &t.Doc
	d.Account, d.AccountType = model.Some(a.Account), model.Some(a.AccountType)
	d.Protocol, d.Type = model.Some(a.Protocol), model.Some(a.Type)
	d.Alias, d.E164, d.IP = model.Some(a.Alias), model.Some(a.E164), model.Some(a.IP)
	if a.Participant.Set {
		t.Own.Participant = a.Participant
	}
	if a.Uplink.Set {
		t.Own.Uplink = a.Uplink
	}
	switch a.KeyField {
	case DocRejoin:
		d.Rejoin = model.Some(a.Key)
	case DocCaller:
		d.Caller = model.Some(a.Key)
	}
}

// addOnline creates a terminal of c that is in the call from the start:
// ErrFull when c has max_join_mt terminals.
func (e *Engine) addOnline(ctx context.Context, c Conf, a arrival) (Terminal, error) {
	var t Terminal
	err := e.st.Atomic(ctx, func(tx store.Tx) error {
		if c.MaxJoinMt > 0 {
			n, err := countedTerminals(tx, c) // participants that left do not count (participants.go)
			if err != nil {
				return err
			}
			if n >= c.MaxJoinMt {
				return ErrFull
			}
		}
		n, err := tx.NextNumber("mt:"+c.ConfID, 1, 1<<31)
		if err != nil {
			return err
		}
		t, err = e.onlineTerminal(c, itoa(n), a)
		if err != nil {
			return err
		}
		return tx.CreateRecord(t.Rec)
	})
	return t, err
}

// onlineTerminal is the record of a terminal in the call.
func (e *Engine) onlineTerminal(c Conf, mtID string, a arrival) (Terminal, error) {
	t := newTerminalOf(mtID, c.Bitrate, CallManual)
	t.Doc.Online = model.Some(1)
	a.apply(&t)
	t.Doc.setChannels(c.Bitrate)
	now := e.clk.Now()
	rec := store.Record{Kind: record.KindMT, ID: recID(c.ConfID, mtID), DomainMoid: c.DomainMoid, OwnerMoid: c.ConfID,
		State: StateOnline, CreatedAt: now, UpdatedAt: now}
	return t.created(rec)
}

// link runs Features.Link for an answered link terminal; a refusal turns
// the answer into a failed call.
func (e *Engine) link(ctx context.Context, c Conf, t Terminal) error {
	subID := t.Own.CascadeConf.Value
	if subID == "" {
		return nil
	}
	p, err := e.features.Find(ctx, c.DomainMoid, subID)
	if errors.Is(err, ErrNoPeer) {
		return ErrRefused
	}
	if err != nil {
		return err
	}
	if !p.Live {
		return ErrRefused
	}
	return e.establish(ctx, c, t.MtID(), p) // cascade_link.go
}

// ErrRefused is a link that cannot be established (the subordinate is
// gone, or linking would make a loop): the call fails. Features.Link
// wraps it.
var ErrRefused = errors.New("engine: the cascade was refused")

// eachConf runs op for the terminals of mtIDs on the conference holding
// them: c's own, then each subordinate's. Every id is resolved before op
// runs, so an unknown one changes nothing.
func (e *Engine) eachConf(ctx context.Context, c Conf, mtIDs []string, op func(context.Context, Conf, []string) error) error {
	groups, err := e.byConf(ctx, c, mtIDs)
	if err != nil {
		return err
	}
	for _, g := range groups {
		if err := op(ctx, g.conf, g.ids); err != nil {
			return err
		}
	}
	return nil
}

// byConf groups mt_ids (local or cascaded) by the conference that holds
// them, in the order first named, with their ids there.
func (e *Engine) byConf(ctx context.Context, c Conf, mtIDs []string) ([]confIDs, error) {
	var out []confIDs
	idx := map[string]int{}
	for _, id := range mtIDs {
		cf, local, err := e.Resolve(ctx, c, id)
		if err != nil {
			return nil, err
		}
		i, ok := idx[cf.ConfID]
		if !ok {
			i = len(out)
			idx[cf.ConfID] = i
			out = append(out, confIDs{conf: cf})
		}
		out[i].ids = append(out[i].ids, local)
	}
	return out, nil
}

type confIDs struct {
	conf Conf
	ids  []string
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
