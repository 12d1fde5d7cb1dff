package rtc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vc"
)

// Playback, monitors and live broadcasts with real media (docs/live.md),
// end to end through a real listener: pion WHEP viewers count what
// arrives.

// watcher counts what a WHEP session receives and keeps the last video
// RTP timestamp.
type watcher struct {
	audio, video atomic.Int64
	videoTS      atomic.Uint32
	pc           *webrtc.PeerConnection
}

func watch(t *testing.T, u, token string) (*watcher, int) {
	t.Helper()
	return watchVia(t, u, token, nil)
}

// watchVia is watch through a lossy relay (nil: direct).
func watchVia(t *testing.T, u, token string, relay *rtctest.Relay) (*watcher, int) {
	t.Helper()
	w := &watcher{pc: newPC(t)}
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := w.pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	w.pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if tr.Kind() == webrtc.RTPCodecTypeAudio {
				w.audio.Add(1)
			} else {
				w.videoTS.Store(p.Timestamp)
				w.video.Add(1)
			}
		}
	})
	code, _, _ := offerVia(t, w.pc, u, token, relay)
	return w, code
}

// quiet checks that nothing more arrives after a control that stops the
// media (a pause, a stop, a released session). Proving a negative takes
// some window; no fixed sleep starts it: it waits until neither count
// moved for 300 ms (the control took effect and the packets in flight
// landed), failing if 500 more packets arrive first, then allows at most
// 2 stragglers in the next 600 ms. A loaded machine only delays that
// quiet moment; a stream that stalled and then went on still fails.
func (w *watcher) quiet(t *testing.T, what string) {
	t.Helper()
	first := w.audio.Load() + w.video.Load()
	for {
		n := w.audio.Load() + w.video.Load()
		if n-first > 500 {
			t.Fatalf("%s: %d more packets arrived, want none", what, n-first)
		}
		time.Sleep(300 * time.Millisecond)
		if w.audio.Load()+w.video.Load() == n {
			break
		}
	}
	a, v := w.audio.Load(), w.video.Load()
	time.Sleep(600 * time.Millisecond)
	if da, dv := w.audio.Load()-a, w.video.Load()-v; da > 2 || dv > 2 {
		t.Errorf("%s: %d audio and %d video packets arrived, want none", what, da, dv)
	}
}

// program writes a 10 s VP8/Opus WebM (a key frame every second) under
// the recordings folder and stores it as program id of the default domain.
func program(t *testing.T, env *testserver.Env, recDir, conf, id string) {
	t.Helper()
	programOf(t, env, recDir, conf, id, 10)
}

// programOf stores a program of secs seconds. A test that watches the
// playback from a page started later takes a long one: a short file can
// end before a slow machine has the page open.
func programOf(t *testing.T, env *testserver.Env, recDir, conf, id string, secs int) {
	t.Helper()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed (apt-get install ffmpeg): the playback test needs a program file")
	}
	if err := os.MkdirAll(filepath.Join(recDir, "play"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(recDir, "play", id+".webm")
	cmd := exec.Command(ff, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15",
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", strconv.Itoa(secs), "-c:v", "libvpx", "-g", "15",
		"-deadline", "realtime", "-cpu-used", "8", "-b:v", "200k", "-c:a", "libopus", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	data, err := shape.Encode(map[string]any{"id": id, "name": "movie", "duration": secs, "file": "play/" + id + ".webm", "vrs_id": ""})
	if err != nil {
		t.Fatal(err)
	}
	now := env.Clock.Now()
	recs, _, err := env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindConf})
	domain := ""
	for _, r := range recs {
		if r.ID == conf {
			domain = r.DomainMoid
		}
	}
	if err := env.Store.CreateRecord(context.Background(), store.Record{Kind: vc.KindProgram, ID: id, DomainMoid: domain,
		State: "ready", Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
}

func TestPlaybackIntoConference(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "cinema")
	// 60 s: the seek below lands well after wherever a slow machine
	// paused it.
	programOf(t, env, recDir, conf, "9001", 60)
	vcPath := "/api/v1/vc/confs/" + conf
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	start := func(fileID int) testserver.Reply {
		return c.Do("POST", vcPath+"/playback", testserver.Params(t, map[string]any{
			"play_dual_stream": 0, "file_name": "movie", "file_id": fileID, "vrs_id": vrsID}))
	}
	testserver.MustOK(t, start(9001))

	// The playback is a terminal of the conference, online.
	var mt string
	waitFor(t, "the playback online in vc's terminal list", func() bool {
		id, online := terminal(t, c, conf, "movie")
		mt = id
		return online
	})
	testserver.MustOK(t, c.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	w, code := watch(t, tok["whep_url"].(string), tok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the file's video and audio at the viewer", func() bool { return w.video.Load() >= 20 && w.audio.Load() >= 20 })

	// Paused, nothing arrives.
	state := func(v int) {
		testserver.MustOK(t, c.Do("PUT", vcPath+"/playback/state", testserver.Params(t, map[string]any{"value": v})))
	}
	state(1)
	w.quiet(t, "paused")
	before := w.videoTS.Load()

	// Seek to 40 s and resume: the video resumes at the key frame of
	// 40 s, its timestamp well ahead of where it paused (a few seconds in).
	testserver.MustOK(t, c.Do("PUT", vcPath+"/playback/current_progress", testserver.Params(t, map[string]any{"current_progress": 40})))
	n := w.video.Load()
	state(2)
	waitFor(t, "video after resuming", func() bool { return w.video.Load() >= n+5 })
	if d := w.videoTS.Load() - before; d < 90000 || d > 41*90000 {
		t.Errorf("the video timestamp moved by %d (%.1f s) across the seek to 40 s", d, float64(d)/90000)
	}

	// Stopped: the terminal leaves, nothing more arrives.
	state(0)
	waitFor(t, "the playback's terminal gone", func() bool { _, online := terminal(t, c, conf, "movie"); return !online })
	w.quiet(t, "stopped")

	// A program whose file vanished: 24106, never a 500.
	program(t, env, recDir, conf, "9002")
	if err := os.Remove(filepath.Join(recDir, "play", "9002.webm")); err != nil {
		t.Fatal(err)
	}
	testserver.MustFail(t, start(9002), vc.CodePlaybackNoFile)
}

func TestMonitorIsAWHEPLink(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "watched")
	vcPath := "/api/v1/vc/confs/" + conf
	pubTok := rtcToken(t, c, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	mt := onlineTerminal(t, c, conf, "desk")
	testserver.MustOK(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 0, "src": map[string]any{"type": 1, "mt_id": mt}, "dst": map[string]any{"ip": "127.0.0.1", "port": 7000}})))
	mon := testserver.MustOK(t, c.Do("GET", vcPath+"/monitors/127.0.0.1/7000", nil))
	link, _ := mon["whep_url"].(string)
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("mt_id") != mt || u.Query().Get("monitor") == "" {
		t.Fatalf("whep_url = %q", link)
	}
	// The link needs no other credential and delivers the terminal's packets.
	w, code := watch(t, link, "")
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST of the monitor = %d", code)
	}
	waitFor(t, "the monitored terminal's audio", func() bool { return w.audio.Load() >= 20 })
	// The viewer is no terminal of the conference.
	mts := testserver.MustOK(t, c.Do("GET", vcPath+"/mts", nil))["mts"].([]any)
	if len(mts) != 1 {
		t.Errorf("terminals = %v, want the publisher only", mts)
	}
	// Another terminal through the monitor's key: refused.
	q := u.Query()
	q.Set("mt_id", "99")
	u.RawQuery = q.Encode()
	if _, code := watch(t, u.String(), ""); code != http.StatusForbidden {
		t.Errorf("the monitor's key for another terminal = %d, want 403", code)
	}
	// Without heartbeat for 30 s the monitor stops: its viewer and its
	// RTP sender to 127.0.0.1:7000 (monitor_rtp_test.go) are closed and
	// its link refused.
	sessions := env.Srv.SFU().Sessions()
	env.Advance(t, vc.MonitorTimeout+time.Second)
	env.Tick(t)
	waitFor(t, "the monitor's viewer and sender closed", func() bool { return env.Srv.SFU().Sessions() == sessions-2 })
	w.quiet(t, "monitor released")
	if _, code := watch(t, link, ""); code != http.StatusNotFound {
		t.Errorf("the link of a released monitor = %d, want 404", code)
	}
}

func TestLiveBroadcastViewers(t *testing.T) {
	t.Parallel()
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{RTC: &sfu.Config{}})
		c := env.LoggedIn(t)
		conf := startConf(t, c, "town hall")
		vcPath := "/api/v1/vc/confs/" + conf
		pubTok := rtcToken(t, c, conf, map[string]any{"name": "stage", "role": "publish"})
		publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
		waitFor(t, "the publisher online", func() bool { _, online := terminal(t, c, conf, "stage"); return online })
		vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
		broadcast := func(name string, public int) string {
			return testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
				"video_name": name, "recorder_type": 1, "publish_mode": public, "watermark": 0, "anonymous": 0, "recorder_mode": 2,
				"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
		}
		links := func() map[string]string { // the live rooms' descriptors give each broadcast's WHEP link
			out := map[string]string{}
			for _, x := range testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/liveroom", nil))["roomstate"].([]any) {
				r := x.(map[string]any)
				out[r["roomidstr"].(string)] = r["livestreampath"].(string)
				if n := r["livestatnum"].(float64); n != float64(env.Srv.SFU().Watchers(conf, "live:"+r["roomidstr"].(string))) {
					t.Errorf("livestatnum = %v", n)
				}
			}
			return out
		}
		public := broadcast("open", 1)
		code, desc := descriptor(t, links()[public], "")
		link := desc["whep_url"]
		if code != http.StatusOK || link == "" {
			t.Fatalf("the public broadcast's descriptor = %d %v", code, desc)
		}

		// Public: no login; it is no terminal, and the viewers metric counts it.
		w, code := watch(t, link, "")
		if code != http.StatusCreated {
			t.Fatalf("WHEP POST of the public broadcast = %d", code)
		}
		waitFor(t, "the broadcast's audio", func() bool { return w.audio.Load() >= 20 })
		if got := metric(t, env, fmt.Sprintf(`confer_live_viewers{conf_id="%s",rec_id="%s"}`, conf, public)); got != "1" {
			t.Errorf("confer_live_viewers = %q, want 1", got)
		}
		links()
		if mts := testserver.MustOK(t, c.Do("GET", vcPath+"/mts", nil))["mts"].([]any); len(mts) != 1 {
			t.Errorf("terminals = %v, want the publisher only", mts)
		}

		// The broadcast stops: its viewers are closed at the next tick.
		testserver.MustOK(t, c.Do("DELETE", vcPath+"/recorders/"+public, testserver.Params(t, map[string]any{"recorder_mode": 2})))
		env.Tick(t)
		w.quiet(t, "broadcast stopped")
		if _, code := watch(t, link, ""); code != http.StatusNotFound {
			t.Errorf("WHEP POST of a stopped broadcast = %d, want 404", code)
		}

		// Not public: refused without a token, admitted with one.
		private := broadcast("closed", 0)
		tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
		if code, _ := descriptor(t, links()[private], ""); code != http.StatusUnauthorized {
			t.Errorf("the private broadcast's descriptor without a token = %d, want 401", code)
		}
		code, desc = descriptor(t, links()[private], tok["token"].(string))
		link = desc["whep_url"]
		if code != http.StatusOK || link == "" {
			t.Fatalf("the private broadcast's descriptor with a token = %d %v", code, desc)
		}
		if _, code := watch(t, link, ""); code != http.StatusUnauthorized {
			t.Errorf("WHEP POST of the private broadcast without a token = %d, want 401", code)
		}
		w2, code := watch(t, link, tok["token"].(string))
		if code != http.StatusCreated {
			t.Fatalf("WHEP POST of the private broadcast with a token = %d", code)
		}
		waitFor(t, "the private broadcast's audio", func() bool { return w2.audio.Load() >= 20 })
	})
}

// descriptor reads a broadcast's Readme.json (its livestreampath).
func descriptor(t *testing.T, u, token string) (int, map[string]string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]string{}
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, out
}

// TestLiveHLS: with ffmpeg, a public broadcast's descriptor has an HLS
// playlist whose segments carry the broadcast (H.264 and AAC, ffprobe).
func TestLiveHLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 12) // skips without ffmpeg
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "hls")
	tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMedia(t, tok["whip_url"].(string), tok["token"].(string), packets)
	go func() { // real time, so that ffmpeg's segments have their length
		start := time.Now()
		for _, pk := range pub.packets {
			if d := pk.At - time.Since(start); d > 0 {
				time.Sleep(d)
			}
			tr := pub.audio
			if pk.Video {
				tr = pub.video
			}
			if tr.WriteRTP(pk.Packet) != nil {
				return
			}
		}
	}()
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "hls", "recorder_type": 1, "publish_mode": 1, "watermark": 0, "anonymous": 1, "recorder_mode": 2,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	room := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/liveroom", nil))["roomstate"].([]any)[0].(map[string]any)
	code, desc := descriptor(t, room["livestreampath"].(string), "")
	if code != http.StatusOK || desc["hls_url"] == "" || room["roomidstr"] != rec {
		t.Fatalf("descriptor = %d %v", code, desc)
	}
	// An HLS player asks again while the stream starts (503): on a loaded
	// machine ffmpeg's first segment may take longer than one request waits.
	var resp *http.Response
	var playlist []byte
	for {
		var err error
		if resp, err = http.Get(desc["hls_url"]); err != nil {
			t.Fatal(err)
		}
		playlist, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || browsertest.Expired(t) {
			break
		}
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(playlist), "#EXTM3U") {
		t.Fatalf("playlist = %d %q", resp.StatusCode, playlist)
	}
	var seg string
	for _, l := range strings.Split(string(playlist), "\n") {
		if strings.HasSuffix(l, ".ts") {
			seg = l
		}
	}
	if seg == "" {
		t.Fatalf("no segment in %q", playlist)
	}
	u := desc["hls_url"][:strings.LastIndex(desc["hls_url"], "/")+1] + seg
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(body) < 1000 {
		t.Fatalf("segment %s = %d, %d bytes", seg, resp.StatusCode, len(body))
	}
	f := filepath.Join(dir, "seg.ts")
	if err := os.WriteFile(f, body, 0o600); err != nil {
		t.Fatal(err)
	}
	p := rectest.ProbeFile(t, f)
	if v, ok := p.Stream("video"); !ok || v.Codec != "h264" || v.Width != rectest.Width {
		t.Errorf("segment streams = %+v", p.Streams)
	}
}

// TestPlaybackOfARecording plays what Confer recorded: 4 s of a WHIP
// publisher's VP8 and Opus recorded by a conference (internal/recorder's
// WebM) are played into another conference and reach its WHEP viewer;
// directly, and with the publisher and the viewer on a lossy network.
func TestPlaybackOfARecording(t *testing.T) {
	t.Parallel()
	for _, n := range networks {
		t.Run(n.name, func(t *testing.T) { playbackOfARecording(t, n) })
	}
}

func playbackOfARecording(t *testing.T, n netPath) {
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 4) // skips without ffmpeg
	recDir := filepath.Join(dir, "recordings")
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	studio := startConf(t, c, "studio")
	tok := rtcToken(t, c, studio, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMediaVia(t, tok["whip_url"].(string), tok["token"].(string), packets, n.relay(t))
	mt := onlineTerminal(t, c, studio, "camera")
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+studio+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+studio+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "take1", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	pub.send(t, 0, 4*time.Second)
	// 2.5 s of the 4 s sent in the file: on the lossy path, a loss the
	// retransmission does not repair costs the frames until the next key
	// frame (one a second; the publisher does not answer PLIs).
	recorded(t, env, rec, 2500*time.Millisecond)
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+studio+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))
	prgs := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
	if len(prgs) != 1 {
		t.Fatalf("programs = %v", prgs)
	}
	gid := int(prgs[0].(map[string]any)["prggid"].(float64))

	cinema := startConf(t, c, "cinema")
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+cinema+"/playback", testserver.Params(t, map[string]any{
		"play_dual_stream": 0, "file_name": "take1", "file_id": gid, "vrs_id": vrsID})))
	sub := rtcToken(t, c, cinema, map[string]any{"name": "viewer", "role": "subscribe"})
	w, code := watchVia(t, sub["whep_url"].(string), sub["token"].(string), n.relay(t))
	if code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the recording's video and audio at the viewer", func() bool { return w.video.Load() >= 20 && w.audio.Load() >= 20 })
}
