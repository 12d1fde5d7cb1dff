// Package nms serves network management (seed 001 "Network management
// (nms)"; reference 06-nms-network-management.md) from real facts: the
// conferd nodes registered in the store (internal/nms/node) are the
// physical servers and their services the logical servers; media
// resources are the configured conference capacity and its use; terminals
// come from the terminal directory and the engine; meetings from the
// conference records; alarms are raised and cleared by conditions that
// Confer observes. docs/nms.md describes the behaviour.
package nms

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Config describes this node and the alarm thresholds.
type Config struct {
	node.Config
	// CapacityAlarmPercent raises the capacity alarm when running
	// conferences or their ports reach this share of the configured
	// capacity (default 80).
	CapacityAlarmPercent int
	// FailingCallAttempts raises a terminal's alarm when this many calls
	// in a row failed (default 3).
	FailingCallAttempts int
	// PlatformDomain is the user domain whose administrators administer
	// the platform (conferd --platform-domain; auth.DefaultDomain when
	// ""): only they see the platform's servers, their addresses, load
	// and alarms, and its media resources (issue 38 item 13).
	PlatformDomain string
}

// Defaults of Config, and how long nodes and samples are kept.
const (
	DefaultCapacityAlarmPercent = 80
	DefaultFailingCallAttempts  = 3
	StatisticInterval           = 15 * time.Minute     // terminal statistics sample period
	StatisticKeep               = 366 * 24 * time.Hour // samples older than a year are pruned
	NodeKeep                    = 7 * 24 * time.Hour   // a node silent a week leaves the registry
	alarmEvery                  = 5 * time.Second      // the due work evaluates alarms this often
)

// Module is the nms module's state.
type Module struct {
	st    store.Store
	reg   node.Registry // nil when the store keeps no registry
	clk   clock.Clock
	confs *engine.Conferences
	cfg   Config
	node  *node.Reporter
	beats engine.Memo[[]int64] // monitors' heartbeats by conference version (statistics.go)

	mu         sync.Mutex
	lastSlot   time.Time // of the last statistics sample this node took
	lastAlarms time.Time
	lastPrune  time.Time
}

// New returns the module; version is the platform version the node
// reports. The store keeps the node registry when it implements
// node.Registry (sqlstore does).
func New(st store.Store, clk clock.Clock, confs *engine.Conferences, version string, cfg Config) *Module {
	if cfg.CapacityAlarmPercent <= 0 {
		cfg.CapacityAlarmPercent = DefaultCapacityAlarmPercent
	}
	if cfg.FailingCallAttempts <= 0 {
		cfg.FailingCallAttempts = DefaultFailingCallAttempts
	}
	if cfg.Version == "" {
		cfg.Version = version
	}
	if cfg.PlatformDomain == "" {
		cfg.PlatformDomain = auth.DefaultDomain
	}
	reg, _ := st.(node.Registry)
	return &Module{st: st, reg: reg, clk: clk, confs: confs, cfg: cfg, node: node.NewReporter(reg, clk, cfg.Config)}
}

// Node returns this node's reporter, which the recording system uses for
// the servers' addresses.
func (m *Module) Node() *node.Reporter { return m.node }

// RunDue is the node's reporter, run by the server's due work (every
// second in conferd): it reports this node's figures every interval,
// samples the terminal statistics every quarter hour, evaluates the
// alarms every few seconds and prunes old nodes and samples daily.
func (m *Module) RunDue(ctx context.Context) error {
	now := m.clk.Now()
	errs := []error{m.node.Ensure(ctx), m.sample(ctx)}
	m.mu.Lock()
	alarms := now.Sub(m.lastAlarms) >= alarmEvery
	if alarms {
		m.lastAlarms = now
	}
	prune := m.reg != nil && now.Sub(m.lastPrune) >= 24*time.Hour
	if prune {
		m.lastPrune = now
	}
	m.mu.Unlock()
	if alarms {
		_, err := m.alarms(ctx)
		errs = append(errs, err)
	}
	if prune {
		_, err := m.reg.DeleteNodesBefore(ctx, now.Add(-NodeKeep))
		errs = append(errs, err)
		_, err = m.reg.PruneTerminalStats(ctx, now.Add(-StatisticKeep))
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// The domains of the platform (reference 06 "请求所有域信息"): Confer is one
// platform with one service domain; each user domain of the store belongs
// to the service domain. Their moids are fixed.
var (
	KernelMoid   = node.Moid("domain:kernel")
	PlatformMoid = node.Moid("domain:platform")
	ServiceMoid  = node.Moid("domain:service")
)

// Names of the fixed domains.
const (
	KernelName   = "Confer"
	PlatformName = "Confer platform domain"
	ServiceName  = "Confer service domain"
)

// domains lists the kernel, platform and service domains and the caller's
// user domain: another domain's existence is not shown (DESIGN principle 6).
func (m *Module) domains(ctx context.Context, r *api.Request) (*model.NMSDomainsListReply, error) {
	reply := model.NMSDomainsListReply{Domains: []model.NMSDomainsListReplyDomain{
		{Moid: KernelMoid, ParentMoid: "", Name: KernelName, Type: "kernel"},
		{Moid: PlatformMoid, ParentMoid: KernelMoid, Name: PlatformName, Type: "platform"},
		{Moid: ServiceMoid, ParentMoid: KernelMoid, Name: ServiceName, Type: "service"},
		{Moid: r.Principal.DomainMoid, ParentMoid: ServiceMoid, Name: r.Principal.DomainName, Type: "user"},
	}}
	return &reply, nil
}

// platformDomain answers 90400 unless the path names the platform domain.
func platformDomain(r *api.Request) error {
	if r.Path("domain_moid") != PlatformMoid {
		return wire.InvalidParam("domain_moid", "is not a platform domain (the platform domain is "+PlatformMoid+")")
	}
	return nil
}

// platformAdmin answers 20005 unless the caller administers the platform
// (Config.PlatformDomain): the servers' addresses, load and alarms and
// the platform's ports in use are not a tenant's to see (issue 38 item
// 13; docs/nms.md "Who sees what").
func (m *Module) platformAdmin(r *api.Request) error {
	if p := r.Principal; p != nil && p.Admin && p.DomainName == m.cfg.PlatformDomain {
		return nil
	}
	return wire.Errorf(wire.CodeNoPermission, "only an administrator of the platform's user domain %q sees the platform's servers and media resources", m.cfg.PlatformDomain)
}

// serviceDomain answers 52010 unless the path names the service domain.
func serviceDomain(r *api.Request, param string) error {
	if r.Path(param) != ServiceMoid {
		return wire.Errorf(CodeNoServiceDomain, "service domain %s does not exist", r.Path(param))
	}
	return nil
}
