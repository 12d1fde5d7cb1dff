package api

import (
	"context"

	"github.com/confer-platform/confer/internal/wire"
)

// The adapters of a module's handlers to Handler: a handler answers a
// generated reply type (Typed) or the envelope alone (Done), and the
// edge encodes it; the handler writes no wire object itself.

// Reply is a generated reply type (internal/model).
type Reply interface{ Wire() wire.Object }

// Typed serves a handler that answers a generated reply type.
func Typed[R Reply](h func(context.Context, *Request) (R, error)) Handler {
	return func(ctx context.Context, r *Request) (wire.Object, error) {
		out, err := h(ctx, r)
		if err != nil {
			return nil, err
		}
		return out.Wire(), nil
	}
}

// Done serves a handler whose reply is the envelope alone.
func Done(h func(context.Context, *Request) error) Handler {
	return func(ctx context.Context, r *Request) (wire.Object, error) { return nil, h(ctx, r) }
}

// Without is reply r without the members names: a reply whose schema
// leaves members out in some cases (a subordinate's terminal has no
// protocol nor call_mode, reference 05 "获取与会终端信息").
func Without(r Reply, names ...string) Reply { return without{r, names} }

type without struct {
	Reply
	names []string
}

// Wire is the reply's object without the members.
func (w without) Wire() wire.Object {
	o := w.Reply.Wire()
	for _, n := range w.names {
		delete(o, n)
	}
	return o
}
