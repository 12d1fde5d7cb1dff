package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/vc"
)

// TestKill9TheMediaOwner (issue 35 "Evidence"): two conferd processes on
// one PostgreSQL database behind one host name (an in-process proxy that
// sends everything to the live node and answers a redirect to a dead one
// 503); node A owns a conference with a Chromium page as the speaker, a
// WHIP publisher, a WHEP viewer and a recording. A gets SIGKILL. Without
// a reload the page rejoins through B as the same terminal and its video
// reaches a viewer on B; controls through B never answer 99999; the
// publisher posts again to B; the recording's stop stores one program
// with two parts. Skipped without PostgreSQL or Chromium, and in -short.
func TestKill9TheMediaOwner(t *testing.T) {
	if testing.Short() {
		t.Skip("two conferd processes and Chromium: skipped in -short mode")
	}
	browsertest.Chromium(t)
	dsn := testdb.Postgres(t)
	if code, _, errs := runCmd(t, "license", "import", "--db", dsn, "--key", "crash-key", "--secret", "crash-secret"); code != 0 {
		t.Fatalf("license import: %s", errs)
	}
	if code, _, errs := runCmd(t, "account", "create", "--db", dsn, "--username", "crash", "--password", "crash-pw", "--admin"); code != 0 {
		t.Fatalf("account create: %s", errs)
	}
	dir := t.TempDir()
	recDir := filepath.Join(dir, "recordings")
	node := func(name string) (*exec.Cmd, *crashClient) {
		addr := freeAddr(t)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CONFERD_TEST_MAIN=1", "CONFERD_TEST_ARGS=serve --addr "+addr+" --db "+dsn+
			" --files-dir "+filepath.Join(dir, name)+" --rec-dir "+recDir+" --media-url http://"+addr+" --media-lease 3s"+
			" --rtc-udp-port 0 --rtc-tcp-port -1 --sip-addr 127.0.0.1:0")
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}
		})
		waitUp(t, addr)
		c := &crashClient{hc: &http.Client{Timeout: 60 * time.Second}, addr: addr}
		c.login(t)
		return cmd, c
	}
	procA, ca := node("a")
	_, cb := node("b")
	urlA, urlB := "http://"+ca.addr, "http://"+cb.addr
	var to atomic.Value
	to.Store(urlA)
	fr := proxyToLive(t, &to)

	must := func(r map[string]any, err error) map[string]any {
		t.Helper()
		if !crashOK(r, err) {
			t.Fatalf("%v %v", r, err)
		}
		return r
	}
	conf := must(ca.call("POST", "/api/v1/mc/confs", crashParams(map[string]any{"create_type": 1, "name": "kill -9", "bitrate": 1024,
		"max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}})))["conf_id"].(string)
	vcPath := "/api/v1/vc/confs/" + conf
	token := func(p map[string]any) map[string]any {
		return must(ca.call("POST", vcPath+"/rtc_tokens", crashParams(p)))
	}
	online := func(c *crashClient, alias string) string {
		t.Helper()
		id := ""
		waitFor(t, alias+" online", func() bool {
			r, err := c.call("GET", vcPath+"/mts", nil)
			if !crashOK(r, err) {
				return false
			}
			mts, _ := r["mts"].([]any)
			for _, x := range mts {
				m := x.(map[string]any)
				if m["alias"] == alias && m["online"] == float64(1) {
					id = m["mt_id"].(string)
					return true
				}
			}
			return false
		})
		return id
	}

	// The page joins through the front (on A) and is the speaker.
	page, _ := browsertest.Start(t)
	joinURL := strings.Replace(token(map[string]any{})["join_url"].(string), urlA, fr.URL, 1)
	step, cancel := browsertest.Patient(t, page)
	if err := chromedp.Do(step, chromedp.Navigate(joinURL), chromedp.WaitVisible(chromedp.CSS("#join-form[data-ready]")),
		browsertest.Run(`document.getElementById("name").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#name"), "Ada"), chromedp.Click(chromedp.CSS("#join")),
		chromedp.WaitVisible(chromedp.CSS("#room")), browsertest.Run(`window.notReloaded = 1`)); err != nil {
		t.Fatalf("joining: %v", err)
	}
	cancel()
	ada := online(ca, "Ada")
	must(ca.call("PUT", vcPath+"/speaker", crashParams(map[string]any{"mt_id": ada})))

	// A WHIP publisher, a WHEP viewer of Ada and a recording, on A.
	pubTok := token(map[string]any{"name": "camera", "role": "publish"})
	whipPublisher(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	cam := online(ca, "camera")
	subTok := token(map[string]any{"name": "viewer", "role": "subscribe"})
	v := whepVideo(t, subTok["whep_url"].(string)+"?mt_id="+ada, subTok["token"].(string))
	waitFor(t, "Ada's video at the viewer on A", func() bool { return v.Load() >= 30 })
	vrs := must(ca.call("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := must(cb.call("POST", vcPath+"/recorders", crashParams(map[string]any{
		"video_name": "kill", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrs, "members": []any{}})))["rec_id"].(string)
	from := v.Load()
	waitFor(t, "more of Ada's video while recording", func() bool { return v.Load() >= from+100 })

	// kill -9 A; the front sends everything to B.
	step, cancel = browsertest.Patient(t, page)
	rejoins, err := chromedp.Run(step, chromedp.Evaluate[int](`window.confer.rejoins()`))
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	_ = procA.Process.Kill()
	_ = procA.Wait()
	killed := time.Now()
	to.Store(urlB)
	for _, c := range []struct {
		what, method, path string
		p                  map[string]any
	}{
		{"speaker", "PUT", vcPath + "/speaker", map[string]any{"mt_id": ada}},
		{"mute", "PUT", vcPath + "/mts/" + cam + "/mute", map[string]any{"value": 1}},
		{"mute-all", "PUT", vcPath + "/mute", map[string]any{"value": 0}},
	} {
		r, err := cb.call(c.method, c.path, crashParams(c.p))
		if err != nil || (r["success"] != float64(1) && r["error_code"] != float64(90503)) {
			t.Errorf("%s through B after the kill = %v %v, want success or 90503", c.what, r, err)
		}
	}

	// The page rejoins through B, the same terminal, without a reload.
	step, cancel = browsertest.Patient(t, page)
	if _, err := chromedp.Run(step, chromedp.Poll[bool](`window.confer.rejoins() > `+strconv.Itoa(rejoins)+` && window.confer.mtID() === "`+ada+
		`" && window.notReloaded === 1 && !document.getElementById('room').hidden`, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the page's rejoin through B: %v", err)
	}
	cancel()
	v2 := whepVideo(t, strings.Replace(subTok["whep_url"].(string), urlA, urlB, 1)+"?mt_id="+ada, subTok["token"].(string))
	waitFor(t, "Ada's video at a viewer on B", func() bool { return v2.Load() >= 30 })
	t.Logf("Ada's video flows through B %s after the kill (--media-lease 3s)", time.Since(killed).Round(100*time.Millisecond))

	// The publisher comes back through B; controls act.
	whipPublisher(t, strings.Replace(pubTok["whip_url"].(string), urlA, urlB, 1), pubTok["token"].(string))
	online(cb, "camera")
	must(cb.call("PUT", vcPath+"/mts/"+ada+"/mute", crashParams(map[string]any{"value": 1})))
	must(cb.call("PUT", vcPath+"/mts/"+ada+"/mute", crashParams(map[string]any{"value": 0})))
	must(cb.call("PUT", vcPath+"/speaker", crashParams(map[string]any{"mt_id": ada})))
	from = v2.Load()
	waitFor(t, "more of Ada's video recorded on B", func() bool { return v2.Load() >= from+100 })
	must(cb.call("DELETE", vcPath+"/recorders/"+rec, crashParams(map[string]any{"recorder_mode": 1})))

	// One program with two parts.
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, _, err := st.ListRecords(context.Background(), store.RecordQuery{Kind: vc.KindProgram})
	if err != nil {
		t.Fatal(err)
	}
	var prg map[string]any
	for _, r := range recs {
		if r.ID == rec {
			_ = json.Unmarshal(r.Data, &prg)
		}
	}
	parts, _ := prg["parts"].([]any)
	if len(parts) != 2 {
		t.Fatalf("program %s = %v, want two parts", rec, prg)
	}
	for i, p := range parts {
		f := filepath.Join(recDir, filepath.FromSlash(p.(map[string]any)["file"].(string)))
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("part %d: %s: %v", i+1, f, err)
		}
	}
	t.Logf("program %s: %v", rec, parts)
}

// proxyToLive is the nodes' shared host name: everything goes to the
// node in to; a 307 to another node (the dead owner) is answered 503.
func proxyToLive(t *testing.T, to *atomic.Value) *httptest.Server {
	p := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			u, _ := url.Parse(to.Load().(string))
			r.SetURL(u)
		},
		ModifyResponse: func(resp *http.Response) error {
			if resp.StatusCode == http.StatusTemporaryRedirect {
				resp.Body.Close()
				resp.StatusCode, resp.Status = http.StatusServiceUnavailable, "503 Service Unavailable"
				resp.Header.Del("Location")
				resp.Header.Set("Content-Length", "0")
				resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader("")), 0
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

// whipPublisher publishes Opus until the test ends.
func whipPublisher(t *testing.T, u, token string) {
	t.Helper()
	pc := rtctest.NewPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "pub")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.AddTrack(tr); err != nil {
		t.Fatal(err)
	}
	if r := rtctest.Offer(t, pc, u, token, nil); r.Status != http.StatusCreated {
		t.Fatalf("WHIP POST %s = %d %s", u, r.Status, r.Body)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for seq := uint16(0); ; seq++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			_ = tr.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960}, Payload: []byte{0xfc, 0xff, 0xfe}})
		}
	}()
}

// whepVideo receives from u and counts the video packets.
func whepVideo(t *testing.T, u, token string) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	pc := rtctest.NewPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			if tr.Kind() == webrtc.RTPCodecTypeVideo {
				n.Add(1)
			}
		}
	})
	if r := rtctest.Offer(t, pc, u, token, nil); r.Status != http.StatusCreated {
		t.Fatalf("WHEP POST %s = %d %s", u, r.Status, r.Body)
	}
	return &n
}

// waitFor polls cond until it holds, until go test's -timeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if browsertest.Expired(t) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
