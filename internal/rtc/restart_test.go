package rtc_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/recorder/rectest"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestRestartTakesGhostsOffline: a node stops (its SFU closes without
// telling the engine, as SIGTERM or kill -9 leaves it) while a WHIP
// publisher is online; the node started again on the same database takes
// the publisher's terminal offline within 10 s of its start, after which
// a mute of it is refused (issue 35 item 4: ghosts stayed online and
// accepted mutes).
func TestRestartTakesGhostsOffline(t *testing.T) {
	t.Parallel()
	dsn := testdb.SQLite(t)
	opt := testserver.Options{RTC: &sfu.Config{}, OneNode: true}
	a := testserver.StartNode(t, dsn, nil, opt)
	ca := a.LoggedIn(t)
	conf := startConf(t, ca, "restarted")
	tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	publish(t, tok["whip_url"].(string), tok["token"].(string))
	mt := onlineTerminal(t, ca, conf, "camera")
	// While its SFU holds the publisher, the checks leave it online.
	a.Advance(t, 0)
	a.Advance(t, 5*time.Second)
	if _, on := terminal(t, ca, conf, "camera"); !on {
		t.Fatal("a held participant was taken offline")
	}
	a.Kill()

	b := testserver.StartNode(t, dsn, a.Clock, opt)
	cb := b.LoggedIn(t)
	if _, on := terminal(t, cb, conf, "camera"); !on {
		t.Fatal("the terminal is offline before the restarted node checked it")
	}
	for range 5 { // 10 s of the restarted node's ticks
		b.Advance(t, 2*time.Second)
	}
	if _, on := terminal(t, cb, conf, "camera"); on {
		t.Fatal("the publisher of the stopped node is still online 10 s after the restart")
	}
	if r := cb.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})); r.OK() {
		t.Fatalf("a mute of the ghost terminal succeeded: %v", r.Body)
	}
}

// TestRestartStoresInterruptedRecording: a recording runs when its node
// stops; started again, the node stores it as a program with the file's
// real duration and size, the recording leaves the list, and the
// program's download serves the file (issue 35 item 4: the stop of the
// listed recording stored a program of 70 s and 8.96 MB for a 12 s file,
// whose download answered "recorded without media"). SIGTERM finalises
// the file; kill -9 leaves it as it was on the disk while recording (the
// test keeps a copy taken then).
func TestRestartStoresInterruptedRecording(t *testing.T) {
	t.Parallel()
	for _, kill := range []bool{false, true} {
		name := map[bool]string{false: "SIGTERM", true: "kill -9"}[kill]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			packets := rectest.Packets(t, dir, 10)
			dsn := testdb.SQLite(t)
			recDir := filepath.Join(dir, "recordings")
			opt := testserver.Options{RTC: &sfu.Config{}, OneNode: true, Recording: server.RecordingConfig{Dir: recDir}}
			a := testserver.StartNode(t, dsn, nil, opt)
			ca := a.LoggedIn(t)
			conf := startConf(t, ca, "restarted")
			tok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
			pub := publishMedia(t, tok["whip_url"].(string), tok["token"].(string), packets)
			mt := onlineTerminal(t, ca, conf, "camera")
			testserver.MustOK(t, ca.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
			rec := startRecording(t, ca, conf)
			pub.send(t, 0, 8*time.Second)
			var file string
			waitFor(t, "the recording's file", func() bool {
				fs, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
				if len(fs) == 1 {
					file = fs[0]
				}
				fi, err := os.Stat(file)
				return err == nil && fi.Size() > 100<<10
			})
			var crashed []byte
			if kill {
				b, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				crashed = b
			}
			a.Kill()
			if kill { // the file as kill -9 leaves it: no duration, no cues
				if err := os.WriteFile(file, crashed, 0o600); err != nil {
					t.Fatal(err)
				}
			}

			b := testserver.StartNode(t, dsn, a.Clock, opt)
			cb := b.LoggedIn(t)
			if l := testserver.MustOK(t, cb.Do("GET", "/api/v1/vc/confs/"+conf+"/recorders", nil))["recorders"].([]any); len(l) != 0 {
				t.Errorf("the interrupted recording is still listed: %v", l)
			}
			prgs := testserver.MustOK(t, cb.Do("GET", "/api/v1/vrs/program", url.Values{"folderid": {"1"}}))["prginfo"].([]any)
			if len(prgs) != 1 {
				t.Fatalf("programs = %v", prgs)
			}
			prg := prgs[0].(map[string]any)
			fi, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			probed := rectest.ProbeFile(t, file)
			dur := prg["prgallduration"].(float64)
			if prg["prgallsize"] != float64(fi.Size()) || dur < 3 || dur > 9 {
				t.Errorf("program size %v duration %v s, want the file's %d bytes and about 8 s (ffprobe: %v)",
					prg["prgallsize"], dur, fi.Size(), probed.Duration())
			}
			gid := fmt.Sprint(prg["prggid"])
			req, _ := http.NewRequest("GET", b.URL+"/api/v1/vrs/programs/"+gid+"/file?account_token="+cb.Token, nil)
			resp, body := get(t, cb, req)
			if resp.StatusCode != http.StatusOK || int64(len(body)) != fi.Size() {
				t.Errorf("download: %d, %d bytes of %d: %.200s", resp.StatusCode, len(body), fi.Size(), body)
			}
		})
	}
}
