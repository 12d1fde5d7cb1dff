// Package vrs serves the recording system (seed 001 "Recording system
// (vrs)"; reference 09-vrs-recording-system.md, error codes A5): the local
// login, program folders, programs, live rooms, reserved live rooms,
// recording rooms, playback rooms, transcoding tasks and the server
// addresses. Its programs are those of internal/vrs/program, which vc's
// conference recorders also make: one recording system. docs/vrs.md
// describes the behaviour.
package vrs

import (
	"context"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Limits of the recording system. The reference names the codes for
// reaching them (A5 31, 250, 260, 24102, 24205) but not the numbers.
const (
	MaxFolders    = 64 // custom program folders of a user domain
	MaxRecRooms   = 32 // recording rooms of a user domain
	MaxPlayRooms  = 32 // playback rooms of a user domain
	MaxRecordings = 16 // recordings running at once on the platform (rooms and vc recorders)
	MaxLives      = 16 // live broadcasts running at once on the platform
	MaxTranscodes = 2  // transcoding tasks working at once on the platform
)

// Module is the vrs module's state.
type Module struct {
	st    store.Store
	clk   clock.Clock
	auth  *auth.Service
	confs *engine.Conferences
	nodes *node.Reporter
	// recDir is the recordings folder, "" when programs have no files
	// (files.go); log reports missing and orphan files.
	recDir string
	log    *slog.Logger
	// liveViewers counts a vc broadcast's WHEP viewers; nil without real
	// media (live.go).
	liveViewers func(confID, recID string) int
}

// New returns the module. nodes is the platform's node registry (nms),
// which gives the recording server's addresses.
func New(st store.Store, clk clock.Clock, as *auth.Service, confs *engine.Conferences, nodes *node.Reporter) *Module {
	return &Module{st: st, clk: clk, auth: as, confs: confs, nodes: nodes, log: slog.Default()}
}

// ServerID is the id (vrsmoid, vc's vrs_id) of the recording server of a
// user domain: Confer's recording system is one, seen by each domain
// under its own id. It is derived as internal/vc/vrs.go derives vrs_id,
// so that the programs of both carry the same id.
func ServerID(domainMoid string) string {
	h := sha1.Sum([]byte("confer-vrs:" + domainMoid))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// adminOnly answers A5 9 (no permission) unless the caller administers
// its user domain: every change of the recording system is an
// administrator's (userrole 1), reading is everyone's.
func adminOnly(r *api.Request) error {
	if r.Principal != nil && r.Principal.Admin {
		return nil
	}
	return wire.Errorf(CodeNoPermission, "only an administrator of the user domain may change the recording system")
}

// listQuery is what the generated list requests decode: the query alone.
// The lists are query-style endpoints, whose query is all validation
// checks; a GET that carries a form body is read as before (issue 40),
// its body ignored rather than read unchecked. An integer written with
// spaces around it (prgs1page=+5) passes validation, but the lists read
// it as absent before the generated requests, which trim it: it is left
// out, so that no reply changes.
func listQuery(r *api.Request) *wire.Args {
	q := make(url.Values, len(r.Args.Query))
	for name, vs := range r.Args.Query {
		q[name] = vs
	}
	if r.Endpoint != nil {
		for _, p := range r.Endpoint.Params {
			if v := q.Get(p.Name); p.Kind == catalog.Int && strings.TrimSpace(v) != v {
				delete(q, p.Name)
			}
		}
	}
	return &wire.Args{Query: q}
}

// page is the page a vrs list asks for: size (prgs1page) entries a page,
// default 20, and the page id (pageid), default 1, the first; a value
// that is not positive is its default (as the query was read before the
// lists decoded their requests, TestListPagingEdges).
func page(size, id model.Opt[int]) paging.Page {
	p := paging.Page{Size: 20, ID: 1}
	if size.Value > 0 {
		p.Size = size.Value
	}
	if id.Value > 0 {
		p.ID = id.Value
	}
	return p
}

// domainSelected tells whether the userdomainmoid filter moids
// (comma-separated; empty, all user domains) admits the caller's domain:
// nobody sees another domain's recording system.
func domainSelected(moids, domain string) bool {
	v := strings.TrimSpace(moids)
	if v == "" {
		return true
	}
	for _, d := range strings.Split(v, ",") {
		if strings.TrimSpace(d) == domain {
			return true
		}
	}
	return false
}

// includes tells whether name contains the includename search, ignoring case.
func includes(search, name string) bool {
	return search == "" || strings.Contains(strings.ToLower(name), strings.ToLower(search))
}

// ipInt is an IPv4 address as the reference's integers (127.0.0.1 is
// 2130706433); 0 for anything else.
func ipInt(s string) int64 {
	ip := net.ParseIP(strings.TrimSpace(s)).To4()
	if ip == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint32(ip))
}

// serverIP is the address of the recording server as an integer: the
// first IPv4 address of the first online node.
func (m *Module) serverIP(ctx context.Context) int64 {
	addrs, err := m.addresses(ctx)
	if err != nil || len(addrs) == 0 {
		return 0
	}
	return addrs[0].ip
}

// maxBatch is the most programs one batch request may name: each item is
// a store write, and a batch of tens of thousands held the SQLite writer
// for seconds (found by internal/robust; docs/vrs.md).
const maxBatch = 1000

// batchLimit refuses a batch whose list key names more than maxBatch
// items (90400 naming the list): each batch handler checks it first,
// before its rights and before the request is decoded.
func batchLimit(r *api.Request, key string) error {
	if l, _ := r.Args.Params[key].([]any); len(l) > maxBatch {
		return wire.InvalidParam(key, fmt.Sprintf("names %d items; at most %d per request", len(l), maxBatch))
	}
	return nil
}
