package rtc_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestLiveHLSOnTheMediaOwner: two nodes on one PostgreSQL database; node
// A owns the conference's media (a WHIP publisher of VP8 and Opus). The
// HLS playlist of a public live broadcast started through node B is
// answered by B with 307 to the same path on A, and A serves it
// (docs/live.md "HLS"; issue 35).
func TestLiveHLSOnTheMediaOwner(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	packets := rectest.Packets(t, dir, 12) // skips without ffmpeg
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "hls on A")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
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
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}
	vrsID := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	testserver.MustOK(t, cb.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "hls", "recorder_type": 1, "publish_mode": 1, "watermark": 0, "anonymous": 1, "recorder_mode": 2,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))
	room := testserver.MustOK(t, cb.Do("GET", "/api/v1/vrs/liveroom", nil))["roomstate"].([]any)[0].(map[string]any)
	code, desc := descriptor(t, room["livestreampath"].(string), "")
	if code != http.StatusOK || desc["hls_url"] == "" {
		t.Fatalf("descriptor = %d %v", code, desc)
	}
	path := desc["hls_url"][strings.Index(desc["hls_url"], "/live/"):]
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(b.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != a.URL+path {
		t.Fatalf("the playlist on B = %d Location %q, want 307 to %s", resp.StatusCode, resp.Header.Get("Location"), a.URL+path)
	}
	var playlist []byte
	for { // followed to A; 503 while ffmpeg's first segment is made
		if resp, err = http.Get(b.URL + path); err != nil {
			t.Fatal(err)
		}
		playlist, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || browsertest.Expired(t) {
			break
		}
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(string(playlist), "#EXTM3U") || resp.Request.URL.Host != strings.TrimPrefix(a.URL, "http://") {
		t.Fatalf("playlist = %d from %s: %q", resp.StatusCode, resp.Request.URL, playlist)
	}
}
