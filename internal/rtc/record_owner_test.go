package rtc_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// TestRecordingFollowsTheMediaOwner: two nodes on one PostgreSQL database
// sharing one recordings folder (docs/deployment.md). Node A owns a
// conference's media (a WHIP publisher of real VP8 and Opus, the
// speaker); a recording started, paused and resumed through node B
// records on A (A's SFU, A's media), not on B. A stops abruptly; once its
// lease lapses B takes the media over and continues the recording into a
// second part, the publisher posts again to B, and the stop through B
// stores one program with both parts, each a file with real frames
// (docs/recording.md "Several nodes"; issue 35).
func TestRecordingFollowsTheMediaOwner(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 10)
	recDir := filepath.Join(dir, "recordings")
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}, MediaLease: failoverLease, Recording: server.RecordingConfig{Dir: recDir}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "recorded on the owner")
	vcPath := "/api/v1/vc/confs/" + conf

	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMedia(t, tok["whip_url"].(string), tok["token"].(string), packets)
	mt := onlineTerminal(t, ca, conf, "camera")
	testserver.MustOK(t, ca.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}

	// Started, paused and resumed through B: recorded by A.
	vrsID := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, cb.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "moved", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	if ra, rb := metric(t, a.Env, "confer_recordings_running"), metric(t, b.Env, "confer_recordings_running"); ra != "1" || rb != "0" {
		t.Fatalf("recordings running on A %s, on B %s: want the owner A to record", ra, rb)
	}
	state := func(v int) {
		testserver.MustOK(t, cb.Do("PUT", vcPath+"/recorders/"+rec+"/state", testserver.Params(t, map[string]any{"value": v, "recorder_mode": 1})))
	}
	pub.send(t, 0, 2*time.Second)
	state(1) // pause
	state(2) // resume
	pub.send(t, 2*time.Second, 5*time.Second)

	// A stops; once its lease lapses B owns the media and records part 2.
	a.Kill()
	a.Clock.Advance(failoverLease)
	waitFor(t, "B the conference's media owner", func() bool { return ownerURL(t, b, conf) == b.URL })
	waitFor(t, "the recording continued on B", func() bool { return metric(t, b.Env, "confer_recordings_running") == "1" })

	// The publisher comes back through B and is the speaker again.
	whipB := strings.Replace(tok["whip_url"].(string), a.URL, b.URL, 1)
	pub2 := publishMedia(t, whipB, tok["token"].(string), packets)
	var mt2 string
	waitFor(t, "the publisher online again through B", func() bool {
		mt2 = ""
		for _, m := range b.Srv.SFU().Participants(conf) {
			if m != mt {
				mt2 = m
			}
		}
		return mt2 != ""
	})
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt2})))
	pub2.send(t, 0, 5*time.Second)
	testserver.MustOK(t, cb.Do("DELETE", vcPath+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	// One program with both parts, each a file with real frames.
	recs, _, err := b.Store.ListRecords(context.Background(), store.RecordQuery{Kind: vc.KindProgram})
	if err != nil {
		t.Fatal(err)
	}
	var prg map[string]any
	for _, r := range recs {
		if r.ID == rec {
			if err := json.Unmarshal(r.Data, &prg); err != nil {
				t.Fatal(err)
			}
		}
	}
	parts, _ := prg["parts"].([]any)
	if len(parts) != 2 {
		t.Fatalf("program %s = %v, want two parts", rec, prg)
	}
	var sum float64
	for i, p := range parts {
		p := p.(map[string]any)
		if p["gap"] != false {
			t.Errorf("part %d is a gap: %v", i+1, p)
		}
		file := filepath.Join(recDir, filepath.FromSlash(p["file"].(string)))
		probe := rectest.ProbeFile(t, file)
		v, ok := probe.Stream("video")
		if !ok || v.Codec != "vp8" || v.Width != rectest.Width || len(probe.Video) < 20 {
			t.Errorf("part %d (%s): streams %+v, %d video frames", i+1, p["file"], probe.Streams, len(probe.Video))
		}
		if d := probe.Duration(); d < 2*time.Second {
			t.Errorf("part %d lasts %v, want the seconds recorded on its node", i+1, d)
		}
		sum += p["duration_ms"].(float64)
	}
	if want := []string{rec + ".webm", rec + "-2.webm"}; !slices.Equal([]string{filepath.Base(parts[0].(map[string]any)["file"].(string)),
		filepath.Base(parts[1].(map[string]any)["file"].(string))}, want) {
		t.Errorf("parts %v, want files %v", parts, want)
	}
	if got := prg["duration_ms"].(float64); got != sum {
		t.Errorf("the program's duration_ms %v, want the parts' sum %v", got, sum)
	}
}
