package server

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/validate"
	"github.com/confer-platform/confer/internal/wire"
)

// Request bodies and memory (issue 20 item 1; docs/api.md "Limits"). A
// body is read into memory only up to the body limit (1 MiB), only within
// a server-wide budget of bytes in flight (Limits.BodyMemory), and the
// file parts of a multipart upload only after authentication, streamed to
// disk.

// CodeBusy answers a request whose body does not fit the server's memory
// budget now, or a connection beyond a connection cap (listener.go); the
// client retries later. Confer's own (docs/errors.md).
const CodeBusy = 90503

// uploadEndpoints take multipart file parts; every other endpoint drops
// them and bounds a multipart body like any other (1 MiB).
var uploadEndpoints = map[string]bool{"mc.meeting_files.upload": true}

// bodyBudget counts the bytes of request bodies held in memory, in total
// and per client address: no address holds more than perAddr of it, so
// slow bodies from one address cannot spend the budget of every other
// client (issue 38 item 3).
type bodyBudget struct {
	limit   int64 // < 0: no limit
	perAddr int64 // < 0: no share per address
	used    atomic.Int64

	mu     sync.Mutex
	byAddr map[string]int64
}

// reserve takes room for the body of r before it is read: its announced
// length, or the whole body limit when it is not announced (or is a
// multipart body, whose text parts may take that much). It returns the
// release function, or 90503 when the budget, or the share of the
// request's client address, is spent.
func (b *bodyBudget) reserve(r *http.Request, maxBody int64) (func(), error) {
	if r.Body == nil || r.Body == http.NoBody || b.limit < 0 {
		return func() {}, nil
	}
	n := maxBody
	if r.ContentLength >= 0 && r.ContentLength < maxBody {
		n = r.ContentLength
	}
	if n == 0 {
		return func() {}, nil
	}
	addr := clientAddr(r)
	if !b.takeShare(addr, n) {
		return nil, wire.Errorf(CodeBusy, "the server is busy: request bodies in flight from %s take its share of %d bytes of the memory budget; retry later", addr, b.perAddr)
	}
	if b.used.Add(n) > b.limit {
		b.used.Add(-n)
		b.giveShare(addr, n)
		return nil, wire.Errorf(CodeBusy, "the server is busy: request bodies in flight take its memory budget of %d bytes; retry later", b.limit)
	}
	return func() { b.used.Add(-n); b.giveShare(addr, n) }, nil
}

// takeShare adds n to addr's bytes in flight unless that passes perAddr.
// A body larger than the share is still taken when the address holds
// nothing else.
func (b *bodyBudget) takeShare(addr string, n int64) bool {
	if b.perAddr < 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	held := b.byAddr[addr]
	if held > 0 && held+n > b.perAddr {
		return false
	}
	if b.byAddr == nil {
		b.byAddr = map[string]int64{}
	}
	b.byAddr[addr] = held + n
	return true
}

func (b *bodyBudget) giveShare(addr string, n int64) {
	if b.perAddr < 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byAddr[addr] -= n; b.byAddr[addr] <= 0 {
		delete(b.byAddr, addr)
	}
}

// clientAddr is the IP address of r's client (its connection's peer).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// readFiles reads the file parts of a multipart body once the caller is
// authenticated: streamed to Limits.UploadDir for an upload endpoint, whose
// body may then take Limits.UploadTimeout to arrive; dropped elsewhere.
func (s *Server) readFiles(ctx context.Context, ep *catalog.Endpoint, args *wire.Args) error {
	if !args.PendingFiles() {
		return nil
	}
	if !uploadEndpoints[ep.Name] {
		return args.ReadFiles("", 0)
	}
	if rc := responseController(ctx); rc != nil {
		_ = rc.SetReadDeadline(time.Now().Add(s.limits.UploadTimeout))
	}
	return args.ReadFiles(s.limits.UploadDir, wire.MaxUploadBody)
}

// fileProblems are the problems of an upload's file part (mc.UploadFile),
// for debug mode, which must report every error the real request would
// (issue 20 item 6; seed 000 "Errors" 3).
func fileProblems(ep *catalog.Endpoint, args *wire.Args) []validate.Problem {
	if !uploadEndpoints[ep.Name] {
		return nil
	}
	if _, _, _, err := mc.UploadFile(args); err != nil {
		return []validate.Problem{{Top: "file", Index: -1, Msg: strings.TrimPrefix(err.Desc, "parameter file: ")}}
	}
	return nil
}
