package vc

import (
	"context"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/wire"
)

// The adapters of vc's handlers to the route table's api.Handler: a
// handler answers a generated reply type (typed) or the envelope alone
// (done), and writes no wire object itself.

// replier is a generated reply type (internal/model).
type replier interface{ Wire() wire.Object }

// typed serves a handler that answers a generated reply type.
func typed[R replier](h func(context.Context, *api.Request) (R, error)) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		out, err := h(ctx, r)
		if err != nil {
			return nil, err
		}
		return out.Wire(), nil
	}
}

// done serves a handler whose reply is the envelope alone.
func done(h func(context.Context, *api.Request) error) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) { return nil, h(ctx, r) }
}
