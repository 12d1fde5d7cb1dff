package engine_test

import (
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
)

// fakeRun is a recording file that counts its pauses.
type fakeRun struct{ paused int }

func (r *fakeRun) Of() (string, string) { return "dom", "1110000" }
func (r *fakeRun) Pause()               { r.paused++ }
func (r *fakeRun) Resume()              {}

// The part of a recording file a hook started (Effects.Parts) is stored
// with its recording by the engine, and a paused recording's file pauses;
// a recording gone meanwhile drops the file and is an error.
func TestApplyStoresRecordingParts(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		f := setup(t, dsn)
		ctx := context.Background()
		c, err := f.e.Conferences().Get(ctx, "dom", f.c.ConfID, engine.StateRunning)
		if err != nil {
			t.Fatal(err)
		}
		c.Recorders = []engine.Recording{{RecID: "7", State: 2, Members: []string{}}}
		if err := f.e.Conferences().Update(ctx, c); err != nil {
			t.Fatal(err)
		}
		run := &fakeRun{}
		dropped := false
		part := engine.RecordingPart{File: "dom/7.webm", StartedAt: 1}
		if err := f.e.Apply(ctx, f.c, engine.Effects{Parts: []engine.RecordingStarted{{RecID: "7", Part: part, Run: run,
			Drop: func() { dropped = true }}}}); err != nil {
			t.Fatal(err)
		}
		c, err = f.e.Conferences().Get(ctx, "dom", f.c.ConfID, engine.StateRunning)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Recorders) != 1 || len(c.Recorders[0].Parts) != 1 || c.Recorders[0].Parts[0] != part {
			t.Fatalf("recorders after Apply: %+v", c.Recorders)
		}
		if run.paused != 1 || dropped {
			t.Errorf("paused %d times, dropped %v; want 1, false", run.paused, dropped)
		}
		err = f.e.Apply(ctx, f.c, engine.Effects{Parts: []engine.RecordingStarted{{RecID: "8", Part: part, Run: run,
			Drop: func() { dropped = true }}}})
		if err == nil || !dropped {
			t.Errorf("a part of an unknown recording: err %v, dropped %v; want an error and the file dropped", err, dropped)
		}
	})
}
