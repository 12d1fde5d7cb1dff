package vc

import (
	"errors"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// linkRule (engine.Features.Link) refuses a link to the conference
// itself (20109), to a conference above the superior (20109) and to one
// another superior holds (20166); a link already established through the
// same link terminal is allowed again.
func TestLinkRule(t *testing.T) {
	conf := func(id string, up *engine.Superior) engine.Conference {
		return engine.Conference{Rec: store.Record{ID: id}, Superior: up}
	}
	a := conf("1", nil)
	b := conf("2", &engine.Superior{ConfID: "1", LinkID: "5"})
	x := conf("3", nil)
	for _, tc := range []struct {
		name   string
		chain  []engine.Conference
		sub    engine.Conference
		linkID string
		code   int
	}{
		{"free", []engine.Conference{a}, x, "4", 0},
		{"itself", []engine.Conference{a}, a, "4", CodeCascadeSuperior},
		{"above", []engine.Conference{b, a}, a, "4", CodeCascadeSuperior},
		{"taken", []engine.Conference{x}, b, "4", CodeCascadeTaken},
		{"same link", []engine.Conference{a}, b, "5", 0},
		{"other link", []engine.Conference{a}, b, "6", CodeCascadeTaken},
	} {
		err := linkRule(tc.chain[0].ID(), tc.chain, tc.sub, tc.linkID)
		var we *wire.Error
		switch {
		case tc.code == 0 && err != nil:
			t.Errorf("%s: %v, want allowed", tc.name, err)
		case tc.code != 0 && (!errors.As(err, &we) || we.Code != tc.code):
			t.Errorf("%s: %v, want code %d", tc.name, err, tc.code)
		}
	}
}
