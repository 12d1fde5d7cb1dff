package rtc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 11: an account filled the disk with recordings. With
// --rec-domain-quota, a recording of a user domain whose files already
// hold the quota is refused with 24014, and one that starts writes at
// most what the domain has left; the quota applies once the platform has
// a second user domain.
func TestRecordingDomainQuota(t *testing.T) {
	t.Parallel()
	recDir := t.TempDir()
	const quota = 3 << 20
	env, c, conf, pub := recordingConf(t, server.RecordingConfig{Dir: recDir, DomainQuota: quota})
	dom, err := env.Store.DomainByName(context.Background(), "default")
	if err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(recDir, dom.Moid)
	if err := os.MkdirAll(folder, 0o750); err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(folder, "earlier.webm")
	if err := os.WriteFile(filler, make([]byte, quota-512<<10), 0o640); err != nil {
		t.Fatal(err)
	}
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	n := 0
	start := func() testserver.Reply {
		n++
		return c.Do("POST", "/api/v1/vc/confs/"+conf+"/recorders", testserver.Params(t, map[string]any{
			"video_name": fmt.Sprint("desk", n), "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
			"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}}))
	}
	// One user domain: no quota.
	first := testserver.MustOK(t, start())["rec_id"].(string)
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/recorders/"+first, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	env.Account(t, "other", "bob", true)
	testserver.MustFail(t, start(), 24014)

	if err := os.WriteFile(filler, make([]byte, 1<<20), 0o640); err != nil {
		t.Fatal(err)
	}
	rec := testserver.MustOK(t, start())["rec_id"].(string)
	pub.send(t, 0, 10*time.Second)
	// Stopped by hand, or already by the quota (20802).
	if r := c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})); !r.OK() && r.Code() != 20802 {
		t.Fatalf("stop: %s", r.Raw)
	}
	files, _ := filepath.Glob(filepath.Join(folder, rec+".*"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Size() > quota-1<<20 {
		t.Fatalf("the recording's file: %v bytes (%v), want at most the %d the domain had left", fi.Size(), err, quota-1<<20)
	}
}
