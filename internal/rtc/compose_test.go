package rtc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/compose"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// quietEvents is an engine that takes every report (the members here are
// placed by the test, never announced).
type quietEvents struct{}

func (quietEvents) Joined(context.Context, string, sfu.Participant) (string, error) {
	return "", sfu.ErrForbidden
}
func (quietEvents) Left(string, string, bool)            {}
func (quietEvents) AudioLevels(string, map[string]uint8) {}
func (quietEvents) DualStarted(string, string) error     { return nil }
func (quietEvents) Authorize(context.Context, string, string) (sfu.Grant, error) {
	return sfu.Grant{}, sfu.ErrUnauthorized
}

// colourSource is a terminal that sends a solid colour: a compositor of
// one raw pane encoding into the member's published video.
type colourSource struct {
	comp *compose.Compositor
	out  *compose.Output
}

func newColourSource(t *testing.T, l compose.Sink, mime string, pt uint8, c compose.YUV) *colourSource {
	t.Helper()
	comp, err := compose.New(compose.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(comp.Close)
	f := compose.NewFrame(320, 180)
	f.Fill(image.Rect(0, 0, 320, 180), c)
	in := comp.Input("self", nil, nil)
	in.SetFrame(f)
	comp.SetScene(compose.Scene{Layout: 1, Panes: []compose.Pane{{Input: "self"}}})
	out, err := comp.Output(compose.OutputSpec{MimeType: mime, Width: 320, Height: 180, Bitrate: 300_000, PayloadType: pt}, l)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // a picture older than a second is a placeholder: keep it fresh
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				in.SetFrame(f)
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
	return &colourSource{comp: comp, out: out}
}

var (
	red   = compose.RGB(220, 30, 30)
	green = compose.RGB(30, 200, 30)
)

func near(a, b compose.YUV) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.Y, b.Y) <= 18 && d(a.U, b.U) <= 18 && d(a.V, b.V) <= 18
}

// showsPanes checks each pane's centre colour of a layout.
func showsPanes(layout int, want ...compose.YUV) func(*compose.Frame) error {
	return func(f *compose.Frame) error {
		for i, r := range compose.Panes(layout) {
			px := r.Pixels(f.W, f.H)
			x, y := (px.Min.X+px.Max.X)/2, (px.Min.Y+px.Max.Y)/2
			got := compose.YUV{Y: f.Y[y*f.W+x], U: f.U[(y/2)*(f.W/2)+x/2], V: f.V[(y/2)*(f.W/2)+x/2]}
			if !near(got, want[i]) {
				return fmt.Errorf("pane %d shows %v, want %v", i, got, want[i])
			}
		}
		return nil
	}
}

// waitComposed waits, picture by picture, for a decoded picture check
// accepts; it fails after 300 pictures it does not.
func waitComposed(t *testing.T, in *compose.Input, check func(*compose.Frame) error) {
	t.Helper()
	var last error
	seen := uint64(0)
	for tries := 0; tries < 300; {
		if n := in.Frames(); n != seen {
			seen, tries = n, tries+1
			f, _ := in.Latest()
			if last = check(f); last == nil {
				return
			}
			continue
		}
		time.Sleep(5 * time.Millisecond) // polls for the next picture (compose.Input counts them), bounded by 300 pictures
	}
	t.Fatalf("no composed picture as expected after 300 pictures: %v", last)
}

// TestComposedPictureReachesOnePictureReceivers: a VP8 and an H.264
// terminal in a two-pane composition; an H.264 receiver of one picture (a
// SIP terminal's endpoint) decodes the composition with each terminal in
// its pane, sees a member change, and a recording of the conference holds
// the composed picture. Without a composition it sees the VP8 speaker
// transcoded, and an H.264 speaker forwarded (the compositor stops).
func TestComposedPictureReachesOnePictureReceivers(t *testing.T) {
	t.Parallel()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed: composition cannot be tested")
	}
	sf, err := sfu.New(sfu.Config{}, quietEvents{}, quietEvents{})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	comp, err := rtc.NewComposer(sf, nil, rtc.ComposerConfig{Width: 640, Height: 360, Bitrate: 800_000})
	if err != nil {
		t.Fatal(err)
	}
	defer comp.Close()
	sf.SetComposer(comp)
	ctx := context.Background()
	const conf = "c1"
	vp8 := sfu.LocalCodec{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 96}
	h264 := sfu.LocalCodec{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 106}
	var srcs [2]*colourSource
	member := func(i int, mt string, c sfu.LocalCodec, col compose.YUV) {
		l, err := sf.OpenLocal(ctx, conf, sfu.LocalOptions{Member: true, MtID: mt, Name: "room " + mt, Kind: sfu.KindSIP,
			PublishVideo: &c, OnKeyFrameRequest: func() {
				if s := srcs[i]; s != nil {
					s.out.KeyFrame()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close)
		srcs[i] = newColourSource(t, l, c.MimeType, c.PayloadType, col)
	}
	member(0, "1", vp8, red)
	member(1, "2", h264, green)

	rx := compose.NewInput(ff, map[uint8]string{102: webrtc.MimeTypeH264}, nil)
	defer rx.Close()
	room, err := sf.OpenLocal(ctx, conf, sfu.LocalOptions{Receive: sfu.SourceBroadcast, Composed: true, VideoOut: rx,
		VideoCodecs: []sfu.LocalCodec{{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 102}}})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()

	if err := sf.SetBroadcast(conf, sfu.Broadcast{Speaker: "1", Layout: 2, Panes: []string{"1", "2"}, ShowNames: true}); err != nil {
		t.Fatal(err)
	}
	waitComposed(t, rx, showsPanes(2, red, green))

	// A recording of the conference holds the composition.
	// Its file's header is written at the first key frame of the
	// composition's own VP8 encoding (a second output, started by the
	// recording's tap), so the test waits for written bytes, not a time.
	path := filepath.Join(t.TempDir(), "composed.webm")
	var written atomic.Int64
	rec, err := (&rtc.Recorder{SFU: sf}).Record(ctx, conf, media.RecordSpec{Path: path,
		OnWrite: func(n int64) { written.Add(n) }})
	if err != nil {
		t.Fatal(err)
	}
	// The member change shows.
	if err := sf.SetBroadcast(conf, sfu.Broadcast{Speaker: "1", Layout: 2, Panes: []string{"2", "1"}}); err != nil {
		t.Fatal(err)
	}
	waitComposed(t, rx, showsPanes(2, green, red))
	waitFor(t, "the recording's first bytes (a key frame of the composition)", func() bool { return written.Load() > 0 })
	// Let the recording hold a few pictures of the swapped panes, counted
	// in the recording (recorder.Progress).
	prog := rec.(interface {
		Progress(track int) recorder.Progress
	})
	n := prog.Progress(rtc.TrackMain).Frames
	waitFor(t, "30 pictures of the swapped panes in the recording", func() bool { return prog.Progress(rtc.TrackMain).Frames >= n+30 })
	info, err := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if info.Width != 640 || info.Height != 360 {
		t.Errorf("recording is %dx%d (%s), want the composed 640x360", info.Width, info.Height, info.VideoCodec)
	}
	last := lastFrame(t, ff, info.Path, 640, 360)
	if err := showsPanes(2, green, red)(last); err != nil {
		t.Errorf("the recording's last picture: %v", err)
	}

	// No composition: the H.264 receiver still sees the VP8 speaker,
	// transcoded (one pane).
	if err := sf.SetBroadcast(conf, sfu.Broadcast{Speaker: "1"}); err != nil {
		t.Fatal(err)
	}
	waitComposed(t, rx, showsPanes(1, red))
	// An H.264 speaker is forwarded as it comes: the compositor stops.
	if err := sf.SetBroadcast(conf, sfu.Broadcast{Speaker: "2"}); err != nil {
		t.Fatal(err)
	}
	waitComposed(t, rx, showsPanes(1, green))
	waitFor(t, "the compositor stopped", func() bool { return comp.Running() == 0 })
}

// lastFrame decodes a file's last picture with ffmpeg.
func lastFrame(t *testing.T, ff, path string, w, h int) *compose.Frame {
	t.Helper()
	out, err := exec.Command(ff, "-hide_banner", "-loglevel", "error", "-sseof", "-0.5", "-i", path, "-an",
		"-vf", fmt.Sprintf("scale=%d:%d", w, h), "-pix_fmt", "yuv420p", "-f", "rawvideo", "-update", "1", "-y", "pipe:1").Output()
	if err != nil {
		t.Fatalf("ffmpeg reads %s: %v", path, err)
	}
	size := w * h * 3 / 2
	if len(out) < size {
		t.Fatalf("ffmpeg decoded %d bytes of %s, want a %dx%d picture", len(out), path, w, h)
	}
	b := out[len(out)-size:]
	return &compose.Frame{W: w, H: h, Y: b[:w*h], U: b[w*h : w*h*5/4], V: b[w*h*5/4:]}
}

// trackSink publishes an output's packets on a WebRTC track.
type trackSink struct{ tr *webrtc.TrackLocalStaticRTP }

func (s trackSink) WriteVideo(p *rtp.Packet) { _ = s.tr.WriteRTP(p) }

// colourCamera is a browser's camera (VP8 or H.264) of a solid colour,
// published by WHIP without sound, online as terminal name.
func colourCamera(t *testing.T, c *testserver.Client, conf, name, mime string, col compose.YUV) string {
	t.Helper()
	tok := rtcToken(t, c, conf, map[string]any{"name": name, "role": "publish"})
	pc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: mime, ClockRate: 90000}, "video", name)
	if err != nil {
		t.Fatal(err)
	}
	snd, err := pc.AddTrack(tr)
	if err != nil {
		t.Fatal(err)
	}
	src := newColourSource(t, trackSink{tr}, mime, 96, col)
	go func() { // the SFU's key frame requests
		for {
			pkts, _, err := snd.ReadRTCP()
			if err != nil {
				return
			}
			for _, p := range pkts {
				if _, ok := p.(*rtcp.PictureLossIndication); ok {
					src.out.KeyFrame()
				}
			}
		}
	}()
	if code, _, body := offer(t, pc, tok["whip_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
	}
	return onlineTerminal(t, c, conf, name)
}

// TestComposedWHEPThroughTheAPI: two browsers' VP8 cameras in a
// composition started through vc's API with show_mt_name; a WHEP viewer
// with ?composed=1 decodes the composition, each camera in its pane, and
// sees the panes swap when the composition changes.
func TestComposedWHEPThroughTheAPI(t *testing.T) {
	t.Parallel()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed: composition cannot be tested")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "composed")
	ada, grace := colourCamera(t, c, conf, "Ada", webrtc.MimeTypeVP8, red), colourCamera(t, c, conf, "Grace", webrtc.MimeTypeVP8, green)
	vmp := func(first, second string) map[string]any {
		return map[string]any{"mode": 1, "layout": 2, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
			"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FFFFFF", "position": 2},
			"members": []any{
				map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": first},
				map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": second},
			}}
	}
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/vmps", testserver.Params(t, vmp(ada, grace))))

	tok := rtcToken(t, c, conf, map[string]any{"name": "room", "role": "subscribe"})
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
	rx := <-got
	waitComposed(t, rx, showsPanes(2, red, green))
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/vmps/1", testserver.Params(t, vmp(grace, ada))))
	waitComposed(t, rx, showsPanes(2, green, red))
}

// TestRTMPPushOfTheComposition: a live broadcast pushed by RTMP to ffmpeg
// listening as an RTMP server carries the composed picture (H.264) and
// the sound; ffprobe reads the received stream and its last picture shows
// each terminal in its pane.
func TestRTMPPushOfTheComposition(t *testing.T) {
	t.Parallel()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed: composition cannot be tested")
	}
	probe, err := exec.LookPath("ffprobe")
	if err != nil {
		t.Skip("ffprobe is not installed")
	}
	sf, err := sfu.New(sfu.Config{}, quietEvents{}, quietEvents{})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	comp, err := rtc.NewComposer(sf, nil, rtc.ComposerConfig{Width: 640, Height: 360, Bitrate: 800_000})
	if err != nil {
		t.Fatal(err)
	}
	defer comp.Close()
	sf.SetComposer(comp)
	ctx := context.Background()
	const conf = "c1"
	vp8 := sfu.LocalCodec{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, PayloadType: 96}
	var srcs [2]*colourSource
	for i, col := range []compose.YUV{red, green} {
		mt := fmt.Sprint(i + 1)
		l, err := sf.OpenLocal(ctx, conf, sfu.LocalOptions{Member: true, MtID: mt, Name: "room " + mt, Kind: sfu.KindSIP,
			PublishVideo: &vp8, OnKeyFrameRequest: func() {
				if s := srcs[i]; s != nil {
					s.out.KeyFrame()
				}
			}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close)
		srcs[i] = newColourSource(t, l, vp8.MimeType, vp8.PayloadType, col)
	}
	if err := sf.SetBroadcast(conf, sfu.Broadcast{Speaker: "1", Layout: 2, Panes: []string{"1", "2"}}); err != nil {
		t.Fatal(err)
	}
	// A room system already receives the composition: the pushed stream
	// starts with the panes' pictures, not their placeholders.
	rx := compose.NewInput(ff, map[uint8]string{102: webrtc.MimeTypeH264}, nil)
	defer rx.Close()
	room, err := sf.OpenLocal(ctx, conf, sfu.LocalOptions{Receive: sfu.SourceBroadcast, Composed: true, VideoOut: rx,
		VideoCodecs: []sfu.LocalCodec{{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 102}}})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()
	waitComposed(t, rx, showsPanes(2, red, green))

	// ffmpeg as the streaming service: it takes one publisher and keeps
	// 3 s of what it receives.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	out := filepath.Join(t.TempDir(), "received.flv")
	served := rtmpServer(t, ff, port, out)

	pusher := live.NewRTMP(live.RTMPConfig{RetryEvery: 200 * time.Millisecond}, sf)
	defer pusher.Close()
	if err := pusher.Start(conf, "7", fmt.Sprintf("rtmp://127.0.0.1:%d/live/x", port)); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Fatalf("the RTMP server: %v", err)
	}
	pusher.Stop(conf, "7")

	raw, err := exec.Command(probe, "-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height",
		"-of", "csv=p=0", out).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	got := strings.TrimSpace(string(raw))
	if !strings.Contains(got, "h264,video,640,360") && !strings.Contains(got, "video,h264") {
		t.Fatalf("ffprobe of the pushed stream: %q, want H.264 video 640x360", got)
	}
	if err := showsPanes(2, red, green)(lastFrame(t, ff, out, 640, 360)); err != nil {
		t.Errorf("the pushed stream's last picture: %v", err)
	}
}

// TestRTMPPushThroughTheAPI: a live broadcast started with Confer's
// extension x_confer_rtmp_url is pushed to ffmpeg listening as an RTMP
// server: H.264 (the VP8 speaker transcoded) and AAC sound; a URL that is
// not RTMP is refused naming the field. (The pictures' content is checked
// by TestRTMPPushOfTheComposition.)
func TestRTMPPushThroughTheAPI(t *testing.T) {
	t.Parallel()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed")
	}
	probe, err := exec.LookPath("ffprobe")
	if err != nil {
		t.Skip("ffprobe is not installed")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "pushed")
	mt := colourCamera(t, c, conf, "Ada", webrtc.MimeTypeVP8, red)
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := func(u string) map[string]any {
		return map[string]any{"video_name": "pushed", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0,
			"recorder_mode": 2, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "x_confer_rtmp_url": u}
	}
	desc := testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, rec("http://127.0.0.1/live"))), 90400)
	if !strings.Contains(desc, "x_confer_rtmp_url") {
		t.Fatalf("a push to http:// is refused with %q, want the field named", desc)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	out := filepath.Join(t.TempDir(), "received.flv")
	served := rtmpServer(t, ff, port, out)

	recID := testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders",
		testserver.Params(t, rec(fmt.Sprintf("rtmp://127.0.0.1:%d/live/x", port)))))["rec_id"]
	if err := <-served; err != nil {
		t.Fatalf("the RTMP server: %v", err)
	}
	testserver.MustOK(t, c.Do("DELETE", fmt.Sprintf("/api/v1/vc/confs/%s/recorders/%v", conf, recID),
		testserver.Params(t, map[string]any{"recorder_mode": 2})))
	raw, err := exec.Command(probe, "-v", "error", "-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0", out).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	got := strings.Fields(strings.TrimSpace(string(raw)))
	if !slices.Contains(got, "h264,video") || !slices.Contains(got, "aac,audio") {
		t.Fatalf("ffprobe of the pushed stream: %q, want H.264 video and AAC audio", got)
	}
}

// rtmpServer listens for one RTMP push on port and copies 3 s of it to
// out, as a live platform's ingest does: a push that fails (ffmpeg's
// one-shot listener exits with it) is listened for again, and the
// pusher's retry (live.RTMPConfig.RetryEvery) reaches the next listener.
// The channel gets nil once a push was copied, or the last error.
func rtmpServer(t *testing.T, ff string, port int, out string) <-chan error {
	t.Helper()
	served := make(chan error, 1)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		var err error
		for try := 0; try < 5; try++ {
			server := exec.Command(ff, "-hide_banner", "-loglevel", "error", "-listen", "1", "-i",
				fmt.Sprintf("rtmp://127.0.0.1:%d/live/x", port), "-c", "copy", "-t", "3", "-y", out)
			var serr strings.Builder
			server.Stderr = &serr
			if err = server.Start(); err != nil {
				break
			}
			done := make(chan error, 1)
			go func() { done <- server.Wait() }()
			select {
			case err = <-done:
			case <-stop:
				_ = server.Process.Kill()
				return
			}
			if err == nil {
				break
			}
			err = fmt.Errorf("%v: %s", err, serr.String())
			t.Logf("RTMP push %d failed (listening again): %v", try+1, err)
		}
		served <- err
	}()
	return served
}

// TestLiveHLSOfAnH264Source: the HLS of a broadcast whose speaker sends
// H.264 and no sound has segments (the speaker transcoded for the HLS
// tap, silence for its sound).
func TestLiveHLSOfAnH264Source(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "hls h264")
	mt := colourCamera(t, c, conf, "Ada", webrtc.MimeTypeH264, green)
	testserver.MustOK(t, c.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "hls", "recorder_type": 1, "publish_mode": 1, "watermark": 0, "anonymous": 1, "recorder_mode": 2,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))
	room := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/liveroom", nil))["roomstate"].([]any)[0].(map[string]any)
	code, desc := descriptor(t, room["livestreampath"].(string), "")
	if code != http.StatusOK || desc["hls_url"] == "" {
		t.Fatalf("descriptor = %d %v", code, desc)
	}
	// Each request waits up to 20 s for the first segment; the
	// transcoding's start on a loaded machine may take longer.
	for try := 1; ; try++ {
		resp, err := http.Get(desc["hls_url"])
		if err != nil {
			t.Fatal(err)
		}
		playlist, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK && strings.Contains(string(playlist), ".ts") {
			return
		}
		if resp.StatusCode != http.StatusServiceUnavailable || try == 5 {
			t.Fatalf("playlist = %d %q", resp.StatusCode, playlist)
		}
		t.Logf("try %d: playlist = %d %q", try, resp.StatusCode, playlist)
	}
}

// TestWithoutFFmpegTheComposedPictureIsRefused: a node whose PATH has no
// ffmpeg composes nothing and says why: the composer is refused with
// compose.ErrNoFFmpeg, and a WHEP viewer asking for the composed picture
// gets 503 naming the reason, never a black picture.
func TestWithoutFFmpegTheComposedPictureIsRefused(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sf, err := sfu.New(sfu.Config{}, quietEvents{}, quietEvents{})
	if err != nil {
		t.Fatal(err)
	}
	defer sf.Close()
	if _, err := rtc.NewComposer(sf, nil, rtc.ComposerConfig{}); !errors.Is(err, compose.ErrNoFFmpeg) || !strings.Contains(err.Error(), "ffmpeg is not installed") {
		t.Fatalf("NewComposer without ffmpeg: %v, want compose.ErrNoFFmpeg", err)
	}

	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "no ffmpeg")
	tok := rtcToken(t, c, conf, map[string]any{"name": "room", "role": "subscribe"})
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	code, _, body := offer(t, pc, tok["whep_url"].(string)+"?composed=1", tok["token"].(string))
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "ffmpeg is not installed") {
		t.Fatalf("WHEP ?composed=1 without ffmpeg = %d %q, want 503 naming the missing ffmpeg", code, body)
	}
}

// TestWallShowsItsOwnComposition (issue 37): a TV wall running its own
// composition (hduvmps) shows it on the wall page: its state is one
// channel of the wall's composed picture, and a Chromium screenshot of
// the page has each camera's colour in its pane, the panes swapped
// against the conference's composition.
func TestWallShowsItsOwnComposition(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed: composition cannot be tested")
	}
	browsertest.Chromium(t)
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "wall composition")
	ada, grace := colourCamera(t, c, conf, "Ada", webrtc.MimeTypeVP8, red), colourCamera(t, c, conf, "Grace", webrtc.MimeTypeVP8, green)
	members := func(first, second string) []any {
		return []any{map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": first}, map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": second}}
	}
	vcPath := "/api/v1/vc/confs/" + conf
	testserver.MustOK(t, c.Do("POST", vcPath+"/vmps", testserver.Params(t, map[string]any{"mode": 1, "layout": 2, "broadcast": 1,
		"voice_hint": 0, "show_mt_name": 0, "members": members(ada, grace)})))
	testserver.MustOK(t, c.Do("POST", vcPath+"/hduvmps", testserver.Params(t, map[string]any{"hdu_id": "1_0", "mode": 1, "layout": 2,
		"voice_hint": 0, "show_mt_name": 0, "members": members(grace, ada)})))
	code, v := wallState(t, env, c, "1_0")
	if code != http.StatusOK || !v.SelfComposition || len(v.Channels) != 1 || !strings.Contains(v.Channels[0].WHEP, "composed=1") {
		t.Fatalf("wall state = %d %+v, want one channel of the wall's composed picture", code, v)
	}

	ctx, _ := browsertest.Start(t, chromedp.WindowSize(1280, 800))
	tctx, cancel := browsertest.Patient(t, ctx)
	defer cancel()
	if _, err := chromedp.Call(tctx, network.SetCookie, network.SetCookieParams{Name: "SSO_COOKIE_KEY", Value: c.Cookie, URL: env.URL}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate(env.URL+"/wall/1_0")); err != nil {
		t.Fatal(err)
	}
	pageShows(t, ctx, "the wall's composed picture playing", `(() => { const v = document.querySelector('.chn[data-chn="0"] video');
		return v && v.videoWidth > 0 && v.currentTime > 0.5; })()`)
	// The screenshot, until it shows the wall's panes (the first pictures
	// may still be the placeholders of panes whose decoders start).
	var last error
	for {
		if browsertest.Expired(t) {
			t.Fatalf("the wall page never showed its composition: %v", last)
		}
		box, err := chromedp.Run(tctx, chromedp.Evaluate[[]float64](`(() => { const v = document.querySelector('.chn[data-chn="0"] video');
			const r = v.getBoundingClientRect(); return [r.x, r.y, r.width, r.height, v.videoWidth, v.videoHeight, window.devicePixelRatio]; })()`))
		if err != nil {
			t.Fatalf("%v (last screenshot: %v)", err, last)
		}
		shot, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("%v (last screenshot: %v)", err, last)
		}
		img, err := png.Decode(bytes.NewReader(shot))
		if err != nil {
			t.Fatal(err)
		}
		if last = screenPanes(img, box, 2, 'G', 'R'); last == nil {
			return
		}
	}
}

// screenPanes checks, on a screenshot, the dominant colour ('R', 'G' or
// 'B': the browser's YUV to RGB conversion is its own) at the centre of
// each pane of layout drawn by a video element (box: its rectangle, the
// picture's size and the device pixel ratio; object-fit contain).
func screenPanes(img image.Image, box []float64, layout int, want ...byte) error {
	x, y, w, h, vw, vh, dpr := box[0], box[1], box[2], box[3], box[4], box[5], box[6]
	scale := min(w/vw, h/vh)
	cw, ch := vw*scale, vh*scale
	cx, cy := x+(w-cw)/2, y+(h-ch)/2
	for i, r := range compose.Panes(layout) {
		px, py := int((cx+(r.X+r.W/2)*cw)*dpr), int((cy+(r.Y+r.H/2)*ch)*dpr)
		r8, g8, b8, _ := img.At(px, py).RGBA()
		c := [3]int{int(r8 >> 8), int(g8 >> 8), int(b8 >> 8)}
		k := strings.IndexByte("RGB", want[i])
		for j := range c {
			if j != k && c[k] < c[j]+80 {
				return fmt.Errorf("pane %d at (%d, %d) of the screenshot is RGB %v, want %c dominant", i, px, py, c, want[i])
			}
		}
	}
	return nil
}
