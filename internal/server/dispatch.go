package server

import (
	"net/http"
	"strings"

	"github.com/confer-platform/confer/internal/console"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/ops"
	"github.com/confer-platform/confer/internal/vrs"
	"github.com/confer-platform/confer/internal/wall"
)

// One pass over a request (issue 40): ServeHTTP sets the deadlines,
// checks the origin, then hands the request by its path to the one
// component that serves it, instead of a chain of wrappers each passing
// it back to the server (docs/architecture.md "Two call paths, traced").

// web is what ServeHTTP dispatches to; a nil handler is a part the node
// does not serve (no media).
type web struct {
	guard   browserGuard
	live    http.Handler // /live/: broadcasts' descriptors and HLS
	wall    http.Handler // /wall/: the TV wall page
	rtc     http.Handler // /rtc/: WHIP, WHEP, the join page, the owner's controls
	console http.Handler // /console/, and a browser's / and /favicon.ico
	ops     *ops.Ops     // /healthz, /readyz, /metrics, and the API's log line
}

func (s *Server) newWeb(o *ops.Ops) web {
	wb := web{guard: s.newBrowserGuard(), rtc: s.rtcHandler(), console: console.Mount(http.NotFoundHandler(), s.auth), ops: o}
	wb.wall, wb.live = s.liveHandlers()
	return wb
}

// ServeHTTP serves one request: the live, wall, media and console pages
// by their paths, /healthz, /readyz and /metrics (internal/ops,
// docs/operations.md), then programs' downloads and the API, with one log
// line per request.
func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	hr = s.deadlines(w, hr)
	w, ok := s.web.guard.check(w, hr)
	if !ok {
		return
	}
	p := hr.URL.Path
	switch {
	case s.web.live != nil && strings.HasPrefix(p, live.Prefix):
		s.web.live.ServeHTTP(w, hr)
	case s.web.wall != nil && strings.HasPrefix(p, wall.Prefix):
		s.web.wall.ServeHTTP(w, hr)
	case s.web.rtc != nil && strings.HasPrefix(p, "/rtc/"):
		s.web.rtc.ServeHTTP(w, hr)
	case console.Serves(hr):
		s.web.console.ServeHTTP(w, hr)
	case s.web.ops.Probe(w, hr):
	default:
		w, hr, end := s.web.ops.Begin(w, hr)
		defer end()
		if vrs.IsDownload(p) {
			s.vrs.ServeDownload(w, hr)
			return
		}
		s.serveHTTP(w, hr)
	}
}
