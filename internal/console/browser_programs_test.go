package console_test

import (
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsolePlaysARecording: a recording of a pion publisher's VP8, made
// from the API, is a program of the console's "Recording programs" page:
// Play shows it in the page (the video decodes frames), Download fetches
// the file with the session (issue 24, recording programs "with playback
// and download"; docs/console.md).
func TestConsolePlaysARecording(t *testing.T) {
	ctx := browser(t)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed (Debian package ffmpeg; .ci/run installs it): skipping, it makes the publisher's video")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "Recorded", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	tok := testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "Stage camera", "role": "publish"})))
	publishVP8(t, tok["whip_url"].(string), tok["token"].(string))
	vrsID := testserver.MustOK(t, api.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "stage", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	// The recording needs media: wait until the file has grown past its
	// header (the recording's bytes in the metrics), then stop it.
	for recordedBytes(t, env) < 300<<10 {
		if browsertest.Expired(t) {
			t.Fatalf("the recording wrote only %.0f bytes", recordedBytes(t, env))
		}
		time.Sleep(100 * time.Millisecond)
	}
	testserver.MustOK(t, api.Do("DELETE", "/api/v1/vc/confs/"+id+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	login(t, ctx, env)
	run(t, ctx, "open the programs and play the recording",
		chromedp.Navigate(env.URL+"/console/#/programs"),
		chromedp.WaitVisible(chromedp.CSS(`section[aria-label="Recording programs"] button.play`)),
		press(chromedp.CSS(`button.play`)),
		chromedp.WaitVisible(chromedp.CSS(`video.program`)),
	)
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if err := chromedp.Do(step, until(`(() => { const v = document.querySelector('video.program'); return v.videoWidth > 0 && v.getVideoPlaybackQuality().totalVideoFrames > 5; })()`)); err != nil {
		t.Fatalf("the recording never played in the page: %v\npage: %s", err, pageText(ctx))
	}
	if w := value(t, ctx, "the video's width", chromedp.Evaluate[int](`document.querySelector('video.program').videoWidth`)); w != 640 {
		t.Errorf("played videoWidth = %d, want the publisher's 640", w)
	}
	screenshot(t, ctx, "programs")
	// The video fits the page, also on a phone.
	run(t, ctx, "a phone's width", chromedp.EmulateViewport(390, 844))
	if right := value(t, ctx, "the video's right edge", chromedp.Evaluate[int](`Math.round(document.querySelector('video.program').getBoundingClientRect().right)`)); right > 390 {
		t.Errorf("at 390 px the video ends at %d px: it overflows the page", right)
	}
	run(t, ctx, "back to a laptop", chromedp.EmulateViewport(1366, 900))

	// The Download link fetches the file with the page's session.
	href := value(t, ctx, "the download link", chromedp.Evaluate[string](`document.querySelector('a.download').href`))
	status := value(t, ctx, "the download", chromedp.Evaluate[string](`fetch(document.querySelector('a.download').href, {credentials: 'same-origin'}).then(r => r.status + ' ' + r.headers.get('Content-Type'))`, chromedp.EvalAwaitPromise))
	if status != "200 video/webm" {
		t.Errorf("GET %s from the page = %q, want 200 video/webm", href, status)
	}
	// Without the session the link opens nothing.
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct == "video/webm" {
		t.Errorf("the download link without the session served the file (%d bytes)", len(b))
	}
}

// recordedBytes reads confer_recording_bytes_written_total at /metrics.
func recordedBytes(t *testing.T, env *testserver.Env) float64 {
	t.Helper()
	resp, err := http.Get(env.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "confer_recording_bytes_written_total "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f
		}
	}
	return 0
}
