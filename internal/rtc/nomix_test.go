package rtc_test

import (
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestMixRefusedWithoutOpus: on a node where the mixer's codec cannot run
// (CONFER_OPUS=off makes it behave so), every piece of work that needs the
// mix is refused with the reason, never answered with silence: a
// recording of the conference (24028), an audio monitor of the conference
// (20511), the HLS of a live broadcast (503) and a TV wall channel (503).
// Forwarding still works: a publisher's Opus reaches a WHEP viewer.
func TestMixRefusedWithoutOpus(t *testing.T) {
	t.Setenv("CONFER_OPUS", "off")
	recDir := filepath.Join(t.TempDir(), "recordings")
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "nomix")
	vcPath := "/api/v1/vc/confs/" + conf
	pubTok := rtcToken(t, c, conf, map[string]any{"name": "desk", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	var desk string
	waitFor(t, "the publisher online", func() bool {
		var on bool
		desk, on = terminal(t, c, conf, "desk")
		return on
	})
	says := func(what, desc string) {
		t.Helper()
		if !strings.Contains(desc, "CONFER_OPUS=off") || !strings.Contains(desc, "mix") {
			t.Errorf("%s refused with %q, want the reason (the mixer's codec is off)", what, desc)
		}
	}

	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	says("the recording", testserver.MustFail(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "mix", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})), 24028))
	says("the monitor", testserver.MustFail(t, c.Do("POST", vcPath+"/monitors", testserver.Params(t, map[string]any{
		"mode": 1, "src": map[string]any{"type": 2, "mt_id": ""}, "dst": map[string]any{"ip": "127.0.0.1", "port": 7000}})), 20511))

	// A TV wall channel showing the publisher: refused, with the reason.
	testserver.MustOK(t, c.Do("POST", vcPath+"/hdus", testserver.Params(t, map[string]any{"hdu_id": "1_0", "mode": 2, "show_mt_name": 0,
		"spilt": map[string]any{"members": []any{map[string]any{"chn_idx": 0, "mt_id": desk}}}})))
	_, v := wallState(t, env, c, "1_0")
	if len(v.Channels) != 1 || v.Channels[0].WHEP == "" {
		t.Fatalf("wall state %+v", v)
	}
	prev := http.DefaultClient.Jar
	http.DefaultClient.Jar = cookieJar{c.Cookie}
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	code, _, body := offer(t, pc, env.URL+v.Channels[0].WHEP, "")
	http.DefaultClient.Jar = prev
	if code != http.StatusServiceUnavailable {
		t.Errorf("wall channel = %d %q, want 503", code, body)
	}
	says("the wall channel", body)

	// Forwarding needs no codec: a WHEP viewer of the publisher hears it.
	w, code := watchWithCookie(t, env.URL+"/rtc/whep/"+conf+"?mt_id="+desk, c)
	if code != http.StatusCreated {
		t.Fatalf("WHEP viewer = %d", code)
	}
	waitFor(t, "the publisher's forwarded audio", func() bool { return w.audio.Load() >= 20 })

	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Log("ffmpeg is not installed: the HLS part is skipped")
		return
	}
	testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "hls", "recorder_type": 1, "publish_mode": 1, "watermark": 0, "anonymous": 1, "recorder_mode": 2,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))
	room := testserver.MustOK(t, c.Do("GET", "/api/v1/vrs/liveroom", nil))["roomstate"].([]any)[0].(map[string]any)
	dcode, desc := descriptor(t, room["livestreampath"].(string), "")
	if dcode != http.StatusOK || desc["hls_url"] == "" {
		t.Fatalf("descriptor = %d %v", dcode, desc)
	}
	resp, err := http.Get(desc["hls_url"])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("HLS playlist = %d %q, want 503", resp.StatusCode, b)
	}
	says("the HLS playlist", string(b))
}
