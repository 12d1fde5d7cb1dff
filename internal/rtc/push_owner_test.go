package rtc_test

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestRTMPPushOnTheMediaOwner: two nodes on one PostgreSQL database; node
// A owns the conference's media (a VP8 camera, the speaker). A live
// broadcast with an RTMP push started through node B is pushed by A (A
// pushes, B does not) and reaches the RTMP server; its stop ends A's
// push. After a failover (A stops, its lease lapses) B pushes the
// running broadcast (docs/live.md "RTMP push"; issue 35).
func TestRTMPPushOnTheMediaOwner(t *testing.T) {
	t.Parallel()
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("ffmpeg is not installed")
	}
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}, MediaLease: failoverLease}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "pushed by the owner")
	mt := colourCamera(t, ca, conf, "Ada", webrtc.MimeTypeVP8, red)
	testserver.MustOK(t, ca.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	served := rtmpServer(t, ff, port, filepath.Join(t.TempDir(), "received.flv"))
	vrsID := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	recID := testserver.MustOK(t, cb.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "pushed", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0,
		"recorder_mode": 2, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID,
		"x_confer_rtmp_url": fmt.Sprintf("rtmp://127.0.0.1:%d/live/x", port)})))["rec_id"]
	if pa, pb := a.Srv.RTMPPushes(), b.Srv.RTMPPushes(); pa != 1 || pb != 0 {
		t.Fatalf("pushes on A %d, on B %d: want the owner A to push", pa, pb)
	}
	if err := <-served; err != nil {
		t.Fatalf("the RTMP server: %v", err)
	}
	testserver.MustOK(t, ca.Do("DELETE", fmt.Sprintf("/api/v1/vc/confs/%s/recorders/%v", conf, recID),
		testserver.Params(t, map[string]any{"recorder_mode": 2})))
	waitFor(t, "A's push stopped", func() bool { return a.Srv.RTMPPushes() == 0 })

	// Another push through B; A stops; B takes the media over and pushes
	// it from then on.
	served = rtmpServer(t, ff, port, filepath.Join(t.TempDir(), "again.flv"))
	testserver.MustOK(t, cb.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "pushed again", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0,
		"recorder_mode": 2, "main_stream": 1, "dual_stream": 0, "vrs_id": vrsID,
		"x_confer_rtmp_url": fmt.Sprintf("rtmp://127.0.0.1:%d/live/x", port)})))
	if pa, pb := a.Srv.RTMPPushes(), b.Srv.RTMPPushes(); pa != 1 || pb != 0 {
		t.Fatalf("pushes on A %d, on B %d: want the owner A to push", pa, pb)
	}
	a.Kill()
	a.Clock.Advance(failoverLease)
	waitFor(t, "B the conference's media owner", func() bool { return ownerURL(t, b, conf) == b.URL })
	waitFor(t, "B pushing the broadcast", func() bool { return b.Srv.RTMPPushes() == 1 })
	mt2 := colourCamera(t, cb, conf, "Ada again", webrtc.MimeTypeVP8, red) // the camera comes back through B
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt2})))
	if err := <-served; err != nil {
		t.Fatalf("the RTMP server after the failover: %v", err)
	}
}
