package rtc_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/vrs"
)

// mediaPublisher is a WHIP publisher of real VP8 and Opus (rectest).
type mediaPublisher struct {
	pc           *webrtc.PeerConnection
	video, audio *webrtc.TrackLocalStaticRTP
	packets      []rectest.Packet
	round        int // how many times the 10 s of media were sent before
}

func publishMedia(t *testing.T, url, token string, packets []rectest.Packet) *mediaPublisher {
	t.Helper()
	return publishMediaVia(t, url, token, packets, nil)
}

// publishMediaVia is publishMedia through a lossy relay (nil: direct).
func publishMediaVia(t *testing.T, url, token string, packets []rectest.Packet, relay *rtctest.Relay) *mediaPublisher {
	t.Helper()
	p := &mediaPublisher{pc: newPC(t), packets: packets}
	var err error
	if p.video, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, "video", "pub"); err != nil {
		t.Fatal(err)
	}
	if p.audio, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "pub"); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*webrtc.TrackLocalStaticRTP{p.video, p.audio} {
		s, err := p.pc.AddTrack(tr)
		if err != nil {
			t.Fatal(err)
		}
		go func() { // read RTCP (the recorder's key frame requests) so that it flows
			for {
				if _, _, err := s.ReadRTCP(); err != nil {
					return
				}
			}
		}()
	}
	if code, _, body := offerVia(t, p.pc, url, token, relay); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
	}
	waitFor(t, "the publisher connected", func() bool { return p.pc.ConnectionState() == webrtc.PeerConnectionStateConnected })
	return p
}

// speed is how much faster than real time the media is sent: real time,
// since a recording's audio is the conference's mix, which the mixer
// produces in real time (docs/mixing.md).
const speed = 1

// send sends the packets whose media time is in [from, to), paced at
// speed times real time.
func (p *mediaPublisher) send(t *testing.T, from, to time.Duration) {
	t.Helper()
	p.sendAt(t, from, to, speed)
}

// sendAt is send at another speed.
func (p *mediaPublisher) sendAt(t *testing.T, from, to time.Duration, speed time.Duration) {
	t.Helper()
	start := time.Now()
	for _, pk := range p.packets {
		if pk.At < from || pk.At >= to {
			continue
		}
		if d := (pk.At-from)/speed - time.Since(start); d > 0 {
			time.Sleep(d) // pacing: the media's own timing is what is sent, not a wait
		}
		tr, rate := p.audio, uint32(48000)
		if pk.Video {
			tr, rate = p.video, 90000
		}
		// Each round sends the media again after the last: later sequence
		// numbers and timestamps (SRTP drops a replayed packet).
		pkt := *pk.Packet
		pkt.SequenceNumber += uint16(p.round * len(p.packets))
		pkt.Timestamp += uint32(p.round) * rate * 10
		if err := tr.WriteRTP(&pkt); err != nil {
			t.Fatal(err)
		}
	}
}

// recorded waits until the running recording rec has taken span of
// its main video into the file.
func recorded(t *testing.T, env *testserver.Env, rec string, span time.Duration) {
	t.Helper()
	recordedTrack(t, env, rec, rtc.TrackMain, span)
}

// recordedTrack waits until the running recording rec has taken span of
// a track into the file (rtc.Recordings' Progress, read under the
// recorder's lock): the event that the media reached the file, rather
// than a time for it to.
func recordedTrack(t *testing.T, env *testserver.Env, rec string, track int, span time.Duration) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%v of the recording's track %d in its file", span, track), func() bool {
		p, ok := env.Srv.Recordings().Progress(rec, track)
		return ok && p.Span >= span
	})
}

// TestRecordingThroughSFU records a real VP8 and Opus stream of a WHIP
// publisher from the API: 10 s of media with a pause from 3 s to 5 s.
// ffprobe reads a 10 s WebM file with both codecs, the picture's size
// and a 2 s gap; vrs lists the program with the file's figures, serves it
// with range requests, and deletes it with its file.
func TestRecordingThroughSFU(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 10)
	recDir := filepath.Join(dir, "recordings")
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "recorded")
	tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMedia(t, tok["whip_url"].(string), tok["token"].(string), packets)
	mt := onlineTerminal(t, c, conf, "camera")
	vcPath := "/api/v1/vc/confs/" + conf
	testserver.MustOK(t, c.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "desk", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	state := func(v int) {
		testserver.MustOK(t, c.Do("PUT", vcPath+"/recorders/"+rec+"/state", testserver.Params(t, map[string]any{"value": v, "recorder_mode": 1})))
	}
	pub.send(t, 0, 3*time.Second)
	state(1) // pause
	pub.send(t, 3*time.Second, 5*time.Second)
	state(2) // resume
	pub.send(t, 5*time.Second, 10*time.Second)
	// The last packets in flight reach the file: all but the last frame
	// (the samplebuilder holds it until the stop) and a frame's slack.
	recorded(t, env, rec, 9500*time.Millisecond)
	if m := metric(t, env, "confer_recordings_running"); m != "1" {
		t.Errorf("confer_recordings_running = %s while recording", m)
	}
	testserver.MustOK(t, c.Do("DELETE", vcPath+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	file := filepath.Join(recDir, "0", rec+".webm")
	if ms, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm")); len(ms) == 1 {
		file = ms[0]
	}
	p := rectest.ProbeFile(t, file)
	if d := p.Duration(); d < 9*time.Second || d > 11*time.Second {
		t.Errorf("duration = %v, want 10 s ± 1 s", d)
	}
	if g := p.MaxVideoGap(); g < 1700*time.Millisecond || g > 2400*time.Millisecond {
		t.Errorf("the pause left a gap of %v, want 2 s", g)
	}
	v, okV := p.Stream("video")
	a, okA := p.Stream("audio")
	if !okV || !okA || v.Codec != "vp8" || a.Codec != "opus" || v.Width != rectest.Width || v.Height != rectest.Height {
		t.Errorf("streams = %+v", p.Streams)
	}
	if m := metric(t, env, "confer_recordings_running"); m != "0" {
		t.Errorf("confer_recordings_running = %s after the stop", m)
	}
	if m := metric(t, env, "confer_recording_bytes_written_total"); m == "0" || m == "" {
		t.Errorf("confer_recording_bytes_written_total = %q", m)
	}

	// vrs lists the program with the file's figures.
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))
	prgs := list["prginfo"].([]any)
	if len(prgs) != 1 {
		t.Fatalf("programs = %v", prgs)
	}
	prg := prgs[0].(map[string]any)
	detail := prg["prgdetail"].([]any)[0].(map[string]any)
	if prg["prgallsize"] != float64(fi.Size()) || detail["prgtype"] != "webm" || prg["prgallduration"].(float64) < 9 || prg["prgallduration"].(float64) > 11 {
		t.Errorf("program = %v", prg)
	}
	gid := fmt.Sprint(prg["prggid"])

	// The download serves ranges and the whole file.
	dl := env.URL + "/api/v1/vrs/programs/" + gid + "/file?account_token=" + c.Token
	whole, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", dl, nil)
	req.Header.Set("Range", "bytes=100-199")
	resp, body := get(t, c, req)
	if resp.StatusCode != http.StatusPartialContent || string(body) != string(whole[100:200]) ||
		resp.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-199/%d", len(whole)) {
		t.Errorf("range: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Range"), len(body))
	}
	req, _ = http.NewRequest("GET", dl, nil)
	resp, body = get(t, c, req)
	if resp.StatusCode != http.StatusOK || string(body) != string(whole) || resp.Header.Get("Content-Type") != "video/webm" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="desk.webm"`) {
		t.Errorf("download: %d %s %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"), len(body))
	}
	// Without a token or without the session: refused.
	req, _ = http.NewRequest("GET", env.URL+"/api/v1/vrs/programs/"+gid+"/file", nil)
	if _, body := get(t, c, req); !strings.Contains(string(body), `"success":0`) {
		t.Errorf("download without a token: %s", body)
	}
	req, _ = http.NewRequest("GET", dl, nil)
	if _, body := get(t, nil, req); !strings.Contains(string(body), `"success":0`) {
		t.Errorf("download without a session: %s", body)
	}

	// Deleting the program deletes the file; the download then answers 32.
	del := testserver.MustOK(t, c.Do("POST", "/api/v1/vrs/program?_method=DELETE", testserver.Params(t, map[string]any{
		"prgdelpckinfo": []any{map[string]any{"prggid": prg["prggid"], "enforcedel": 0}}})))
	if r := del["prgdelpckinfo"].([]any)[0].(map[string]any); r["delerrno"] != float64(0) {
		t.Fatalf("delete = %v", del)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
	req, _ = http.NewRequest("GET", dl, nil)
	if _, body := get(t, c, req); !strings.Contains(string(body), `"error_code":32`) {
		t.Errorf("download of a deleted program: %s", body)
	}
}

// get sends a request with the session cookie of c (nil: none).
func get(t *testing.T, c *testserver.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	if c != nil {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.Cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// metric reads one unlabelled metric of /metrics ("" when absent).
func metric(t *testing.T, env *testserver.Env, name string) string {
	t.Helper()
	resp, err := http.Get(env.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			return v
		}
	}
	return ""
}

// recordingConf starts a conference with a WHIP publisher of real media
// as its speaker, on a server recording into recDir with rc.
func recordingConf(t *testing.T, rc server.RecordingConfig) (*testserver.Env, *testserver.Client, string, *mediaPublisher) {
	t.Helper()
	return recordingConfVia(t, rc, nil)
}

// recordingConfVia is recordingConf with the publisher through a lossy
// relay (nil: direct).
func recordingConfVia(t *testing.T, rc server.RecordingConfig, relay *rtctest.Relay) (*testserver.Env, *testserver.Client, string, *mediaPublisher) {
	t.Helper()
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 10)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: rc})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "recorded")
	tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})
	pub := publishMediaVia(t, tok["whip_url"].(string), tok["token"].(string), packets, relay)
	mt := onlineTerminal(t, c, conf, "camera")
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	return env, c, conf, pub
}

func startRecording(t *testing.T, c *testserver.Client, conf string) string {
	t.Helper()
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	return testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "desk", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
}

// TestRecordingQuotaStops: a recording that fills its quota (as a full
// disk) stops by itself: it leaves the list, /recorders/{rec_id} is
// notified with 24014, its program keeps the part written, which plays.
func TestRecordingQuotaStops(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	env, c, conf, pub := recordingConf(t, server.RecordingConfig{Dir: recDir, MaxBytes: recorder.MinQuota + 60<<10})
	rec := startRecording(t, c, conf)
	pub.send(t, 0, 10*time.Second)
	waitFor(t, "the recording stopped by its quota", func() bool {
		l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/recorders", nil))["recorders"].([]any)
		return len(l) == 0
	})
	evs, err := env.Store.EventsSince(context.Background(), 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	notified := false
	for _, ev := range evs {
		if ev.Kind == store.KindNotice && ev.ID == "/recorders/"+rec && strings.Contains(string(ev.Data), `"error_code":24014`) {
			notified = true
		}
	}
	if !notified {
		t.Error("no 24014 notification on /recorders/" + rec)
	}
	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
	if len(list) != 1 {
		t.Fatalf("programs = %v", list)
	}
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Size() > recorder.MinQuota+60<<10 {
		t.Errorf("file: %v, %v", fi.Size(), err)
	}
	if p := rectest.ProbeFile(t, files[0]); p.Duration() <= 0 || p.Duration() >= 10*time.Second || len(p.Video) == 0 {
		t.Errorf("the part written: %v, %d frames", p.Duration(), len(p.Video))
	}
}

// TestRecordingEndsWithConference: ending the conference finalises the
// file and stores its program; a restart's reconciliation reports a file
// without a program and a program without a file, and deletes neither.
func TestRecordingEndsWithConference(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	env, c, conf, pub := recordingConf(t, server.RecordingConfig{Dir: recDir})
	rec := startRecording(t, c, conf)
	pub.send(t, 0, 4*time.Second)
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+conf, nil))
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	if p := rectest.ProbeFile(t, files[0]); p.Duration() < 3*time.Second || p.Duration() > 5*time.Second {
		t.Errorf("duration = %v, want 4 s", p.Duration())
	}
	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["prgdetail"].([]any)[0].(map[string]any)["prgtype"] != "webm" {
		t.Fatalf("programs = %v", list)
	}

	// A file without a program (a crash before the stop) and a program
	// whose file went: both reported, nothing deleted.
	orphan := filepath.Join(recDir, "somedomain", "77.webm")
	if err := os.MkdirAll(filepath.Dir(orphan), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(files[0], orphan); err != nil {
		t.Fatal(err)
	}
	rep, err := env.Srv.ReconcileRecordings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.FilesWithoutRecord) != 1 || rep.FilesWithoutRecord[0] != "somedomain/77.webm" ||
		len(rep.RecordsWithoutFile) != 1 || fmt.Sprint(rep.RecordsWithoutFile[0].GID) != rec {
		t.Errorf("report = %+v", rep)
	}
	b, err := os.ReadFile(filepath.Join(recDir, vrs.ReportName))
	if err != nil || !strings.Contains(string(b), "somedomain/77.webm") {
		t.Errorf("report file: %s, %v", b, err)
	}
	if _, err := os.Stat(orphan); err != nil {
		t.Errorf("the orphan file was touched: %v", err)
	}
	// The program whose file is gone: its download says so (24106).
	gid := fmt.Sprint(list[0].(map[string]any)["prggid"])
	req, _ := http.NewRequest("GET", env.URL+"/api/v1/vrs/programs/"+gid+"/file?account_token="+c.Token, nil)
	if _, body := get(t, c, req); !strings.Contains(string(body), `"error_code":24106`) {
		t.Errorf("download of a missing file: %s", body)
	}
}

// TestRecordingConcurrentStopAndPause: pauses, resumes and stops of one
// recording sent at once leave one state: no recording listed, one
// program with the file's figures, a playable file, nothing running.
func TestRecordingConcurrentStopAndPause(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	env, c, conf, pub := recordingConf(t, server.RecordingConfig{Dir: recDir})
	rec := startRecording(t, c, conf)
	pub.send(t, 0, 3*time.Second)
	path := env.URL + "/api/v1/vc/confs/" + conf + "/recorders/" + rec
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			var req *http.Request
			switch i % 3 {
			case 0:
				req, _ = http.NewRequest("DELETE", path+"?"+url.Values{"account_token": {c.Token}, "params": {`{"recorder_mode":1}`}}.Encode(), nil)
			default:
				form := url.Values{"account_token": {c.Token}, "params": {fmt.Sprintf(`{"value":%d,"recorder_mode":1}`, i%3)}}
				req, _ = http.NewRequest("PUT", path+"/state", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			resp, body := get(t, c, req)
			if resp.StatusCode != http.StatusOK || (!strings.Contains(string(body), `"success":1`) &&
				!strings.Contains(string(body), `"error_code":20802`) && !strings.Contains(string(body), `"error_code":20803`)) {
				t.Errorf("%s: %d %s", req.Method, resp.StatusCode, body)
			}
		})
	}
	wg.Wait()
	if l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/recorders", nil))["recorders"].([]any); len(l) != 0 {
		t.Errorf("recorders after the stop = %v", l)
	}
	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(list) != 1 || len(files) != 1 {
		t.Fatalf("programs %v, files %v", list, files)
	}
	fi, _ := os.Stat(files[0])
	if list[0].(map[string]any)["prgallsize"] != float64(fi.Size()) {
		t.Errorf("program size %v, file %d", list[0].(map[string]any)["prgallsize"], fi.Size())
	}
	rectest.ProbeFile(t, files[0])
	if m := metric(t, env, "confer_recordings_running"); m != "0" {
		t.Errorf("confer_recordings_running = %s", m)
	}
}

// TestRecordingsBounded: with MaxRunning 1, a second recording on the
// node is refused with 24102 and not listed; once the first stops, one
// starts again.
func TestRecordingsBounded(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{},
		Recording: server.RecordingConfig{Dir: t.TempDir(), MaxRunning: 1}})
	c := env.LoggedIn(t)
	a, b := startConf(t, c, "first"), startConf(t, c, "second")
	rec := startRecording(t, c, a)
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	second := map[string]any{"video_name": "second", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0,
		"recorder_mode": 1, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}}
	testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/"+b+"/recorders", testserver.Params(t, second)), 24102)
	if l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+b+"/recorders", nil))["recorders"].([]any); len(l) != 0 {
		t.Errorf("a refused recording is listed: %v", l)
	}
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+a+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+b+"/recorders", testserver.Params(t, second)))
}

// TestCreatedRecordingHasFile: the recording a creation asks for records
// with media from the start; the conference's end leaves its program
// with the file.
func TestCreatedRecordingHasFile(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "auto", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
		"recorder":      map[string]any{"publish_mode": 0, "dual_stream": 0, "anonymous": 0, "recorder_mode": 1, "vrs_id": ""}}
	conf := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	var rec string
	waitFor(t, "the creation's recording", func() bool {
		l := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/recorders", nil))["recorders"].([]any)
		if len(l) == 1 {
			rec = l[0].(map[string]any)["rec_id"].(string)
		}
		return rec != "" && metric(t, env, "confer_recordings_running") == "1"
	})
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+conf, nil))
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
	if len(files) != 1 || len(list) != 1 || list[0].(map[string]any)["prgdetail"].([]any)[0].(map[string]any)["prgtype"] != "webm" {
		t.Fatalf("files %v, programs %v", files, list)
	}
}
