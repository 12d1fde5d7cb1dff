package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// watcher is a media backend that plays the simulation and records every
// request of the engine, for a server started with it (testserver
// Options.Media); events is the engine's side of the contract.
type watcher struct {
	media.Backend
	events media.Events
	mu     sync.Mutex
	asked  []string
}

func (w *watcher) note(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = append(w.asked, fmt.Sprintf(format, args...))
}

// take returns the requests since the last take.
func (w *watcher) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.asked
	w.asked = nil
	return out
}

func (w *watcher) Dial(ctx context.Context, conf, mt string, c media.Callee) (media.Identity, error) {
	w.note("dial %s %s", mt, c.Account)
	return w.Backend.Dial(ctx, conf, mt, c)
}
func (w *watcher) Hangup(ctx context.Context, conf, mt string) error {
	w.note("hangup %s", mt)
	return w.Backend.Hangup(ctx, conf, mt)
}
func (w *watcher) Apply(ctx context.Context, conf, mt string, c media.Control) error {
	w.note("apply %s %s=%d", mt, c.Kind, c.Value)
	return w.Backend.Apply(ctx, conf, mt, c)
}
func (w *watcher) SetBroadcast(ctx context.Context, conf string, b media.Broadcast) error {
	w.note("broadcast speaker=%q forced=%v layout=%d panes=%v poll=%q", b.Speaker, b.Forced, b.Layout, b.Panes, b.Poll)
	return w.Backend.SetBroadcast(ctx, conf, b)
}
func (w *watcher) SetMix(ctx context.Context, conf string, m media.Mix) error {
	w.note("mix all=%v members=%v", m.All, m.Members)
	return w.Backend.SetMix(ctx, conf, m)
}
func (w *watcher) SetDual(ctx context.Context, conf, mt string) error {
	w.note("dual %q", mt)
	return w.Backend.SetDual(ctx, conf, mt)
}
func (w *watcher) EndConference(ctx context.Context, conf string) error {
	w.note("end")
	return w.Backend.EndConference(ctx, conf)
}
func (w *watcher) RunDue(ctx context.Context) error { return w.Backend.(media.DueRunner).RunDue(ctx) }

func startWatched(t *testing.T, dsn string) (*testserver.Env, *watcher) {
	w := &watcher{}
	env := testserver.Start(t, dsn, testserver.Options{Media: func(ev media.Events) media.Backend {
		w.events = ev
		return w
	}})
	// The simulation it plays, on the server's store and clock (made
	// before the server's first request).
	w.Backend = media.Simulation(env.Store, env.Clock)(w.events)
	return env, w
}

// has reports whether got holds a request starting with each of want.
func has(t *testing.T, step string, got []string, want ...string) {
	t.Helper()
	for _, p := range want {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, p)
		}
		if !found {
			t.Errorf("%s: no request %q among %q", step, p, got)
		}
	}
}

// Every media-related vc control reaches the media backend through the
// engine: per-terminal controls (Apply), the speaker, forced broadcast,
// composition and poll, also as the poll turns (SetBroadcast), the mix
// (SetMix), the dual stream (SetDual), hang-up and the end of the
// conference.
func TestVCControlsReachTheBackend(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, w := startWatched(t, dsn)
		c := env.LoggedIn(t)
		members := []any{
			map[string]any{"name": "a", "account": "10.0.9.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
			map[string]any{"name": "b", "account": "10.0.9.2", "account_type": 7, "bitrate": 1024, "protocol": 0},
		}
		id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "watched",
			"bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2, "call_times": 1, "call_interval": 20, "invite_members": members})))["conf_id"].(string)
		has(t, "start", w.take(), "dial 1 10.0.9.1", "dial 2 10.0.9.2")
		env.Advance(t, 3*time.Second)
		w.take()
		base := "/api/v1/vc/confs/" + id
		steps := []struct {
			name, method, path string
			params             map[string]any
			want               []string
			advance            time.Duration // instead of a request: the clock moves, the server ticks
		}{
			{"mute", "PUT", "/mts/1/mute", map[string]any{"value": 1}, []string{"apply 1 mute=1"}, 0},
			{"silence", "PUT", "/mts/2/silence", map[string]any{"value": 1}, []string{"apply 2 silence=1"}, 0},
			{"volume", "PUT", "/mts/1/volume", map[string]any{"vol_mode": 1, "vol_value": 3}, []string{"apply 1 volume=3"}, 0},
			{"speaker", "PUT", "/speaker", map[string]any{"mt_id": "1"}, []string{`broadcast speaker="1"`}, 0},
			{"forced broadcast", "PUT", "/forcebroadcast", map[string]any{"force_broadcast": 1}, []string{`broadcast speaker="1" forced=true`}, 0},
			{"composition", "POST", "/vmps", map[string]any{"mode": 1, "layout": 2, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
				"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2},
				"members":       []any{map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": "2"}}}, []string{`broadcast speaker="1" forced=true layout=2 panes=[{0 2}`}, 0},
			{"mix", "POST", "/mixs", map[string]any{"mode": 2, "members": []any{map[string]any{"mt_id": "1"}}}, []string{"mix all=false members=[1]"}, 0},
			{"poll", "PUT", "/poll", map[string]any{"mode": 1, "num": 0, "keep_time": 5, "members": []any{map[string]any{"mt_id": "2"}, map[string]any{"mt_id": "1"}}}, []string{`broadcast speaker="1" forced=true layout=2 panes=[{0 2}] poll="2"`}, 0},
			{"poll turns", "", "", nil, []string{`broadcast speaker="1" forced=true layout=2 panes=[{0 2}] poll="1"`}, 5 * time.Second},
			{"dual stream", "PUT", "/dualstream", map[string]any{"mt_id": "2"}, []string{`dual "2"`}, 0},
			{"mix stopped", "DELETE", "/mixs/1", nil, []string{"mix all=true"}, 0},
			{"hang-up", "DELETE", "/online_mts", map[string]any{"mts": []any{map[string]any{"mt_id": "2"}}}, []string{"hangup 2", `broadcast speaker="1" forced=true layout=2 panes=[] poll="1"`}, 0},
		}
		for _, s := range steps {
			if s.advance > 0 {
				env.Advance(t, s.advance)
				has(t, s.name, w.take(), s.want...)
				continue
			}
			var p = testserver.Params(t, s.params)
			if s.params == nil {
				p = nil
			}
			testserver.MustOK(t, c.Do(s.method, base+s.path, p))
			has(t, s.name, w.take(), s.want...)
		}
		testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
		has(t, "end", w.take(), "end")
	})
}

// A participant that arrives on its own (media.Events.Joined) is a
// terminal of the conference: listed with its name as alias, online,
// counted against max_join_mt (8 here); when it leaves (Left) it is
// offline.
func TestParticipantsAreTerminals(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, w := startWatched(t, dsn)
		c := env.LoggedIn(t)
		id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "joined",
			"bitrate": 1024, "max_join_mt": 8, "duration": 0})))["conf_id"].(string)
		ctx := context.Background()
		mt, err := w.events.Joined(ctx, id, media.Participant{Name: "Alice", Kind: "browser"})
		if err != nil {
			t.Fatal(err)
		}
		list := func() map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, v := range testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any) {
				m := v.(map[string]any)
				out[fmt.Sprint(m["mt_id"])] = m
			}
			return out
		}
		if got := list()[mt]; got == nil || got["alias"] != "Alice" || fmt.Sprint(got["online"]) != "1" {
			t.Fatalf("the participant's terminal %s: %v", mt, got)
		}
		for i := 2; i <= 8; i++ {
			if _, err := w.events.Joined(ctx, id, media.Participant{Name: fmt.Sprint("p", i), Kind: "whip"}); err != nil {
				t.Fatal(i, err)
			}
		}
		if _, err := w.events.Joined(ctx, id, media.Participant{Name: "Carol", Kind: "whip"}); !errors.Is(err, media.ErrFull) {
			t.Errorf("a ninth participant of a conference of 8 = %v, want ErrFull", err)
		}
		if _, err := w.events.Joined(ctx, "1119999", media.Participant{Name: "Dan", Kind: "browser"}); !errors.Is(err, media.ErrEnded) {
			t.Errorf("a participant of no conference = %v, want ErrEnded", err)
		}
		if err := w.events.Left(ctx, id, mt, true); err != nil {
			t.Fatal(err)
		}
		if got := list()[mt]; got == nil || fmt.Sprint(got["online"]) != "0" {
			t.Fatalf("the participant's terminal after it left: %v", got)
		}
	})
}

// conflicting is a watcher whose first dial of a terminal also changes the
// terminal's record, as a hang-up running at the same moment would: the
// engine's write of "calling" then conflicts and the call is placed again.
type conflicting struct {
	*watcher
	env   *testserver.Env
	once  sync.Once
	conf  string
	touch string // mt_id whose first dial conflicts
}

func (c *conflicting) Dial(ctx context.Context, conf, mt string, callee media.Callee) (media.Identity, error) {
	if mt == c.touch {
		c.once.Do(func() {
			st := c.env.Store
			recs, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: record.KindMT, OwnerMoid: conf})
			if err == nil && len(recs) != 1 {
				err = fmt.Errorf("%d terminals", len(recs))
			}
			if err == nil {
				recs[0].UpdatedAt = recs[0].UpdatedAt.Add(time.Millisecond)
				err = st.SwapRecord(ctx, recs[0])
			}
			if err != nil {
				c.watcher.note("touch failed: %v", err)
			}
		})
	}
	return c.watcher.Dial(ctx, conf, mt, callee)
}

// A call whose record changed while it was placed is hung up in the media
// plane before it is placed again (no call rings on that the store does not
// know), and counts as one attempt in the metrics.
func TestConflictedCallIsHungUpAndCountedOnce(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		w := &watcher{}
		cw := &conflicting{watcher: w, touch: "1"}
		env := testserver.Start(t, dsn, testserver.Options{Media: func(ev media.Events) media.Backend {
			w.events = ev
			return cw
		}})
		cw.env = env
		w.Backend = media.Simulation(env.Store, env.Clock)(w.events)
		c := env.LoggedIn(t)
		id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "conflicted",
			"bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 0})))["conf_id"].(string)
		testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, map[string]any{"mts": []any{
			map[string]any{"account": "10.0.9.1", "account_type": 7, "bitrate": 1024, "protocol": 0}}})))
		w.take()
		before := env.Srv.Calls().Attempted.Load()
		testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/online_mts", testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": "1"}}})))
		got := w.take()
		if strings.Join(got, "|") != "dial 1 10.0.9.1|hangup 1|dial 1 10.0.9.1" {
			t.Fatalf("media requests of a call that conflicted once: %q, want dial, hangup, dial", got)
		}
		if n := env.Srv.Calls().Attempted.Load() - before; n != 1 {
			t.Fatalf("calls attempted grew by %d, want 1", n)
		}
	})
}
