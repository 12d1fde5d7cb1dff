package engine_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/testdb"
)

// recorder is a media backend that plays the simulation and records what
// it is asked: the controls it applies (applied) and every other request
// (asked); failApply makes Apply fail.
type recorder struct {
	media.Backend
	applied   []string
	asked     []string
	failApply bool
}

// recording makes f's engine one whose backend is a recorder.
func recording(t *testing.T, f *fixture) *recorder {
	rec := &recorder{}
	f.use(t, engine.New(f.st, f.clk, engine.Config{}, func(ev media.Events) media.Backend {
		rec.Backend = media.Simulation(f.st, f.clk)(ev)
		return rec
	}, nil, nil))
	return rec
}

func (r *recorder) Dial(ctx context.Context, conf, mt string, c media.Callee) (media.Identity, error) {
	r.asked = append(r.asked, fmt.Sprintf("dial %s/%s %s", conf, mt, c.Account))
	return r.Backend.Dial(ctx, conf, mt, c)
}

func (r *recorder) Hangup(ctx context.Context, conf, mt string) error {
	r.asked = append(r.asked, fmt.Sprintf("hangup %s/%s", conf, mt))
	return r.Backend.Hangup(ctx, conf, mt)
}

func (r *recorder) SetBroadcast(ctx context.Context, conf string, b media.Broadcast) error {
	r.asked = append(r.asked, fmt.Sprintf("broadcast %s %+v", conf, b))
	return r.Backend.SetBroadcast(ctx, conf, b)
}

func (r *recorder) SetMix(ctx context.Context, conf string, m media.Mix) error {
	r.asked = append(r.asked, fmt.Sprintf("mix %s %+v", conf, m))
	return r.Backend.SetMix(ctx, conf, m)
}

func (r *recorder) SetDual(ctx context.Context, conf, mt string) error {
	r.asked = append(r.asked, fmt.Sprintf("dual %s %q", conf, mt))
	return r.Backend.SetDual(ctx, conf, mt)
}

func (r *recorder) EndConference(ctx context.Context, conf string) error {
	r.asked = append(r.asked, "end "+conf)
	return r.Backend.EndConference(ctx, conf)
}

func (r *recorder) Apply(ctx context.Context, confID, mtID string, c media.Control) error {
	if r.failApply {
		return errors.New("media plane down")
	}
	r.applied = append(r.applied, fmt.Sprintf("%s/%s %s=%d %v", confID, mtID, c.Kind, c.Value, c.Extra))
	return nil
}

// docInt is the member k of tm's stored document, an integer.
func docInt(t *testing.T, tm engine.Terminal, k string) int {
	t.Helper()
	doc, err := shape.Decode(tm.Rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := fmt.Sscan(fmt.Sprint(doc[k]), &n); err != nil {
		t.Fatalf("%s = %v: %v", k, doc[k], err)
	}
	return n
}

// Each control goes through Backend.Apply and is stored in the terminal
// document; a terminal that is not online is refused and nothing is
// applied; a backend failure stores nothing.
func TestPerTerminalControls(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		f := setup(t, dsn)
		rec := recording(t, f)
		ctx := context.Background()
		if _, err := f.e.Add(ctx, f.c, []engine.Member{
			{Callee: media.Callee{Account: "1001"}, CallMode: -1},
			{Callee: media.Callee{Account: "1002"}, CallMode: engine.CallManual},
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.e.SetMute(ctx, f.c, "1", true); err != engine.ErrNotOnline {
			t.Fatalf("mute while ringing = %v, want ErrNotOnline", err)
		}
		if _, err := f.e.SetMute(ctx, f.c, "9", true); err != engine.ErrNotFound {
			t.Fatalf("mute of an unknown terminal = %v", err)
		}
		f.advance(t, 3*time.Second)
		steps := []func() (engine.Terminal, error){
			func() (engine.Terminal, error) { return f.e.SetMute(ctx, f.c, "1", true) },
			func() (engine.Terminal, error) { return f.e.SetSilence(ctx, f.c, "1", true) },
			func() (engine.Terminal, error) { return f.e.SetVolume(ctx, f.c, "1", engine.VolLoudspeaker, 30) },
			func() (engine.Terminal, error) { return f.e.SetVolume(ctx, f.c, "1", engine.VolMicrophone, 7) },
			func() (engine.Terminal, error) { return f.e.Camera(ctx, f.c, "1", 0, 9) },
			func() (engine.Terminal, error) { return f.e.SetVideoSource(ctx, f.c, "1", 1) },
		}
		for i, s := range steps {
			if _, err := s(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		want := []string{
			"1110000/1 mute=1 map[]", "1110000/1 silence=1 map[]", "1110000/1 volume=30 map[vol_mode:1]",
			"1110000/1 volume=7 map[vol_mode:2]", "1110000/1 camera=9 map[state:0]", "1110000/1 video=1 map[]",
		}
		if !reflect.DeepEqual(rec.applied, want) {
			t.Fatalf("applied %q, want %q", rec.applied, want)
		}
		tm, err := f.e.Get(ctx, f.c, "1")
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range map[string]int{"mute": 1, "silence": 1, "rcv_volume": 30, "snd_volume": 7} {
			if got := docInt(t, tm, k); got != v {
				t.Errorf("%s = %d, want %d", k, got, v)
			}
		}
		if srcs, cur := engine.VideoSources(tm); cur != 1 || len(srcs) != 2 {
			t.Errorf("video sources %v, current %d; want 2 sources, current 1", srcs, cur)
		}
		if _, err := f.e.SetVideoSource(ctx, f.c, "1", 7); err != engine.ErrNoVideoSource {
			t.Errorf("unknown video source = %v", err)
		}
		// A failing media plane stores nothing.
		rec.failApply = true
		if _, err := f.e.SetMute(ctx, f.c, "1", false); err == nil {
			t.Fatal("mute with a failing backend succeeded")
		}
		if tm, _ := f.e.Get(ctx, f.c, "1"); docInt(t, tm, "mute") != 1 {
			t.Error("a failed control was stored")
		}
		rec.failApply = false
		// The idle manual member is refused, and nothing was applied to it.
		n := len(rec.applied)
		if _, err := f.e.SetSilence(ctx, f.c, "2", true); err != engine.ErrNotOnline {
			t.Fatalf("silence of an idle terminal = %v", err)
		}
		if len(rec.applied) != n {
			t.Fatal("a refused control reached the backend")
		}
	})
}

// The call mode is stored online or not; switching an idle member to
// chase calls it and keeps calling it; switching back to manual stops the
// retries.
func TestSetCallMode(t *testing.T) {
	f := setup(t, testdb.SQLite(t))
	ctx := context.Background()
	if _, err := f.e.Add(ctx, f.c, []engine.Member{{Callee: media.Callee{Account: "1002"}, CallMode: engine.CallManual}}); err != nil {
		t.Fatal(err)
	}
	tm, err := f.e.SetCallMode(ctx, f.c, "1", engine.CallChase)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Rec.State != engine.StateCalling || docInt(t, tm, "call_mode") != engine.CallChase {
		t.Fatalf("after chase: %s %s", tm.Rec.State, tm.Rec.Data)
	}
	for i := 0; i < 6; i++ { // beyond call_times 3: chase keeps going
		f.advance(t, 20*time.Second)
	}
	tm, _ = f.e.Get(ctx, f.c, "1")
	if tm.Rec.State != engine.StateCalling || tm.Own.Attempts != model.Some(7) {
		t.Fatalf("chase after 6 intervals: %s, %v attempts", tm.Rec.State, tm.Own.Attempts)
	}
	tm, err = f.e.SetCallMode(ctx, f.c, "1", engine.CallManual)
	if err != nil {
		t.Fatal(err)
	}
	f.advance(t, time.Minute)
	if tm, _ = f.e.Get(ctx, f.c, "1"); tm.Rec.State != engine.StateIdle || tm.Own.Attempts != model.Some(7) {
		t.Fatalf("manual again: %s, %v attempts", tm.Rec.State, tm.Own.Attempts)
	}
	if _, err := f.e.SetCallMode(ctx, f.c, "5", engine.CallAutomatic); err != engine.ErrNotFound {
		t.Fatalf("unknown terminal = %v", err)
	}
}

func (r *recorder) RunDue(ctx context.Context) error { return r.Backend.(media.DueRunner).RunDue(ctx) }
