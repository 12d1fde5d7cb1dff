package rtc_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// front is the nodes' shared host name in the browser failover test: a
// reverse proxy that sends everything to the node it points at (the
// live one, as a load balancer's health check would choose). A 307 to
// another node's media URL is answered 503: the page retries, as it
// would behind a proxy that cannot reach the dead owner.
func front(t *testing.T, to *atomic.Value) *httptest.Server {
	t.Helper()
	p := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			u, _ := url.Parse(to.Load().(string))
			r.SetURL(u)
		},
		ModifyResponse: func(resp *http.Response) error {
			if resp.StatusCode == http.StatusTemporaryRedirect {
				resp.StatusCode, resp.Status = http.StatusServiceUnavailable, "503 Service Unavailable"
				resp.Header.Del("Location")
				resp.Body.Close()
				resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader("")), 0
				resp.Header.Set("Content-Length", "0")
			}
			return nil
		},
		ErrorHandler:  func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
		FlushInterval: -1,
	}
	s := httptest.NewServer(p)
	t.Cleanup(s.Close)
	return s
}

// TestBrowserFailover (issue 35 "Evidence"): two nodes on one PostgreSQL
// database behind one host name (front); node A owns a conference with a
// Chromium page as the speaker, a WHIP publisher, a WHEP viewer and a
// running recording. A stops abruptly (as kill -9, seen from the others:
// listener, connections and store gone). While A's lease runs the
// controls through B answer success or 90503, never 99999; once it lapses
// B takes the media over, and without a reload the page rejoins through
// B as the same terminal, its video reaches a viewer on B, the publisher
// and viewer post again to B, controls act on B, and the recording's stop
// stores one program with two parts.
func TestBrowserFailover(t *testing.T) {
	browsertest.Chromium(t) // skips before anything starts
	dsn := testdb.Postgres(t)
	recDir := t.TempDir()
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}, MediaLease: failoverLease, Recording: server.RecordingConfig{Dir: recDir}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	var to atomic.Value
	to.Store(a.URL)
	fr := front(t, &to)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "failover in a browser")
	vcPath := "/api/v1/vc/confs/" + conf

	// The page joins through the front (on A), and is the speaker.
	page := openBrowser(t)
	joinURL := strings.Replace(rtcToken(t, ca, conf, map[string]any{})["join_url"].(string), a.URL, fr.URL, 1)
	joinAs(t, page, joinURL, "Ada")
	ada := onlineTerminal(t, ca, conf, "Ada")
	testserver.MustOK(t, ca.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": ada})))
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}
	pageValue(t, page, `window.notReloaded = 1`)

	// A WHIP publisher and a WHEP viewer of Ada on A, and a recording.
	pubTok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	cam := onlineTerminal(t, ca, conf, "camera")
	subTok := rtcToken(t, ca, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	v, code := view(t, subTok["whep_url"].(string)+"?mt_id="+ada, subTok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on A = %d", code)
	}
	waitFor(t, "Ada's video at the viewer on A", func() bool { return v.video.Load() >= 30 })
	vrsID := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, cb.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "failover", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	waitFor(t, "the recording on A", func() bool { return metric(t, a.Env, "confer_recordings_running") == "1" })
	from := v.video.Load()
	waitFor(t, "more of Ada's video recorded", func() bool { return v.video.Load() >= from+60 })

	// A dies; the front sends everything to B. While A's lease runs the
	// controls through B are told to retry, never 99999.
	rejoins := pageValue(t, page, `window.confer.rejoins()`)
	a.Kill()
	to.Store(b.URL)
	neverSystemError(t, "speaker", cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": ada})))
	neverSystemError(t, "mute", cb.Do("PUT", vcPath+"/mts/"+cam+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	neverSystemError(t, "mute-all", cb.Do("PUT", vcPath+"/mute", testserver.Params(t, map[string]any{"value": 0})))

	// The lease lapses: B takes the media over, the page rejoins through
	// it as the same terminal, without a reload.
	a.Clock.Advance(failoverLease)
	lapsed := time.Now()
	waitFor(t, "B the conference's media owner", func() bool { return ownerURL(t, b, conf) == b.URL })
	pageShows(t, page, "the page's rejoin through B", `window.confer.rejoins() > `+strconv.Itoa(rejoins)+
		` && window.confer.mtID() === "`+ada+`" && window.notReloaded === 1 && !document.getElementById('room').hidden`)
	waitFor(t, "Ada's publication on B", func() bool { return slicesHas(b.Srv.SFU().Participants(conf), ada) })
	whepB := strings.Replace(subTok["whep_url"].(string), a.URL, b.URL, 1)
	v2, code := view(t, whepB+"?mt_id="+ada, subTok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on B = %d", code)
	}
	waitFor(t, "Ada's video at a viewer on B", func() bool { return v2.video.Load() >= 30 })
	t.Logf("Ada's video flows through B %s after the lease lapsed (wall time; the lease itself is on the fake clock)", time.Since(lapsed).Round(100*time.Millisecond))
	waitFor(t, "the recording continued on B", func() bool { return metric(t, b.Env, "confer_recordings_running") == "1" })

	// The publisher comes back through B; controls act on B.
	publish(t, strings.Replace(pubTok["whip_url"].(string), a.URL, b.URL, 1), pubTok["token"].(string))
	waitFor(t, "the publisher on B", func() bool { return len(b.Srv.SFU().Participants(conf)) >= 2 })
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+ada+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	pageShows(t, page, "the chair's mute on Ada's page", `!!document.querySelector('#participants li[data-mt="`+ada+`"].muted') && document.getElementById('room-status').textContent.includes('muted')`)
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+ada+"/mute", testserver.Params(t, map[string]any{"value": 0})))
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": ada})))
	from = v2.video.Load()
	waitFor(t, "more of Ada's video recorded on B", func() bool { return v2.video.Load() >= from+60 })

	// One program with two parts, each a file with real frames.
	testserver.MustOK(t, cb.Do("DELETE", vcPath+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))
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
	for i, p := range parts {
		p := p.(map[string]any)
		probe := rectest.ProbeFile(t, filepath.Join(recDir, filepath.FromSlash(p["file"].(string))))
		if _, ok := probe.Stream("video"); !ok || len(probe.Video) < 10 {
			t.Errorf("part %d (%s): streams %+v, %d video frames", i+1, p["file"], probe.Streams, len(probe.Video))
		}
	}
}

// pageValue evaluates an expression in the page once.
func pageValue(t *testing.T, ctx context.Context, expr string) int {
	t.Helper()
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	n, err := chromedp.Run(step, chromedp.Evaluate[int](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return n
}

func slicesHas(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
