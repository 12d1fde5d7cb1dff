package rtc_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/compose"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// composedViewer is a WHEP viewer of the conference's composed picture
// (?composed=1) whose video is decoded as it comes.
func composedViewer(t *testing.T, c *testserver.Client, conf, ff string) *compose.Input {
	t.Helper()
	tok := rtcToken(t, c, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	pc := newPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan *compose.Input, 1)
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		if tr.Kind() != webrtc.RTPCodecTypeVideo {
			return
		}
		in := compose.NewInput(ff, map[uint8]string{uint8(tr.Codec().PayloadType): tr.Codec().MimeType}, nil)
		t.Cleanup(in.Close)
		got <- in
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			_, _ = in.WriteRTP(&p.Header, p.Payload)
		}
	})
	if code, _, body := offer(t, pc, tok["whep_url"].(string)+"?composed=1", tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST ?composed=1 = %d %q", code, body)
	}
	return <-got
}

// TestComposedRecordingPlaysInChromium (issue 37): a conference whose
// composition shows a red and a green camera side by side is recorded
// through vc's API; the program's download, loaded into a <video>
// element of Chromium, plays (its time advances, its picture has a size),
// and a picture drawn from it onto a canvas has each camera's colour in
// its pane.
func TestComposedRecordingPlaysInChromium(t *testing.T) {
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed: composition cannot be tested")
	}
	browsertest.Chromium(t) // skips before anything starts
	recDir := t.TempDir()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "composed recording")
	ada, grace := colourCamera(t, c, conf, "Ada", webrtc.MimeTypeVP8, red), colourCamera(t, c, conf, "Grace", webrtc.MimeTypeH264, green)
	vcPath := "/api/v1/vc/confs/" + conf
	testserver.MustOK(t, c.Do("POST", vcPath+"/vmps", testserver.Params(t, map[string]any{"mode": 1, "layout": 2, "broadcast": 1,
		"voice_hint": 0, "show_mt_name": 0, "members": []any{
			map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": ada},
			map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": grace},
		}})))
	// The composition runs: every picture recorded from now on shows it.
	rx := composedViewer(t, c, conf, ff)
	waitComposed(t, rx, showsPanes(2, red, green))

	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "composed", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	// The file's header is written at the first key frame of the
	// composition's own encoding for the recording: wait for written
	// bytes (the event), not a count of the viewer's pictures, which a
	// loaded machine can show before the recording has any.
	waitFor(t, "the recording's first written bytes", func() bool {
		m := metric(t, env, "confer_recording_bytes_written_total")
		return m != "" && m != "0"
	})
	// Then three seconds of composed pictures, counted in the recording.
	recorded(t, env, rec, 3*time.Second)
	testserver.MustOK(t, c.Do("DELETE", vcPath+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	list := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))
	prgs := list["prginfo"].([]any)
	if len(prgs) != 1 {
		t.Fatalf("programs = %v", prgs)
	}
	prg := prgs[0].(map[string]any)
	detail := prg["prgdetail"].([]any)[0].(map[string]any)
	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".*"))
	t.Logf("program %v: %v, files %v", prg["prggid"], detail["prgtype"], files)
	dl := fmt.Sprintf("%s/api/v1/vrs/programs/%v/file?account_token=%s", env.URL, prg["prggid"], c.Token)

	ctx, _ := browsertest.Start(t, chromedp.WindowSize(1280, 800))
	tctx, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if _, err := chromedp.Call(tctx, network.SetCookie, network.SetCookieParams{Name: "SSO_COOKIE_KEY", Value: c.Cookie, URL: env.URL}); err != nil {
		t.Fatal(err)
	}
	// A page of the server's origin, so that the canvas may read the
	// video's pixels; the download is the video element's source.
	if err := chromedp.Do(tctx, chromedp.Navigate(env.URL+"/api/v1/vc/vrs"),
		browsertest.Run(fmt.Sprintf(`(() => { document.body.innerHTML = '';
			const v = document.createElement('video'); v.id = 'rec'; v.muted = true; v.playsInline = true;
			v.onerror = () => { window.recError = v.error ? v.error.code + ' ' + v.error.message : 'error'; };
			document.body.appendChild(v); v.src = %q; v.play().catch(e => { window.recError = String(e); }); })()`, dl))); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, "the recording playing or failing", `(() => { const v = document.getElementById('rec');
		return window.recError !== undefined || (v.videoWidth > 0 && v.currentTime > 1); })()`)
	state, err := chromedp.Run(tctx, chromedp.Evaluate[[]any](`(() => { const v = document.getElementById('rec');
		return [window.recError || '', v.videoWidth, v.videoHeight, v.currentTime]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if state[0] != "" || state[1].(float64) <= 0 {
		t.Fatalf("Chromium does not play the recording (%v): error %q, picture %vx%v at %v s", detail["prgtype"], state[0], state[1], state[2], state[3])
	}
	// The picture being played, drawn onto a canvas: the centre of each
	// pane of layout 2, red then green.
	var last error
	for {
		if browsertest.Expired(t) {
			t.Fatalf("the recording played in Chromium never showed the composition: %v", last)
		}
		px, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`(() => { const v = document.getElementById('rec');
			const c = document.createElement('canvas'); c.width = v.videoWidth; c.height = v.videoHeight;
			const g = c.getContext('2d'); g.drawImage(v, 0, 0);
			const at = (x, y) => Array.from(g.getImageData(Math.floor(x * c.width), Math.floor(y * c.height), 1, 1).data.slice(0, 3));
			return [v.currentTime, ...at(0.25, 0.5), ...at(0.75, 0.5)]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if last = dominant(px[1:4], 0); last == nil {
			if last = dominant(px[4:7], 1); last == nil {
				t.Logf("Chromium plays the recording (%v, %vx%v); at %.2f s the panes are RGB %v and %v",
					detail["prgtype"], state[1], state[2], px[0], px[1:4], px[4:7])
				return
			}
		}
		last = fmt.Errorf("at %.2f s: %w", px[0], last)
		time.Sleep(50 * time.Millisecond) // the next picture
		if err := chromedp.Do(tctx, browsertest.Run(`(() => { const v = document.getElementById('rec');
			if (v.ended) { v.currentTime = 0; v.play(); } })()`)); err != nil {
			t.Fatal(err)
		}
	}
}

// dominant checks that channel k (0 red, 1 green, 2 blue) of an RGB
// sample leads the others clearly.
func dominant(rgb []float64, k int) error {
	for j := range rgb {
		if j != k && rgb[k] < rgb[j]+80 {
			return fmt.Errorf("RGB %v, want %c dominant", rgb, "RGB"[k])
		}
	}
	return nil
}
