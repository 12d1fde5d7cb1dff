package console_test

import (
	"context"
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/mediaload"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestConsolePreviewsTheBroadcast: with a pion WHIP publisher sending a
// VP8 test pattern (made by ffmpeg) in the conference, the running
// conference's page previews the broadcast through WHEP (?preview=1): the
// video plays in the page (videoWidth > 0, frames decoded), and the
// preview is no terminal: the page's and the API's terminal lists keep
// the one publisher (docs/console.md "Broadcast preview").
func TestConsolePreviewsTheBroadcast(t *testing.T) {
	ctx := browser(t)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed (Debian package ffmpeg; .ci/run installs it): skipping the preview test, it makes the publisher's video")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	api := env.LoggedIn(t)
	p := map[string]any{"create_type": 1, "name": "Preview", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	tok := testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "Stage camera", "role": "publish"})))
	publishVP8(t, tok["whip_url"].(string), tok["token"].(string))
	mtCount := func() int {
		return len(testserver.MustOK(t, api.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any))
	}
	for mtCount() != 1 {
		if browsertest.Expired(t) {
			t.Fatal("the publisher never became a terminal")
		}
		time.Sleep(50 * time.Millisecond)
	}

	login(t, ctx, env)
	run(t, ctx, "open the running conference",
		chromedp.Navigate(env.URL+"/console/#/conf/"+id),
		chromedp.WaitVisible(chromedp.CSS(`section.live[data-live="on"]`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-mt]`)),
		press(chromedp.CSS("#preview-toggle")),
	)
	step, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if err := chromedp.Do(step, until(`(() => { const v = document.getElementById('preview-video'); return v.videoWidth > 0 && v.getVideoPlaybackQuality().totalVideoFrames > 10; })()`)); err != nil {
		t.Fatalf("the preview never played: %v\npage: %s (state %s)", err, pageText(ctx),
			value(t, ctx, "the preview's state", chromedp.Text(chromedp.ID("preview-state"))))
	}
	w := value(t, ctx, "the video's width", chromedp.Evaluate[int](`document.getElementById('preview-video').videoWidth`))
	if w != 640 {
		t.Errorf("preview videoWidth = %d, want the publisher's 640", w)
	}
	screenshot(t, ctx, "preview")

	// The call quality panel shows the publisher's sent video, measured
	// by the SFU (docs/console.md "Call quality").
	run(t, ctx, "the call quality of the publisher's video",
		until(`(() => { const r = document.querySelector('section.quality tr[data-channel="video/send"]'); return !!r && r.innerText.includes('VP8') && r.innerText.includes('640×360') && r.innerText.includes('good'); })()`))

	// The preview is no terminal, in the page or through the API.
	if rows := value(t, ctx, "the page's terminal rows", chromedp.Evaluate[int](`document.querySelectorAll('tr[data-mt]').length`)); rows != 1 {
		t.Errorf("the page lists %d terminals with the preview on, want 1", rows)
	}
	if n := mtCount(); n != 1 {
		t.Errorf("the API lists %d terminals with the preview on, want 1", n)
	}
	if n := env.Srv.SFU().Sessions(); n != 2 {
		t.Errorf("SFU sessions with the preview on: %d, want 2 (publisher and preview)", n)
	}

	// Stopping the preview ends its WHEP session.
	run(t, ctx, "stop the preview", press(chromedp.CSS("#preview-toggle")),
		chromedp.WaitVisible(chromedp.CSS(`#preview-toggle[aria-pressed="false"]`)))
	for env.Srv.SFU().Sessions() != 1 {
		if browsertest.Expired(t) {
			t.Fatalf("the preview's session still open after stop: %d sessions", env.Srv.SFU().Sessions())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// publishVP8 publishes a 640x360 VP8 test pattern and Opus silence over
// WHIP with pion until the test ends.
func publishVP8(t *testing.T, whipURL, token string) {
	t.Helper()
	_, ivf, err := mediaload.Generate(t.TempDir(), true, 2)
	if err != nil {
		t.Fatal(err)
	}
	clip, err := mediaload.ReadIVF(ivf)
	if err != nil {
		t.Fatal(err)
	}
	pc := rtctest.NewPC(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	video, err := webrtc.NewTrackLocalStaticSample(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, "video", "stage")
	if err != nil {
		t.Fatal(err)
	}
	audio, err := webrtc.NewTrackLocalStaticSample(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "stage")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*webrtc.TrackLocalStaticSample{audio, video} {
		if _, err := pc.AddTransceiverFromTrack(tr, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly}); err != nil {
			t.Fatal(err)
		}
	}
	if r := rtctest.Offer(t, pc, whipURL, token, nil); r.Status != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %s", r.Status, r.Body)
	}
	send := func(tr *webrtc.TrackLocalStaticSample, frames []mediaload.Frame) {
		due := time.Now()
		for k := 0; ; k = (k + 1) % len(frames) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(due)):
			}
			if err := tr.WriteSample(media.Sample{Data: frames[k].Data, Duration: frames[k].Duration}); err != nil {
				return
			}
			due = due.Add(frames[k].Duration)
		}
	}
	go send(video, clip.Frames)
	go send(audio, mediaload.SilenceOpus(time.Second).Frames)
}
