package push

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/wire"
)

// Resources reads the current state of a vc resource as its GET reply,
// so that an update message carries what the client's GET of the channel
// returns (reference 02: "需再次发送HTTP GET请求").
type Resources interface {
	// Get returns the reply fields of a GET endpoint of the catalogue for
	// a user domain, in the newest model. ErrGone: the resource does not
	// exist (any failure the GET would answer); ErrNoHandler: no module
	// serves the endpoint yet.
	Get(ctx context.Context, domain, endpoint string, path map[string]string, query url.Values) (wire.Object, error)
	// Reshape shapes a reply for a client at an API-Level (0: none sent),
	// as the compatibility rules shape the GET's reply.
	Reshape(endpoint string, level int, reply wire.Object) wire.Object
}

// Errors of Resources.Get.
var (
	ErrGone      = errors.New("push: the resource does not exist")
	ErrNoHandler = errors.New("push: no handler serves the endpoint")
)

// Handlers reads resources by running the API's own GET endpoints through
// the server's request pipeline, as an administrator of the domain: the
// release gate, the API-Level, validation and the handlers' errors are
// those of the HTTP API.
type Handlers struct {
	// Serve runs a request through the pipeline for a caller at an
	// API-Level and returns the reply in the newest model.
	Serve    func(ctx context.Context, req *api.Request, level int) (wire.Object, error)
	Platform release.Release
}

// Get runs the endpoint's GET at the newest API-Level of the emulated
// release. The errors wrap the *wire.Error that the HTTP API answers.
func (h Handlers) Get(ctx context.Context, domain, endpoint string, path map[string]string, query url.Values) (wire.Object, error) {
	ep, ok := catalog.Lookup(endpoint)
	if !ok {
		return nil, ErrNoHandler
	}
	if query == nil {
		query = url.Values{}
	}
	req := &api.Request{Endpoint: ep, PathParams: path, Args: &wire.Args{Query: query, Form: url.Values{}},
		Platform: h.Platform, Principal: &auth.Principal{DomainMoid: domain, Admin: true}}
	reply, err := h.Serve(ctx, req, h.Platform.Level())
	var we *wire.Error
	if errors.As(err, &we) {
		if we.Code == wire.CodeNotImplemented {
			return nil, fmt.Errorf("%w: %w", ErrNoHandler, we)
		}
		return nil, fmt.Errorf("%w: %w", ErrGone, we)
	}
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// Reshape applies the compatibility rules of the release a GET at level
// sees (release.Effective).
func (h Handlers) Reshape(endpoint string, level int, reply wire.Object) wire.Object {
	if !h.Platform.HasLevels() {
		level = 0 // releases before 6.0.0.3.0 ignore API-Level
	}
	eff, _ := release.Effective(h.Platform, level)
	out := wire.DeepCopy(reply).(wire.Object)
	compat.Reply(endpoint, eff, out, nil)
	return out
}
