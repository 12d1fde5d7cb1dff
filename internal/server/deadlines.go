package server

import (
	"context"
	"net/http"
	"time"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/vrs"
)

// Deadlines of a request (issue 20 item 2; docs/operations.md "Limits").
// The http.Server (HTTPServer) bounds the headers, an idle keep-alive
// connection, and by default the whole request and the reply. This
// middleware gives the CometD paths room for their long poll: a held
// /meta/connect is answered after up to push's ConnectTimeout, so its read
// and write deadlines are that much later (a websocket, once upgraded,
// has no HTTP deadline: net/http clears them on hijack, and the push
// service bounds every websocket write). An upload, once authenticated,
// gets Limits.UploadTimeout for its body (bodies.go).

type rcKey struct{}

// responseController returns the request's http.ResponseController (from
// its context), nil outside the deadline middleware.
func responseController(ctx context.Context) *http.ResponseController {
	rc, _ := ctx.Value(rcKey{}).(*http.ResponseController)
	return rc
}

// deadlines sets the request's deadlines and returns it with its
// response controller.
func (s *Server) deadlines(w http.ResponseWriter, r *http.Request) *http.Request {
	rc := http.NewResponseController(w)
	if push.IsPath(r.URL.Path) {
		hold := s.cfg.Push.ConnectTimeout
		if hold <= 0 {
			hold = 30 * time.Second // push's default (push.Options)
		}
		now := time.Now()
		_ = rc.SetReadDeadline(now.Add(s.limits.ReadTimeout + hold))
		_ = rc.SetWriteDeadline(now.Add(s.limits.WriteTimeout + hold))
	}
	if vrs.IsDownload(r.URL.Path) { // a program's file: as long as an upload's body
		_ = rc.SetWriteDeadline(time.Now().Add(s.limits.UploadTimeout))
	}
	return r.WithContext(context.WithValue(r.Context(), rcKey{}, rc))
}

// HTTPServer returns the http.Server that serves s with the limits'
// timeouts: conferd runs it on WrapListener's listener, and so do the
// end-to-end tests.
func (s *Server) HTTPServer() *http.Server {
	l := s.limits
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: l.HeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          newErrorLog(s.log),
	}
}
