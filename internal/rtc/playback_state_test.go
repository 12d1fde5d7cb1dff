package rtc_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// playbackState reads GET .../playback's state and current_progress.
func playbackState(t *testing.T, c *testserver.Client, conf string) (state, progress int) {
	t.Helper()
	r := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/playback", nil))
	return int(r["state"].(float64)), int(r["current_progress"].(float64))
}

// TestPlaybackStartsAsynchronously: a playback's start answers at once;
// the playback is calling (4: its participant joins), then preparing (3:
// until its stream flows), then it plays (2), each state read through the
// API while it holds (vc.SetPlaybackStepHook), its position still until
// it plays. A playback whose
// participant cannot join (the node's sessions are full) stops (0) and
// /confs/{conf_id}/playback is notified with 24104 (reference 05 "开始放像，
// 异步操作", 07 "放像异常通知"; issue 35).
//
// Not parallel: the step hook is the process's, and a conference of
// another test's server (its store numbers conferences from the same
// first number) can have the same conf_id, its playback's steps then
// read here (seen at load: "at the start's step 4 GET /playback says
// state 2").
func TestPlaybackStartsAsynchronously(t *testing.T) {
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "late film")
	program(t, env, recDir, conf, "9101")
	vcPath := "/api/v1/vc/confs/" + conf
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	// Each step of the start stops (vc's hook) until the test has read
	// the state through the API: 4 while the participant joins, 3 once it
	// is prepared, 2 once the stream flows, the position still until then.
	var mu sync.Mutex
	var seen []int
	prev := vc.SetPlaybackStepHook(func(confID string, state int) {
		if confID != conf {
			return
		}
		// Not playbackState: its MustOK would t.Fatal off the test's
		// goroutine.
		r := c.Do("GET", "/api/v1/vc/confs/"+conf+"/playback", nil)
		st, _ := r.Body["state"].(float64)
		pos, _ := r.Body["current_progress"].(float64)
		if !r.OK() {
			t.Errorf("GET /playback at the start's step %d: %v", state, r.Body)
		}
		if int(st) != state {
			t.Errorf("at the start's step %d GET /playback says state %v", state, st)
		}
		if st != 2 && pos != 0 {
			t.Errorf("state %v at %v s, want 0 s until it plays", st, pos)
		}
		mu.Lock()
		seen = append(seen, int(st))
		mu.Unlock()
	})
	t.Cleanup(func() { vc.SetPlaybackStepHook(prev) })
	testserver.MustOK(t, c.Do("POST", vcPath+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "movie", "file_id": 9101, "vrs_id": vrsID})))
	waitFor(t, "the playback playing (2)", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) > 0 && seen[len(seen)-1] == 2
	})
	mu.Lock()
	if !slices.Equal(seen, []int{4, 3, 2}) {
		t.Errorf("states %v, want 4, 3, 2", seen)
	}
	mu.Unlock()
	if st, _ := playbackState(t, c, conf); st != 2 {
		t.Errorf("state %d after the stream flowed, want 2", st)
	}
	if _, online := terminal(t, c, conf, "movie"); !online {
		t.Error("the playing playback's terminal is not online")
	}
	tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	w, code := watch(t, tok["whep_url"].(string), tok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the file's video at the viewer", func() bool { return w.video.Load() >= 10 })

	// A participant that cannot join: stopped, 24104.
	full := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{MaxSessions: 1}, Recording: server.RecordingConfig{Dir: recDir}})
	cf := full.LoggedIn(t)
	conf2 := startConf(t, cf, "full house")
	program(t, full, recDir, conf2, "9102")
	pt := rtcToken(t, cf, conf2, map[string]any{"name": "camera", "role": "publish"})
	publish(t, pt["whip_url"].(string), pt["token"].(string))
	vrs2 := testserver.MustOK(t, cf.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	testserver.MustOK(t, cf.Do("POST", "/api/v1/vc/confs/"+conf2+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "movie", "file_id": 9102, "vrs_id": vrs2})))
	waitFor(t, "the failed playback stopped (0)", func() bool { st, _ := playbackState(t, cf, conf2); return st == 0 })
	evs, err := full.Store.EventsSince(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	notified := false
	for _, ev := range evs {
		if ev.Kind == store.KindNotice && ev.ID == "/playback" && strings.Contains(string(ev.Data), `"error_code":24104`) {
			notified = true
		}
	}
	if !notified {
		t.Error("no 24104 notification on /playback")
	}
}

// TestPlaybackOnTheMediaOwner: two nodes on one PostgreSQL database
// sharing a recordings folder; node A owns the conference's media (a
// WHEP viewer). A playback started through node B plays on A: its
// participant is in A's SFU, none in B's, and A's viewer receives the
// file; a stop through B ends it on A (docs/live.md "Playback").
func TestPlaybackOnTheMediaOwner(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	recDir := t.TempDir()
	opt := testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "film on A")
	program(t, a.Env, recDir, conf, "9201")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	w, code := watch(t, tok["whep_url"].(string), tok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST on A = %d", code)
	}
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}
	vcPath := "/api/v1/vc/confs/" + conf
	vrsID := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	testserver.MustOK(t, cb.Do("POST", vcPath+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "movie", "file_id": 9201, "vrs_id": vrsID})))
	waitFor(t, "the playback playing (2)", func() bool { st, _ := playbackState(t, cb, conf); return st == 2 })
	mt := onlineTerminal(t, cb, conf, "movie")
	if !slices.Contains(a.Srv.SFU().Participants(conf), mt) || len(b.Srv.SFU().Participants(conf)) != 0 {
		t.Errorf("the playback %s: A holds %v, B %v; want it on A only", mt, a.Srv.SFU().Participants(conf), b.Srv.SFU().Participants(conf))
	}
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	waitFor(t, "the file's video at A's viewer", func() bool { return w.video.Load() >= 10 })
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/playback/state", testserver.Params(t, map[string]any{"value": 0})))
	waitFor(t, "the playback gone from A", func() bool { return !slices.Contains(a.Srv.SFU().Participants(conf), mt) })
}
