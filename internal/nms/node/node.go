// Package node is the registry of the platform's servers: every conferd
// node registers itself (host name, addresses, CPU count, memory, operating
// system, start time, version) and reports its live figures (CPU, memory
// and disk use, network traffic, uptime) read from the operating system.
// Network management (nms) shows the nodes as physical servers and their
// services as logical servers; the recording system (vrs) lists their
// addresses. Nodes share the registry through the store, so every node of
// a platform on one PostgreSQL sees the others.
package node

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/store"
)

// Registry is the part of the store that keeps nodes, alarms and terminal
// statistics (sqlstore: migration 0020_nms.sql, nodes.go). Documents are
// JSON objects; each carries the fields its reader needs.
type Registry interface {
	// PutNode creates or replaces a node's document.
	PutNode(ctx context.Context, moid, name string, reportedAt time.Time, doc []byte) error
	// ListNodes returns every node's document, by name.
	ListNodes(ctx context.Context) ([][]byte, error)
	// DeleteNodesBefore removes the nodes that last reported before t.
	DeleteNodesBefore(ctx context.Context, t time.Time) (int, error)

	// RaiseAlarm stores an alarm unless one of the device and code is
	// already raised; it reports whether it stored it.
	RaiseAlarm(ctx context.Context, deviceMoid, code, domainMoid string, raisedAt time.Time, doc []byte) (bool, error)
	// ClearAlarm removes an alarm.
	ClearAlarm(ctx context.Context, deviceMoid, code string) error
	// ListAlarms returns every raised alarm's document, oldest first.
	ListAlarms(ctx context.Context) ([][]byte, error)

	// AddTerminalStat stores a statistics sample of a user domain, unless
	// that domain already has one at that time.
	AddTerminalStat(ctx context.Context, domainMoid string, at time.Time, doc []byte) error
	// TerminalStats returns a domain's samples in [from, to], newest first.
	TerminalStats(ctx context.Context, domainMoid string, from, to time.Time) ([][]byte, error)
	// PruneTerminalStats removes samples taken before t.
	PruneTerminalStats(ctx context.Context, before time.Time) (int, error)

	// ListUserDomains returns every user domain, by name.
	ListUserDomains(ctx context.Context) ([]store.Domain, error)
}

// Services a node runs: the logical servers of nms.
var DefaultServices = []string{"api", "engine", "media", "push"}

// Defaults of Config.
const (
	DefaultInterval        = 10 * time.Second
	DefaultMachineRoomMoid = "mooooooo-oooo-oooo-oooo-defaultmachi" // the reference's default machine room
	DefaultMachineRoomName = "default machine room"
	DefaultPort            = 8080
)

// Config describes this node.
type Config struct {
	Name            string // node name; the host name when ""
	MachineRoomMoid string // virtual machine room (seed 001 nms fields)
	MachineRoomName string
	Location        string        // province or site, shown as location
	Port            int           // HTTP port of the API; DefaultPort when 0
	Version         string        // platform version string
	Services        []string      // DefaultServices when nil
	Interval        time.Duration // report interval; DefaultInterval when 0
	OfflineAfter    time.Duration // a node silent this long is offline; 3 intervals when 0
	DiskPath        string        // the node's data, whose file system's use is the disk figure; "." when ""
	Sampler         Sampler       // ReadOSAt(DiskPath) when nil
}

func (c Config) withDefaults(s Sample) Config {
	if c.Name == "" {
		c.Name = s.Hostname
	}
	if c.Name == "" {
		c.Name = "conferd"
	}
	if c.MachineRoomMoid == "" {
		c.MachineRoomMoid = DefaultMachineRoomMoid
	}
	if c.MachineRoomName == "" {
		c.MachineRoomName = DefaultMachineRoomName
	}
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.Services == nil {
		c.Services = DefaultServices
	}
	if c.Interval <= 0 {
		c.Interval = DefaultInterval
	}
	if c.OfflineAfter <= 0 {
		c.OfflineAfter = 3 * c.Interval
	}
	return c
}

// Moid makes a stable moid (the 8-4-4-4-12 shape of the platform's) from
// a seed: the same node, service or terminal always has the same moid.
func Moid(seed string) string {
	h := sha256.Sum256([]byte("confer:" + seed))
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// GUID makes a stable 32-digit guid from a moid.
func GUID(moid string) string {
	h := sha256.Sum256([]byte("guid:" + moid))
	var b strings.Builder
	for _, c := range h[:16] {
		fmt.Fprintf(&b, "%02d", int(c)%100)
	}
	return b.String()
}

// Info is a node's document in the registry (JSON): the facts of its
// host, its settings and its figures at the last report.
type Info struct {
	Moid            string   `json:"moid"`
	GUID            string   `json:"guid"`
	Name            string   `json:"name"`
	Hostname        string   `json:"hostname"`
	IP              string   `json:"ip"` // the addresses, each followed by ";"
	Addresses       []string `json:"addresses"`
	Port            int      `json:"port"`
	CPUCount        int      `json:"cpu_count"`
	MemoryTotal     int64    `json:"memory_total"` // KiB
	OS              string   `json:"os"`
	StartTime       string   `json:"start_time"` // RFC 3339
	Version         string   `json:"version"`
	Services        []string `json:"services"`
	MachineRoomMoid string   `json:"machine_room_moid"`
	MachineRoomName string   `json:"machine_room_name"`
	Location        string   `json:"location"`
	ReportedAtMs    int64    `json:"reported_at_ms"`
	OfflineAfterMs  int64    `json:"offline_after_ms"`
	CPU             int      `json:"cpu"`     // percent
	Memory          int      `json:"memory"`  // percent
	Disk            int      `json:"disk"`    // percent, -1 unknown
	Portin          int64    `json:"portin"`  // KiB received
	Portout         int64    `json:"portout"` // KiB sent
	Uptime          int64    `json:"uptime"`  // s
	RunTime         int64    `json:"run_time"`
}

// Node is a registered node.
type Node struct {
	Doc Info
}

// Moid returns the node's moid.
func (n Node) Moid() string { return n.Doc.Moid }

// ReportedAt returns when the node last reported.
func (n Node) ReportedAt() time.Time { return time.UnixMilli(n.Doc.ReportedAtMs) }

// Online tells whether the node reported within its offline limit at now.
func (n Node) Online(now time.Time) bool {
	limit := time.Duration(n.Doc.OfflineAfterMs) * time.Millisecond
	if limit <= 0 {
		limit = 3 * DefaultInterval
	}
	return now.Sub(n.ReportedAt()) < limit
}

// Services returns the services the node runs.
func (n Node) Services() []string { return n.Doc.Services }

// ServiceMoid is the moid of a service (logical server) of a node.
func ServiceMoid(nodeMoid, service string) string { return Moid("service:" + nodeMoid + ":" + service) }

// Reporter registers this node and reports its figures.
type Reporter struct {
	reg Registry // nil: the node is known to itself only
	clk clock.Clock
	cfg Config

	mu      sync.Mutex
	moid    string
	started time.Time
	last    time.Time // of the last report; zero before the first
	prev    Sample
	self    *Info
}

// NewReporter returns the reporter of this node; reg may be nil.
func NewReporter(reg Registry, clk clock.Clock, cfg Config) *Reporter {
	if cfg.Sampler == nil {
		path := cfg.DiskPath
		if path == "" {
			path = "."
		}
		cfg.Sampler = func() Sample { return ReadOSAt(path) }
	}
	return &Reporter{reg: reg, clk: clk, cfg: cfg, started: clk.Now()}
}

// Config returns the node's settings with their defaults.
func (r *Reporter) Config() Config {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.self == nil {
		return r.cfg.withDefaults(r.cfg.Sampler())
	}
	return r.cfg.withDefaults(Sample{Hostname: r.self.Hostname})
}

// Moid returns this node's moid ("" before the first report).
func (r *Reporter) Moid() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.moid
}

// Ensure reports when the last report is an interval old (or there was
// none), so that readers never see this node's figures older than that.
func (r *Reporter) Ensure(ctx context.Context) error {
	r.mu.Lock()
	due := r.last.IsZero() || r.clk.Now().Sub(r.last) >= r.cfg.withDefaults(r.prev).Interval
	r.mu.Unlock()
	if !due {
		return nil
	}
	return r.Report(ctx)
}

// Report samples the operating system and writes this node's document.
func (r *Reporter) Report(ctx context.Context) error {
	s := r.cfg.Sampler()
	now := r.clk.Now()
	r.mu.Lock()
	cfg := r.cfg.withDefaults(s)
	moid := Moid("node:" + cfg.Name)
	r.moid = moid
	doc := Document(cfg, moid, s, r.prev, r.started, now)
	r.prev, r.last, r.self = s, now, &doc
	r.mu.Unlock()
	if r.reg == nil {
		return nil
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return r.reg.PutNode(ctx, moid, cfg.Name, now, b) // moid read under the lock: ticks may overlap
}

// Document builds a node's document from a sample; prev (zero for the
// first report) gives the CPU use between the two samples.
func Document(cfg Config, moid string, s, prev Sample, started, now time.Time) Info {
	cpu := 0
	if db, dt := s.CPUBusy-prev.CPUBusy, s.CPUTotal-prev.CPUTotal; dt > 0 {
		cpu = int((db*100 + dt/2) / dt)
	}
	mem := 0
	if s.MemTotalKB > 0 {
		mem = int(((s.MemTotalKB-s.MemAvailKB)*100 + s.MemTotalKB/2) / s.MemTotalKB)
	}
	ips := ""
	for _, a := range s.Addresses {
		ips += a + ";"
	}
	return Info{
		Moid: moid, GUID: GUID(moid), Name: cfg.Name, Hostname: s.Hostname, IP: ips,
		Addresses: s.Addresses, Port: cfg.Port, CPUCount: s.CPUs, MemoryTotal: s.MemTotalKB, OS: s.OS,
		StartTime: started.Format(time.RFC3339), Version: cfg.Version, Services: append([]string{}, cfg.Services...),
		MachineRoomMoid: cfg.MachineRoomMoid, MachineRoomName: cfg.MachineRoomName, Location: cfg.Location,
		ReportedAtMs: now.UnixMilli(), OfflineAfterMs: cfg.OfflineAfter.Milliseconds(),
		CPU: cpu, Memory: mem, Disk: s.DiskPercent, Portin: s.NetInBytes / 1024, Portout: s.NetOutBytes / 1024,
		Uptime: s.UptimeSec, RunTime: int64(now.Sub(started) / time.Second),
	}
}

// Nodes returns every registered node (this one only without a registry),
// reporting first when this node's figures are an interval old.
func (r *Reporter) Nodes(ctx context.Context) ([]Node, error) {
	if err := r.Ensure(ctx); err != nil {
		return nil, err
	}
	if r.reg == nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		return []Node{{Doc: *r.self}}, nil
	}
	docs, err := r.reg.ListNodes(ctx)
	if err != nil {
		return nil, err
	}
	return decodeNodes(docs)
}

func decodeNodes(docs [][]byte) ([]Node, error) {
	out := make([]Node, 0, len(docs))
	for _, b := range docs {
		var n Node
		if err := json.Unmarshal(b, &n.Doc); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// Registry returns the store's registry (nil when the store has none).
func (r *Reporter) Registry() Registry { return r.reg }
