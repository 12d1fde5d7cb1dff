package nms

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/confer-platform/confer/internal/model"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// sample stores every user domain's counts once a quarter hour, stamped
// with the quarter's start; several nodes store one sample.
func (m *Module) sample(ctx context.Context) error {
	if m.reg == nil {
		return nil
	}
	now := m.clk.Now()
	slot := now.Truncate(StatisticInterval)
	m.mu.Lock()
	due := !slot.Equal(m.lastSlot)
	m.mu.Unlock()
	if !due {
		return nil
	}
	ds, err := m.reg.ListUserDomains(ctx)
	if err != nil {
		return err
	}
	beats, err := engine.Scan(ctx, m.st, &m.beats, engine.StateRunning, heartbeats)
	if err != nil {
		return err
	}
	for _, d := range ds {
		c, err := m.counts(ctx, d.Moid, now, beats)
		if err != nil {
			return err
		}
		c.StatisticTime = record.FormatTime(slot.In(now.Location()))
		b, _ := json.Marshal(c)
		if err := m.reg.AddTerminalStat(ctx, d.Moid, slot, b); err != nil {
			return err
		}
	}
	m.mu.Lock()
	m.lastSlot = slot
	m.mu.Unlock()
	return nil
}

// counts observes a domain's terminals online now: h323_online and
// sip_online are the terminals online in its conferences by call
// protocol, xmpp_online its directory terminals that are registered
// (reachable, or online in a conference), monitor_online the live
// monitors of its running conferences (beats, from heartbeats). Only the
// online terminals are read, and of their documents only the account and
// the protocol: at 64,000 terminals, decoding every terminal twice cost
// seconds of CPU a sample (docs/benchmarks.md).
func (m *Module) counts(ctx context.Context, domain string, now time.Time, beats []engine.Memoized[[]int64]) (*terminalStat, error) {
	dir, err := m.st.ListDirectory(ctx)
	if err != nil {
		return nil, err
	}
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, DomainMoid: domain, States: []string{engine.StateOnline}})
	if err != nil {
		return nil, err
	}
	h323, sip := map[string]bool{}, map[string]bool{}
	for _, rec := range recs {
		acct, protocol, err := callOf(rec.Data)
		if err != nil {
			return nil, err
		}
		if protocol == 1 {
			sip[acct] = true
		} else {
			h323[acct] = true
		}
	}
	xmpp := 0
	for _, e := range dir {
		if e.DomainMoid == domain && (e.Behaviour != "offline" || h323[e.Account] || sip[e.Account]) {
			xmpp++
		}
	}
	monitors := 0
	for _, c := range beats {
		if c.Key.DomainMoid != domain {
			continue
		}
		for _, at := range c.Val {
			if now.Before(time.UnixMilli(at).Add(30 * time.Second)) {
				monitors++
			}
		}
	}
	return &terminalStat{DomainMoid: domain, XmppOnline: xmpp, SipOnline: len(sip), MonitorOnline: monitors, H323Online: len(h323)}, nil
}

// terminalStat is a sample of a domain's terminals online, as the
// registry keeps it (JSON) and the statistic shows it.
type terminalStat = model.NMSServiceDomainsTerminalOnlineStatisticGetReplyStatisticItem

// heartbeats are the heartbeat_at (UNIX ms) of a conference's monitors
// (engine.Monitor, read as vc reads them).
func heartbeats(c engine.Conference) []int64 {
	out := make([]int64, len(c.Monitors))
	for i, mon := range c.Monitors {
		out[i] = mon.HeartbeatAt
	}
	return out
}

// termCall is what counts reads of a terminal's document: two of the keys
// that the engine writes (engine.newTerminal), read as terminalOf reads
// them; the other keys are skipped undecoded.
type termCall struct {
	Account  any `json:"account"`
	Protocol any `json:"protocol"`
}

// callOf reads a terminal document's account and protocol.
func callOf(data []byte) (string, int, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var c termCall
	if err := dec.Decode(&c); err != nil {
		return "", 0, err
	}
	acct := ""
	switch x := c.Account.(type) {
	case string:
		acct = x
	case json.Number:
		acct = x.String()
	}
	protocol, _ := record.IntOK(c.Protocol)
	return acct, protocol, nil
}
