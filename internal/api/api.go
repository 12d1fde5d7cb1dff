// Package api is the contract between the HTTP layer and the module
// packages: a Handler receives a decoded, authenticated Request and returns
// the reply fields of the newest model, or an error.
package api

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/wire"
)

// Request is one call of a catalogue endpoint.
type Request struct {
	Endpoint   *catalog.Endpoint
	PathParams map[string]string
	Args       *wire.Args
	Cookie     string // SSO_COOKIE_KEY, "" when absent
	BaseURL    string // scheme://host the request reached, for links in replies ("" over push)
	Client     string // the client's IP address, for the credential throttle ("" over push)

	Platform  release.Release // the emulated release (--release)
	Effective release.Release // the release whose shapes this caller sees
	Level     int             // the caller's effective API-Level, 0 before 6.0.0.3.0
	Debug     bool            // debug=1: validate only, execute nothing

	Principal *auth.Principal // nil on public endpoints

	// SetCookies are added to the reply.
	SetCookies []*http.Cookie
	// Raw, when a handler sets it, is written as the whole reply body
	// instead of the envelope (the OpenAPI document); a []byte is written
	// as it is (an envelope the handler encoded, vc.confs.list).
	Raw any
}

// Path returns a path parameter.
func (r *Request) Path(name string) string { return r.PathParams[name] }

// Handler serves one endpoint. It returns the reply fields without the
// envelope; the server adds success.
type Handler func(ctx context.Context, r *Request) (wire.Object, error)

// Routes is a module's route table: the catalogue endpoints it serves,
// by name, with their handlers. Each module lists its routes in one
// function (Routes), which server.New reads; the catalogue stays the one
// description of the wire contract (internal/catalog).
type Routes map[string]Handler

// Registry maps catalogue endpoint names to handlers: the route tables of
// every module together.
type Registry map[string]Handler

// Add attaches a module's routes; it refuses a name the catalogue lacks, a
// route without a handler and a second handler for an endpoint.
func (reg Registry) Add(routes Routes) error {
	for _, name := range slices.Sorted(maps.Keys(routes)) {
		h := routes[name]
		if _, ok := catalog.Lookup(name); !ok {
			return fmt.Errorf("api: no catalogue endpoint %q", name)
		}
		if h == nil {
			return fmt.Errorf("api: route %q has no handler", name)
		}
		if _, dup := reg[name]; dup {
			return fmt.Errorf("api: endpoint %q has two handlers", name)
		}
		reg[name] = h
	}
	return nil
}
