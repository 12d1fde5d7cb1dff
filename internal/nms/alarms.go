package nms

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/confer-platform/confer/internal/model"
	"sort"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Alarms (reference 06 "请求服务器未修复告警信息", "请求终端未修复告警信息").
// An alarm is raised when Confer observes its condition and cleared when
// the condition ends; "unrepaired" alarms are the raised ones. The
// conditions:
//
//	node_offline        critical   a node stopped reporting (three report intervals)
//	capacity_exhausted  critical   running conferences or their ports reached the configured capacity (media service of every online node)
//	capacity_high       important  they reached CapacityAlarmPercent of it
//	calls_failing       important  FailingCallAttempts calls in a row to a terminal of a running conference failed
//
// The conditions are evaluated by every node's due work every few
// seconds and before every read of alarms, so a reply is never behind.
// An alarm keeps the time its condition was first observed (start_time).
// A store that cannot be reached raises nothing: nothing can be read or
// written then, and the nodes log the failures of their due work.

// Alarm levels, highest first.
var levelRank = map[string]int{"critical": 3, "important": 2, "normal": 1}

func higher(a, b string) string {
	if levelRank[b] > levelRank[a] {
		return b
	}
	return a
}

// alarm is a condition observed now.
type alarm struct {
	device, code, domain string
	conf                 string // the running conference it concerns, "" for none
	doc                  alarmDoc
}

// alarmDoc is an alarm as the registry stores it (JSON): the reply
// members of a server's or a terminal's unrepaired warning, the
// condition's code and when it was raised. A member of the other kind of
// device is left out.
type alarmDoc struct {
	DeviceMoid      string `json:"device_moid"`
	DeviceName      string `json:"device_name"`
	DeviceType      string `json:"device_type"`
	DeviceIP        string `json:"device_ip"`
	DeviceE164      string `json:"device_e164,omitempty"`
	DomainMoid      string `json:"domain_moid"`
	DomainName      string `json:"domain_name,omitempty"`
	MachineRoomMoid string `json:"machine_room_moid,omitempty"`
	MachineRoomName string `json:"machine_room_name,omitempty"`
	WarningLevel    string `json:"warning_level"`
	Description     string `json:"description"`
	Code            string `json:"code,omitempty"`
	StartTime       string `json:"start_time,omitempty"`
	RaisedMs        int64  `json:"raised_ms,omitempty"`
}

// conditions observes every alarm condition at now.
func (m *Module) conditions(ctx context.Context, ns []node.Node) ([]alarm, error) {
	now := m.clk.Now()
	var out []alarm
	server := func(n node.Node, device, typ, code, level, desc string) alarm {
		return alarm{device: device, code: code, doc: alarmDoc{
			DeviceMoid: device, DeviceName: n.Doc.Name, DeviceType: typ, DeviceIP: n.Doc.IP,
			DomainMoid: PlatformMoid, DomainName: PlatformName, MachineRoomMoid: n.Doc.MachineRoomMoid,
			MachineRoomName: n.Doc.MachineRoomName, WarningLevel: level, Description: desc,
		}}
	}
	for _, n := range ns {
		if !n.Online(now) {
			out = append(out, server(n, n.Moid(), NodeType, "node_offline", "critical",
				fmt.Sprintf("server stopped reporting; last report at %s", record.FormatTime(n.ReportedAt().In(now.Location())))))
		}
	}
	u, err := m.confs.Usage(ctx)
	if err != nil {
		return nil, err
	}
	cfg := m.confs.Config()
	figures := fmt.Sprintf("%d of %d conferences and %d of %d terminal ports in use", u.Confs, cfg.MaxConfs, u.Ports, cfg.MaxPorts)
	code, level, desc := "", "", ""
	switch pct := m.cfg.CapacityAlarmPercent; {
	case u.Confs >= cfg.MaxConfs || u.Ports >= cfg.MaxPorts:
		code, level, desc = "capacity_exhausted", "critical", "conference capacity exhausted: "+figures
	case u.Confs*100 >= pct*cfg.MaxConfs || u.Ports*100 >= pct*cfg.MaxPorts:
		code, level, desc = "capacity_high", "important", fmt.Sprintf("conference capacity above %d%%: %s", pct, figures)
	}
	if code != "" {
		for _, n := range ns {
			if n.Online(now) {
				out = append(out, server(n, node.ServiceMoid(n.Moid(), "media"), "MEDIA", code, level, desc))
			}
		}
	}
	failing, err := m.failingTerminals(ctx)
	return append(out, failing...), err
}

// failingTerminals observes the terminals whose last FailingCallAttempts
// calls failed (the engine's attempt count, reset by a manual call) and
// that are not online since.
func (m *Module) failingTerminals(ctx context.Context) ([]alarm, error) {
	// Online terminals never alarm: read only the others (an idle platform
	// then reads nothing, however many terminals are online).
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, States: []string{engine.StateIdle, engine.StateCalling}})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []alarm
	for _, rec := range recs {
		mt, err := engine.DecodeTerminal(rec)
		if err != nil {
			return nil, err
		}
		attempts, outcome := mt.Own.Attempts.Value, media.Outcome(mt.Own.Outcome.Value)
		// A number without a route (media.Unrouted) alarms at its first
		// failure: nothing was called, and the alarm tells why.
		enough := attempts >= m.cfg.FailingCallAttempts || (outcome == media.NoRoute && attempts > 0)
		if rec.State == engine.StateOnline || outcome == media.Answered || !enough {
			continue
		}
		t := terminalOf(rec.DomainMoid, mt)
		if seen[t.moid] {
			continue
		}
		seen[t.moid] = true
		out = append(out, alarm{device: t.moid, code: "calls_failing", domain: rec.DomainMoid, conf: rec.OwnerMoid, doc: alarmDoc{
			DeviceMoid: t.moid, DeviceName: t.name, DeviceType: t.typ, DeviceIP: t.ip, DeviceE164: t.e164,
			DomainMoid: rec.DomainMoid, WarningLevel: "important",
			Description: fmt.Sprintf("calls to %s keep failing: %d attempts, the last one %s (conference %s)", t.account, attempts, outcome, rec.OwnerMoid),
		}})
	}
	return out, nil
}

// alarms evaluates the conditions, raises the new alarms and clears the
// ended ones, and returns the raised alarms, oldest first.
func (m *Module) alarms(ctx context.Context) ([]alarmDoc, error) {
	ns, err := m.node.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	observed, err := m.conditions(ctx, ns)
	if err != nil {
		return nil, err
	}
	if m.reg == nil { // no registry: the alarms start now
		out := make([]alarmDoc, 0, len(observed))
		for _, a := range observed {
			a.doc.StartTime = record.FormatTime(now)
			out = append(out, a.doc)
		}
		return out, nil
	}
	want := map[string]alarm{}
	for _, a := range observed {
		want[a.device+"\x00"+a.code] = a
	}
	stored, err := m.storedAlarms(ctx)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	var out []alarmDoc
	for _, doc := range stored {
		key := doc.DeviceMoid + "\x00" + doc.Code
		if _, ok := want[key]; !ok {
			if err := m.reg.ClearAlarm(ctx, doc.DeviceMoid, doc.Code); err != nil {
				return nil, err
			}
			continue
		}
		have[key] = true
		out = append(out, doc)
	}
	for key, a := range want {
		if have[key] {
			continue
		}
		a.doc.Code, a.doc.StartTime, a.doc.RaisedMs = a.code, record.FormatTime(now), now.UnixMilli()
		b, err := json.Marshal(a.doc)
		if err != nil {
			return nil, err
		}
		raised, err := m.reg.RaiseAlarm(ctx, a.device, a.code, a.domain, now, b)
		if err != nil {
			return nil, err
		}
		if raised && a.conf != "" { // once, by the node that raised it
			if err := m.notifyAlarm(ctx, a, now); err != nil {
				return nil, err
			}
		}
		out = append(out, a.doc)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].RaisedMs < out[j].RaisedMs })
	return out, nil
}

// alarmCode is the error_code of the alarm notification of a conference
// (reference 07 "系统告警通知" on /confs/{conf_id}/alarm): calls to one of
// its terminals keep failing (CodeMtUnreachable).
var alarmCode = map[string]int{"calls_failing": CodeMtUnreachable}

// notifyAlarm publishes an alarm raised about a conference through the
// event log (docs/push.md).
func (m *Module) notifyAlarm(ctx context.Context, a alarm, now time.Time) error {
	n, err := store.NewNotice(a.domain, a.conf, "/alarm", push.Failure{ErrorCode: alarmCode[a.code]}, now)
	if err != nil {
		return err
	}
	return m.st.AppendNotice(ctx, n)
}

func (m *Module) storedAlarms(ctx context.Context) ([]alarmDoc, error) {
	bs, err := m.reg.ListAlarms(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]alarmDoc, len(bs))
	for i, b := range bs {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// serverWarnings answers the raised alarms of a server: of a node and its
// services for a physical server's moid, of the service for a logical
// server's (22008 for any other moid).
func (m *Module) serverWarnings(ctx context.Context, r *api.Request) (*model.NMSServersUnrepairedWarningsListReply, error) {
	if err := m.platformAdmin(r); err != nil {
		return nil, err
	}
	ns, err := m.node.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	moid := r.Path("server_moid")
	devices := map[string]bool{}
	for _, n := range ns {
		if n.Moid() == moid {
			devices[moid] = true
			for _, s := range n.Services() {
				devices[node.ServiceMoid(moid, s)] = true
			}
		}
		for _, s := range n.Services() {
			if node.ServiceMoid(n.Moid(), s) == moid {
				devices[moid] = true
			}
		}
	}
	if len(devices) == 0 {
		return nil, wire.Errorf(CodeNoDevice, "server %s does not exist", moid)
	}
	as, err := m.alarms(ctx)
	if err != nil {
		return nil, err
	}
	var reply model.NMSServersUnrepairedWarningsListReply
	for _, a := range as {
		if devices[a.DeviceMoid] && a.DomainMoid == PlatformMoid {
			reply.UnrepairedWarnings = append(reply.UnrepairedWarnings, model.NMSServersUnrepairedWarningsListReplyUnrepairedWarning{
				DeviceMoid: a.DeviceMoid, DeviceName: a.DeviceName, DeviceType: a.DeviceType, DeviceIP: a.DeviceIP,
				DomainMoid: a.DomainMoid, DomainName: a.DomainName, MachineRoomMoid: a.MachineRoomMoid, MachineRoomName: a.MachineRoomName,
				WarningLevel: a.WarningLevel, Description: a.Description, StartTime: a.StartTime})
		}
	}
	return &reply, nil
}

// terminalWarnings answers the raised alarms of a terminal of the
// caller's domain (22008 for a terminal the domain does not know).
func (m *Module) terminalWarnings(ctx context.Context, r *api.Request) (*model.NMSTerminalsUnrepairedWarningsListReply, error) {
	domain, moid := r.Principal.DomainMoid, r.Path("terminal_moid")
	ts, err := m.terminals(ctx, domain)
	if err != nil {
		return nil, err
	}
	var t *terminal
	for i := range ts {
		if ts[i].moid == moid {
			t = &ts[i]
		}
	}
	if t == nil {
		return nil, wire.Errorf(CodeNoDevice, "terminal %s does not exist", moid)
	}
	as, err := m.alarms(ctx)
	if err != nil {
		return nil, err
	}
	var reply model.NMSTerminalsUnrepairedWarningsListReply
	for _, a := range as {
		if a.DeviceMoid == moid && a.DomainMoid == domain {
			reply.UnrepairedWarnings = append(reply.UnrepairedWarnings, model.NMSTerminalsUnrepairedWarningsListReplyUnrepairedWarning{
				DeviceMoid: a.DeviceMoid, DeviceName: a.DeviceName, DeviceType: a.DeviceType, DeviceIP: a.DeviceIP,
				DeviceE164: a.DeviceE164, DomainMoid: a.DomainMoid, DomainName: r.Principal.DomainName,
				WarningLevel: a.WarningLevel, Description: a.Description, StartTime: a.StartTime})
		}
	}
	return &reply, nil
}
