package nms

import (
	"context"
	"encoding/json"
	"net"
	"sort"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Terminals (reference 06 "请求指定用户域的终端设备列表", "请求非受管终端设备列
// 表", "请求终端在线统计数据"). The managed terminals of a user domain are
// the entries of the terminal directory in that domain; a terminal is
// online when the directory says it is reachable (any behaviour but
// offline) or it is online in a conference now. Unmanaged terminals are
// those that the domain's conferences have called although the directory
// does not list them (called by IP address or alias). A terminal's moid is
// derived from its domain and account, so it stays the same.

// terminal is a terminal known to a domain.
type terminal struct {
	moid, account, name, e164, ip, typ string
	managed, online                    bool
	protocol                           int
}

// terminalMoid is the moid of a domain's terminal.
func terminalMoid(domain, account string) string {
	return node.Moid("terminal:" + domain + ":" + account)
}

// protocolType names a terminal's call protocol (reference 04 protocol:
// 0 H.323, 1 SIP).
func protocolType(p int) string {
	if p == 1 {
		return "SIP"
	}
	return "H323"
}

// terminalOf reads a terminal record of the engine.
func terminalOf(domain string, t engine.Terminal) terminal {
	acct := t.Account()
	name := t.Alias()
	if name == "" {
		name = acct
	}
	return terminal{moid: terminalMoid(domain, acct), account: acct, name: name, e164: t.E164(),
		ip: t.IP(), typ: protocolType(t.Protocol()), protocol: t.Protocol()}
}

// terminals returns a domain's managed terminals by account, then the
// unmanaged ones its conferences called.
func (m *Module) terminals(ctx context.Context, domain string) ([]terminal, error) {
	dir, err := m.st.ListDirectory(ctx)
	if err != nil {
		return nil, err
	}
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	var out []terminal
	index := map[string]int{}
	for _, e := range dir {
		if e.DomainMoid != domain {
			continue
		}
		name := e.Alias
		if name == "" {
			name = e.Account
		}
		index[e.Account] = len(out)
		out = append(out, terminal{moid: terminalMoid(domain, e.Account), account: e.Account, name: name, e164: e.E164,
			ip: e.IP, typ: "H323", managed: true, online: e.Behaviour != "offline"})
	}
	// SIP terminals registered under an account's E.164 number are managed
	// and online while registered (docs/sip.md "Registrar").
	regs, err := sipcred.Live(ctx, m.st, domain, m.clk.Now())
	if err != nil {
		return nil, err
	}
	for _, r := range sortedRegs(regs) {
		if i, ok := index[r.E164]; ok {
			out[i].online = true
			continue
		}
		host, _, _ := net.SplitHostPort(r.Source)
		index[r.E164] = len(out)
		out = append(out, terminal{moid: terminalMoid(domain, r.E164), account: r.E164, name: r.E164, e164: r.E164,
			ip: host, typ: "SIP", managed: true, online: true, protocol: 1})
	}
	var unmanaged []terminal
	uindex := map[string]int{}
	for _, rec := range recs {
		mt, err := engine.DecodeTerminal(rec)
		if err != nil {
			return nil, err
		}
		t := terminalOf(domain, mt)
		t.online = rec.State == engine.StateOnline
		if i, ok := index[t.account]; ok {
			out[i].online = out[i].online || t.online
			continue
		}
		if i, ok := uindex[t.account]; ok {
			unmanaged[i].online = unmanaged[i].online || t.online
			continue
		}
		uindex[t.account] = len(unmanaged)
		unmanaged = append(unmanaged, t)
	}
	sort.SliceStable(unmanaged, func(i, j int) bool { return unmanaged[i].account < unmanaged[j].account })
	return append(out, unmanaged...), nil
}

// listRule is the start and count of the nms lists: defaults 0 and 10,
// count 0 lists nothing.
var listRule = paging.Rule{DefaultCount: 10}

// listPage reads the page of an nms list.
func listPage(r *api.Request) paging.Window { return paging.Read(r.Args.Query, listRule) }

// userTerminals lists the managed terminals of the caller's domain (99992
// for any other domain).
func (m *Module) userTerminals(ctx context.Context, r *api.Request) (*model.NMSUserDomainsTerminalsListReply, error) {
	domain := r.Path("domain_moid")
	if domain != r.Principal.DomainMoid {
		return nil, wire.Errorf(CodeNoUserDomain, "user domain %s does not exist", domain)
	}
	ts, err := m.terminals(ctx, domain)
	if err != nil {
		return nil, err
	}
	var out []model.NMSUserDomainsTerminalsListReplyTerminal
	for _, t := range ts {
		if t.managed {
			out = append(out, model.NMSUserDomainsTerminalsListReplyTerminal{Moid: t.moid, DomainMoid: domain, E164: t.e164, Name: t.name, Online: onlineText(t.online)})
		}
	}
	w := listPage(r)
	reply := model.NMSUserDomainsTerminalsListReply{TotalCount: len(out), Terminals: paging.Cut(out, w)}
	return &reply, nil
}

// oldTerminals lists the unmanaged terminals of the caller's domain.
func (m *Module) oldTerminals(ctx context.Context, r *api.Request) (*model.NMSOldTerminalsListReply, error) {
	ts, err := m.terminals(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	var out []model.NMSOldTerminalsListReplyOldTerminal
	for _, t := range ts {
		if !t.managed {
			e164 := t.e164
			if e164 == "" {
				e164 = t.account
			}
			out = append(out, model.NMSOldTerminalsListReplyOldTerminal{E164: e164, Type: t.typ, IP: t.ip, Online: onlineText(t.online)})
		}
	}
	w := listPage(r)
	reply := model.NMSOldTerminalsListReply{TotalCount: len(out), OldTerminals: paging.Cut(out, w)}
	return &reply, nil
}

// periods of the statistics (reference 06 period).
var periods = map[string]time.Duration{
	"lastweek": 7 * 24 * time.Hour, "lastmonth": 30 * 24 * time.Hour, "lastthreemonth": 91 * 24 * time.Hour,
	"lasthalfyear": 182 * 24 * time.Hour, "lastyear": 365 * 24 * time.Hour,
}

// statistics answers the caller's domain's samples of a period (default
// lastweek) or of start_time to end_time (ISO 8601), newest first.
func (m *Module) statistics(ctx context.Context, r *api.Request) (*model.NMSServiceDomainsTerminalOnlineStatisticGetReply, error) {
	if err := serviceDomain(r, "domain_moid"); err != nil {
		return nil, err
	}
	if err := m.sample(ctx); err != nil {
		return nil, err
	}
	now := m.clk.Now()
	from, to := now.Add(-periods["lastweek"]), now
	q := r.Args.Query
	if p := q.Get("period"); p != "" {
		from = now.Add(-periods[p])
	} else if q.Get("start_time") != "" || q.Get("end_time") != "" {
		var err error
		if from, err = timeParam(q.Get("start_time"), "start_time", time.Time{}); err != nil {
			return nil, err
		}
		if to, err = timeParam(q.Get("end_time"), "end_time", now); err != nil {
			return nil, err
		}
	}
	var out []terminalStat
	if m.reg != nil {
		bs, err := m.reg.TerminalStats(ctx, r.Principal.DomainMoid, from, to)
		if err != nil {
			return nil, err
		}
		out = make([]terminalStat, len(bs))
		for i, b := range bs {
			if err := json.Unmarshal(b, &out[i]); err != nil {
				return nil, err
			}
		}
	}
	w := listPage(r)
	reply := model.NMSServiceDomainsTerminalOnlineStatisticGetReply{TotalCount: len(out), Statistic: paging.Cut(out, w)}
	return &reply, nil
}

func timeParam(s, name string, def time.Time) (time.Time, error) {
	if s == "" {
		return def, nil
	}
	t, err := record.ParseTime(s)
	if err != nil {
		return t, wire.InvalidParam(name, "must be a time such as 2026-03-01T09:00:00+08:00 or 2026-03-01 09:00:00")
	}
	return t, nil
}

// sortedRegs orders registrations by number.
func sortedRegs(regs map[string]sipcred.Registration) []sipcred.Registration {
	out := make([]sipcred.Registration, 0, len(regs))
	for _, r := range regs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].E164 < out[j].E164 })
	return out
}
