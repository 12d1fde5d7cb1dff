package server

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/validate"
	"github.com/confer-platform/confer/internal/wire"
)

// The request pipeline. Every call of a catalogue endpoint passes through
// run, whatever carried it: an HTTP request (serve) or the push service
// reading the resource of a channel (PushResources). The transport
// decodes the request and shapes the reply for its caller; run applies
// the rules in between, in this order: release and API-Level gate,
// authentication, request compatibility, validation, handler.

// run passes req through the pipeline to h. level reads the caller's
// API-Level header; it is read only at releases that have levels. A
// request whose Principal is set is not authenticated again (the push
// service acts as an administrator of the domain it publishes to). With
// req.Debug on a change, the reply is the debug_list and h is not run
// (seed 000 "Errors" 3; reference 01 section 5). The reply is in the
// newest model (compat.Reply shapes it for the caller); a panic in h is
// 99999.
func (s *Server) run(ctx context.Context, req *api.Request, h api.Handler, level func() (int, error)) (reply wire.Object, err error) {
	if err := s.gate(req, level); err != nil {
		return nil, err
	}
	if !req.Endpoint.Public && req.Principal == nil {
		p, err := s.auth.Authenticate(ctx, req.Args.Token(), req.Cookie)
		if err != nil {
			return nil, err
		}
		req.Principal = p
	}
	// An operator's change, done or refused, is audited (audit.go).
	defer func() { s.audit(ctx, req, err) }()
	if err := s.readFiles(ctx, req.Endpoint, req.Args); err != nil { // only now, authenticated (bodies.go)
		return nil, err
	}
	// Validation before any handler.
	problems := s.compatIn(req)
	problems = append(problems, validate.CheckAt(req.Endpoint, req.Args, compat.Absent(req.Endpoint.Name, req.Effective))...)
	problems = append(problems, badText(req)...)
	if req.Debug && req.Endpoint.Method != http.MethodGet {
		problems = append(problems, fileProblems(req.Endpoint, req.Args)...) // bodies.go
		return wire.Object{"debug_list": validate.DebugList(req.Args, problems)}, nil
	}
	if len(problems) > 0 {
		return nil, validate.Error(problems)
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "endpoint", req.Endpoint.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			reply, err = nil, wire.E(wire.CodeSystemError)
		}
	}()
	reply, err = h(ctx, req)
	if err != nil {
		return nil, api.Failure(err) // errors by meaning to platform codes (api/errors.go)
	}
	if reply == nil {
		reply = wire.Object{}
	}
	return reply, nil
}

// PushResources is what the push service builds its update messages with:
// the GET endpoints of the catalogue, run through the pipeline as an
// administrator of the channel's domain at the newest API-Level of the
// emulated release (internal/push, docs/push.md).
func (s *Server) PushResources() push.Resources {
	return push.Handlers{Platform: s.cfg.Release, Serve: func(ctx context.Context, req *api.Request, level int) (wire.Object, error) {
		return s.run(ctx, req, s.handlerOf(req.Endpoint.Name), func() (int, error) { return level, nil })
	}}
}

// handlerOf returns the handler of an endpoint: "not implemented" until a
// module's route table serves it.
func (s *Server) handlerOf(name string) api.Handler {
	if h := s.handlers[name]; h != nil {
		return h
	}
	return notImplemented
}

// compatIn reshapes the request into the newest model for the release the
// caller sees (internal/compat) and returns the values that release does
// not allow.
func (s *Server) compatIn(req *api.Request) []validate.Problem {
	flat := req.Args.Query
	if req.Endpoint.Style == catalog.Form {
		flat = req.Args.Form
	}
	var ps []validate.Problem
	for _, p := range compat.Request(req.Endpoint.Name, req.Effective, req.Args.Params, flat) {
		ps = append(ps, validate.Problem{Top: p.Path, Index: -1, Msg: p.Msg})
	}
	return ps
}

// gate checks that the endpoint exists at the emulated release and at the
// caller's API-Level (seed 000 "Versioning" 3 to 5), and fills in the
// effective release and level.
func (s *Server) gate(req *api.Request, level func() (int, error)) error {
	ep, plat := req.Endpoint, s.cfg.Release
	if !ep.ExistsAt(plat) {
		return wire.Errorf(wire.CodeNotSupported, "%s %s is not supported by platform release %s", ep.Method, ep.Path, plat)
	}
	header := 0
	if plat.HasLevels() { // releases before 6.0.0.3.0 ignore the header
		h, err := level()
		if err != nil {
			return err
		}
		header = h
	}
	req.Effective, req.Level = release.Effective(plat, header)
	if plat.HasLevels() && req.Level < ep.MinLevel {
		return wire.Errorf(wire.CodeNotSupported, "%s %s needs API-Level %d; the request's level is %d", ep.Method, ep.Path, ep.MinLevel, req.Level)
	}
	return nil
}
