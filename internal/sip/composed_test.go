package sip_test

import (
	"fmt"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/compose"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestComposedPictureAtASoftphone (issue 37 "Evidence"): baresip, an
// H.264-only SIP terminal, and a browser camera sending VP8 see each
// other: baresip decodes the VP8 speaker transcoded to H.264, and a
// browser viewer decodes baresip's H.264. Then baresip receives the
// conference's composition (each camera in its pane), and its own
// composition (mtvmps) when it has one, the panes swapped: every check
// is on the picture baresip decoded (its snapshot).
func TestComposedPictureAtASoftphone(t *testing.T) {
	t.Parallel()
	needBaresip(t)
	ff, _ := compose.FindFFmpeg("")
	e := startEnv(t, sipConfig())
	e.createAccount(t, "room", "5553701", "pw.1")
	b := startBaresip(t, e.addr(), "5553701", "pw.1")
	waitFor(t, "baresip registered", func() bool {
		_, ok := e.ua.Registered(t.Context(), "5553701")
		return ok
	})
	conf := e.conf(t, nil)
	red, green := compose.RGB(220, 30, 30), compose.RGB(30, 200, 30)
	ada := colourCamera(t, e, conf, "Ada", red)
	grace := colourCamera(t, e, conf, "Grace", green)

	b.command(t, "dial", "sip:"+conf+"@"+e.addr())
	b.waitEvent(t, "CALL_ESTABLISHED")
	phone := e.mtNamed(t, conf, "5553701")

	// The VP8 camera as speaker: baresip sees it, transcoded.
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": ada})))
	b.waitPicture(t, "the VP8 speaker transcoded", 1, red)

	// The browser sees baresip (H.264) once it speaks.
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": phone})))
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	vpc := newPC(t)
	if _, err := vpc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	got := make(chan *compose.Input, 1)
	vpc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
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
	if code := whepOffer(t, vpc, tok["whep_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	seen := <-got
	waitFor2(t, "baresip's H.264 decoded by the browser viewer", func() bool {
		f, _ := seen.Latest()
		return seen.Frames() >= 10 && f != nil && f.W == 320 && f.H == 240
	})

	// The conference's composition: each camera in its pane.
	vmp := func(path, method string, first, second string, extra map[string]any) {
		p := map[string]any{"mode": 1, "layout": 2, "voice_hint": 0, "show_mt_name": 0, "members": []any{
			map[string]any{"chn_idx": 0, "member_type": 1, "mt_id": first},
			map[string]any{"chn_idx": 1, "member_type": 1, "mt_id": second},
		}}
		for k, v := range extra {
			p[k] = v
		}
		testserver.MustOK(t, e.api.Do(method, "/api/v1/vc/confs/"+conf+path, testserver.Params(t, p)))
	}
	vmp("/vmps", "POST", ada, grace, map[string]any{"broadcast": 1})
	b.waitPicture(t, "the composition", 2, red, green)

	// Its own composition (mtvmps) goes to it alone: the panes swapped.
	vmp("/mtvmps", "POST", grace, ada, map[string]any{"mt_id": phone})
	b.waitPicture(t, "its own composition", 2, green, red)
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/mtvmps/"+phone, nil))
	b.waitPicture(t, "the conference's composition again", 2, red, green)
}

// waitFor2 is waitFor bounded by the test's deadline only.
func waitFor2(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if browsertest.Expired(t) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPicture waits for a picture decoded by baresip (its snapshot)
// showing colour want[i] at the centre of pane i of layout.
func (b *baresip) waitPicture(t *testing.T, what string, layout int, want ...compose.YUV) {
	t.Helper()
	snap := filepath.Join(b.dir, "recv.png")
	var last string
	for n := 0; ; n++ {
		if browsertest.Expired(t) {
			t.Fatalf("baresip never showed %s: %s", what, last)
		}
		_ = os.Remove(snap)
		b.command(t, "snapshot_recv", snap)
		img := readPNG(snap)
		for i := 0; img == nil && i < 40; i++ { // written from the next decoded frame
			time.Sleep(50 * time.Millisecond)
			img = readPNG(snap)
		}
		if img == nil {
			last = "no snapshot"
			continue
		}
		last = ""
		for i, r := range compose.Panes(layout) {
			px := r.Pixels(img.Bounds().Dx(), img.Bounds().Dy())
			c := img.At((px.Min.X+px.Max.X)/2, (px.Min.Y+px.Max.Y)/2)
			r8, g8, b8, _ := c.RGBA()
			got := compose.RGB(uint8(r8>>8), uint8(g8>>8), uint8(b8>>8))
			if !nearYUV(got, want[i]) {
				last = fmt.Sprintf("pane %d of %dx%d shows %v, want %v", i, img.Bounds().Dx(), img.Bounds().Dy(), got, want[i])
				break
			}
		}
		if last == "" {
			return
		}
	}
}

func readPNG(path string) image.Image {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

func nearYUV(a, b compose.YUV) bool {
	d := func(x, y uint8) int { return max(int(x)-int(y), int(y)-int(x)) }
	return d(a.Y, b.Y) <= 24 && d(a.U, b.U) <= 24 && d(a.V, b.V) <= 24
}

// colourCamera is a browser camera sending a solid colour in VP8 (WHIP,
// no sound), online as terminal name; it returns its mt_id.
func colourCamera(t *testing.T, e *sipEnv, conf, name string, col compose.YUV) string {
	t.Helper()
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": name, "role": "publish"})))
	pc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, "video", name)
	if err != nil {
		t.Fatal(err)
	}
	snd, err := pc.AddTrack(tr)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := compose.New(compose.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(comp.Close)
	f := compose.NewFrame(320, 180)
	f.Fill(image.Rect(0, 0, 320, 180), col)
	in := comp.Input("self", nil, nil)
	in.SetFrame(f)
	comp.SetScene(compose.Scene{Layout: 1, Panes: []compose.Pane{{Input: "self"}}})
	out, err := comp.Output(compose.OutputSpec{MimeType: "video/VP8", Width: 320, Height: 180, Bitrate: 300_000, PayloadType: 96}, trackSink{tr})
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
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
	go func() { // the SFU's key frame requests
		for {
			pkts, _, err := snd.ReadRTCP()
			if err != nil {
				return
			}
			for _, p := range pkts {
				if _, ok := p.(*rtcp.PictureLossIndication); ok {
					out.KeyFrame()
				}
			}
		}
	}()
	if code := whepOffer(t, pc, tok["whip_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d", code)
	}
	return e.mtNamed(t, conf, name)
}

// trackSink publishes an output's packets on a WebRTC track.
type trackSink struct{ tr *webrtc.TrackLocalStaticRTP }

func (s trackSink) WriteVideo(p *rtp.Packet) { _ = s.tr.WriteRTP(p) }
