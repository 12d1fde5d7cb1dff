package server

import (
	"context"
	"log/slog"
	"net/http"
	"sort"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/audit"
	"github.com/confer-platform/confer/internal/wire"
)

// audit writes the audit trail of operators' actions (docs/operations.md
// "Audit trail"): one "audit" line at INFO for every change a logged-in
// account asked for, carried out or refused: who (account, user domain),
// what (the catalogue endpoint, e.g. vc.confs.mts.mute.update, and its
// path parameters: conference, terminal, ...), from where (the client's
// address) and the outcome (error_code 0 when done). Reads, push's own
// requests and validation-only (debug) requests are not actions.
func (s *Server) audit(ctx context.Context, req *api.Request, err error) {
	p := req.Principal
	if p == nil || req.Endpoint.Method == http.MethodGet || req.Debug || req.Client == "" {
		return
	}
	attrs := []slog.Attr{
		slog.String("account", p.Username), slog.String("domain", p.DomainName),
		slog.String("action", req.Endpoint.Name), slog.String("client", req.Client),
	}
	entry := audit.Entry{Time: s.cfg.Clock.Now(), Account: p.Username, AccountMoid: p.AccountMoid,
		Action: req.Endpoint.Name, Client: req.Client}
	if len(req.PathParams) > 0 {
		entry.Params = make(map[string]string, len(req.PathParams))
	}
	names := make([]string, 0, len(req.PathParams))
	for k := range req.PathParams {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		attrs = append(attrs, slog.String(k, req.PathParams[k]))
		if k != "account_token" { // the token heartbeat's path names a token: never kept
			entry.Params[k] = req.PathParams[k]
		}
	}
	code := 0
	if err != nil {
		code = wire.AsError(err).Code
	}
	attrs = append(attrs, slog.Int("error_code", code))
	s.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs...)
	entry.ErrorCode = code
	s.trail.add(p.DomainMoid, entry) // audit_trail.go
}
