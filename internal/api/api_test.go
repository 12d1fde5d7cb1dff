package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/wire"
)

func nop(context.Context, *api.Request) (wire.Object, error) { return nil, nil }

// Add refuses what would make the route tables disagree with the
// catalogue: an unknown name, a missing handler, a second handler.
func TestRegistryAdd(t *testing.T) {
	reg := api.Registry{}
	if err := reg.Add(api.Routes{"system.login": nop, "vc.confs.get": nop}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		routes api.Routes
		want   string
	}{
		{api.Routes{"vc.confs.get": nop}, "two handlers"},
		{api.Routes{"vc.no.such": nop}, "no catalogue endpoint"},
		{api.Routes{"vc.confs.list": nil}, "no handler"},
	} {
		err := reg.Add(tc.routes)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Add(%v) = %v, want an error with %q", tc.routes, err, tc.want)
		}
	}
	if len(reg) != 2 {
		t.Errorf("the registry has %d handlers after refusals, want 2", len(reg))
	}
}
