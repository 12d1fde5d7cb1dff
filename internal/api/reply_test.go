package api_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Typed answers the reply's wire object, or the handler's error alone;
// Done answers the envelope alone (no object) or the error; Without
// leaves the named members out of the reply's object, and only them.
func TestReplyAdapters(t *testing.T) {
	ctx, r := context.Background(), &api.Request{}
	fail := errors.New("refused")
	reply := &model.VCTvWallsCreateReply{HDUID: "3_0", Page: "/wall/3_0"}

	got, err := api.Typed(func(context.Context, *api.Request) (*model.VCTvWallsCreateReply, error) { return reply, nil })(ctx, r)
	if want := (wire.Object{"hdu_id": "3_0", "page": "/wall/3_0"}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Typed: %v, %v; want %v", got, err, want)
	}
	got, err = api.Typed(func(context.Context, *api.Request) (*model.VCTvWallsCreateReply, error) { return nil, fail })(ctx, r)
	if got != nil || !errors.Is(err, fail) {
		t.Errorf("Typed failing: %v, %v", got, err)
	}
	for _, want := range []error{nil, fail} {
		got, err := api.Done(func(context.Context, *api.Request) error { return want })(ctx, r)
		if got != nil || !errors.Is(err, want) {
			t.Errorf("Done(%v): %v, %v", want, got, err)
		}
	}
	got = api.Without(reply, "page", "absent").Wire()
	if want := (wire.Object{"hdu_id": "3_0"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Without: %v, want %v", got, want)
	}
	if full := reply.Wire(); len(full) != 2 {
		t.Errorf("Without changed the reply itself: %v", full)
	}
}
