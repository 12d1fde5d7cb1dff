package server_test

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/metered"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// TestStopDuringRecordingAndPlayback stops a node (what conferd does on
// SIGTERM: Server.Stop, then the store closes) while a conference records
// a playback that plays into it: once Stop returned the server makes no
// store operation, and after the store closed no goroutine the server
// started is left (goleak: a watcher still running could write to a
// closed store). docs/architecture.md "One lifecycle".
func TestStopDuringRecordingAndPlayback(t *testing.T) {
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed (apt-get install ffmpeg): the playback needs a program file")
	}
	before := goleak.IgnoreCurrent() // the goroutines of the process and of earlier tests
	ops := metered.NewMetrics()
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{},
		Recording: server.RecordingConfig{Dir: recDir},
		WrapStore: func(st *sqlstore.DB) store.Store { return metered.Wrap(st, ops) }})
	c := env.LoggedIn(t)
	conf := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{
		"create_type": 1, "name": "shutdown", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}})))["conf_id"].(string)
	vcPath := "/api/v1/vc/confs/" + conf
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]

	// A program of 30 s, played into the conference, which records it.
	out := filepath.Join(recDir, "play", "movie.webm")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(ff, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15",
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "30", "-c:v", "libvpx", "-g", "15",
		"-deadline", "realtime", "-cpu-used", "8", "-b:v", "100k", "-c:a", "libopus", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	data, err := shape.Encode(map[string]any{"id": "9001", "name": "movie", "duration": 30, "file": "play/movie.webm", "vrs_id": ""})
	if err != nil {
		t.Fatal(err)
	}
	domain := testserver.MustOK(t, c.Do("GET", vcPath, nil))["user_domain_moid"]
	now := env.Clock.Now()
	if err := env.Store.CreateRecord(context.Background(), store.Record{Kind: vc.KindProgram, ID: "9001", DomainMoid: domain.(string),
		State: "ready", Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	testserver.MustOK(t, c.Do("POST", vcPath+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "movie", "file_id": 9001, "vrs_id": vrsID})))
	mt := ""
	waitUntil(t, "the playback online", func() bool {
		r := testserver.MustOK(t, c.Do("GET", vcPath+"/mts", nil))
		for _, x := range r["mts"].([]any) {
			m := x.(map[string]any)
			if m["alias"] == "movie" && m["online"] == float64(1) {
				mt = m["mt_id"].(string)
				return true
			}
		}
		return false
	})
	testserver.MustOK(t, c.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "take", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))
	waitUntil(t, "the recording writing the playback", func() bool {
		return scrape(t, env.URL, "confer_recording_bytes_written_total") > 0
	})

	// SIGTERM: the server stops, then the store closes.
	if err := env.Srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	stopped := opCount(t, ops)
	if err := env.Store.Close(); err != nil {
		t.Fatal(err)
	}
	// Nothing the server started is left (the HTTP test server's own
	// goroutines close at cleanup); goleak retries while goroutines end.
	if err := goleak.Find(before, goleak.IgnoreAnyFunction("net/http/httptest.(*Server).goServe.func1"),
		goleak.IgnoreAnyFunction("net/http.(*conn).serve"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop")); err != nil {
		t.Errorf("goroutines left after Stop and the store's Close:\n%v", err)
	}
	if n := opCount(t, ops); n != stopped {
		t.Errorf("the server made %d store operations after Stop returned", n-stopped)
	}
}

// waitUntil polls cond until it holds, bounded by the test's deadline only.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if browsertest.Expired(t) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// scrape reads one unlabelled counter or gauge of the server's /metrics.
func scrape(t *testing.T, base, name string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

// opCount is how many store operations the metered store saw.
func opCount(t *testing.T, m *metered.Metrics) uint64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.Collectors()...)
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, f := range fams {
		for _, mt := range f.GetMetric() {
			if h := mt.GetHistogram(); h != nil {
				n += h.GetSampleCount()
			}
		}
	}
	return n
}
