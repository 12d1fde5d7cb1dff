package sip_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// SIPp (Debian package sip-tester) plays the terminals of these tests; its
// pcaps (g711a.pcap, dtmf_2833_*.pcap) come with the package.
const pcapDir = "/usr/share/sip-tester"

func needSIPp(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sipp"); err != nil {
		t.Skip("sipp is not installed (apt-get install sip-tester): SIP end-to-end tests skipped")
	}
	if _, err := os.Stat(filepath.Join(pcapDir, "g711a.pcap")); err != nil {
		t.Skip("the pcaps of sip-tester are missing in " + pcapDir + ": SIP end-to-end tests skipped")
	}
}

// freePort returns a UDP port that is free now with the three after it
// (SIPp's media port pairs with +1 (RTCP) and +2, +3 (video), and a taken
// neighbour made SIPp exit at start). The ports come from one sequence
// of the test process, in 20000 to 32767: below Linux's ephemeral range
// (32768 up), so that no socket bound to port 0 (Go's, pion's) and no
// RTP port of Confer's (40000 up) takes one between this check and
// SIPp's bind, and two tests running in parallel never get the same
// port; where an ephemeral port was taken, SIPp lost such a race at
// load ("sipp ended before binding port 40084").
func freePort(t *testing.T) int {
	t.Helper()
	for range (sippPortMax - sippPortMin) / 4 {
		p := sippPortMin + int(sippPortNext.Add(4)%(sippPortMax-sippPortMin))
		if udpFree(p, 4) {
			return p
		}
	}
	t.Fatal("no four free UDP ports in 20000 to 32767")
	return 0
}

const sippPortMin, sippPortMax = 20000, 32764

// sippPortNext starts at a random multiple of 4, so that two test
// processes (a rerun beside a run) rarely walk the same ports.
var sippPortNext = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(int64(rand.IntN((sippPortMax-sippPortMin)/4)) * 4)
	return &n
}()

// udpFree reports whether the n UDP ports from p are free on 127.0.0.1.
func udpFree(p, n int) bool {
	for i := range n {
		c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(p+i))
		if err != nil {
			return false
		}
		c.Close()
	}
	return true
}

// waitBound waits until s's SIPp has bound its SIP port; a SIPp that
// ended first fails the test with its output.
func waitBound(t *testing.T, s *sippRun) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(s.port))
		if errors.Is(err, syscall.EADDRINUSE) {
			return
		}
		if err == nil {
			c.Close()
		}
		select {
		case err := <-s.done:
			s.done <- err // for wait
			t.Fatalf("sipp ended before binding port %d: %v\n%s", s.port, err, tail(s.out.String()))
		case <-time.After(20 * time.Millisecond):
		}
	}
	_ = s.cmd.Process.Kill() // its output is read once it has ended
	err := <-s.done
	t.Fatalf("sipp did not bind port %d within 15 s (%v)\n%s", s.port, err, tail(s.out.String()))
}

// scenario writes a scenario of testdata with its placeholders replaced.
func scenario(t *testing.T, name string, repl map[string]string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), "@PCAP@", pcapDir)
	for k, v := range repl {
		s = strings.ReplaceAll(s, "@"+k+"@", v)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type sippRun struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan error
	port int
	cid  string // its calls' Call-IDs are cid-1, cid-2, ...
}

// sipp runs one SIPp call of scenario on its own SIP and media ports;
// remote is Confer's address for a UAC scenario, "" for a UAS.
func startSIPp(t *testing.T, scen, remote string, extra ...string) *sippRun {
	t.Helper()
	return startSIPpOn(t, freePort(t), scen, remote, extra...)
}

// startSIPpOn is startSIPp on SIP port port.
func startSIPpOn(t *testing.T, port int, scen, remote string, extra ...string) *sippRun {
	t.Helper()
	r := &sippRun{port: port, done: make(chan error, 1), cid: "sipp" + strconv.Itoa(rand.IntN(1e9))}
	// SIPp's -timeout and the process's context are a safety net against
	// a hung run, far beyond any scenario: scenarios wait for events (a
	// response, the test's cue), never for a time that a loaded machine
	// could exceed.
	args := []string{"-i", "127.0.0.1", "-p", strconv.Itoa(r.port), "-mi", "127.0.0.1",
		"-mp", strconv.Itoa(freePort(t)), "-nostdin", "-timeout", "5m", "-timeout_error", "-trace_err",
		"-max_recv_loops", "100", "-cid_str", r.cid + "-%u"}
	if scen != "" { // "": a built-in scenario named by -sn in extra
		args = append([]string{"-sf", scen}, args...)
	}
	if remote != "" {
		args = append([]string{remote}, args...)
	}
	args = append(args, extra...)
	if !slices.Contains(extra, "-m") {
		args = append(args, "-m", "1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	t.Cleanup(cancel)
	r.cmd = exec.CommandContext(ctx, "sipp", args...)
	r.cmd.Dir = t.TempDir()
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
		}
	})
	return r
}

// wait waits for SIPp's end and fails the test unless its call succeeded.
func (r *sippRun) wait(t *testing.T) {
	t.Helper()
	select {
	case err := <-r.done:
		if err != nil {
			errs, _ := filepath.Glob(filepath.Join(r.cmd.Dir, "*_errors.log"))
			var log []byte
			for _, f := range errs {
				b, _ := os.ReadFile(f)
				log = append(log, b...)
			}
			t.Fatalf("sipp failed: %v\n%s\n%s", err, tail(r.out.String()), tail(string(log)))
		}
	case <-time.After(6 * time.Minute):
		t.Fatal("sipp did not end")
	}
}

// cue sends SIPp's call n (from 1) the INFO its scenario waits for
// (hangUpOnCue): the test saw what it waited for, the caller may go on.
func (r *sippRun) cue(t *testing.T, n int) {
	t.Helper()
	c, err := net.Dial("udp", "127.0.0.1:"+strconv.Itoa(r.port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r.sendCue(t, c, n)
}

// cueTLS is cue for SIPp over TLS (-t l1), which takes requests on its
// port over TLS only; roots verify SIPp's certificate.
func (r *sippRun) cueTLS(t *testing.T, n int, roots *x509.CertPool) {
	t.Helper()
	c, err := tls.Dial("tcp", "127.0.0.1:"+strconv.Itoa(r.port), &tls.Config{RootCAs: roots})
	if err != nil {
		t.Fatalf("cue over TLS to SIPp: %v", err)
	}
	t.Cleanup(func() { c.Close() }) // open until SIPp ends: it reads the cue meanwhile
	r.sendCue(t, c, n)
}

func (r *sippRun) sendCue(t *testing.T, c net.Conn, n int) {
	t.Helper()
	msg := "INFO sip:sipp@127.0.0.1:" + strconv.Itoa(r.port) + " SIP/2.0\r\n" +
		"Via: SIP/2.0/UDP " + c.LocalAddr().String() + ";branch=z9hG4bKcue" + strconv.Itoa(rand.IntN(1e9)) + "\r\n" +
		"From: <sip:test@127.0.0.1>;tag=cue\r\nTo: <sip:sipp@127.0.0.1>\r\n" +
		"Call-ID: " + r.cid + "-" + strconv.Itoa(n) + "\r\nCSeq: 1 INFO\r\nMax-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
	if _, err := c.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return s[len(s)-3000:]
	}
	return s
}

type sipEnv struct {
	env *testserver.Env
	api *testserver.Client
	ua  *sip.UA
}

func startEnv(t *testing.T, cfg sip.Config) *sipEnv {
	t.Helper()
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = 3 * time.Second
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = time.Minute // longer than any scenario: SIPp would not expect OPTIONS
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, SIP: &cfg})
	ua := env.Srv.SIP()
	if ua == nil {
		t.Fatal("no SIP user agent")
	}
	return &sipEnv{env: env, api: env.LoggedIn(t), ua: ua}
}

func (e *sipEnv) addr() string { return e.ua.Addr().String() }

// conf starts a conference; extra fields are merged into its parameters.
func (e *sipEnv) conf(t *testing.T, extra map[string]any) string {
	t.Helper()
	p := map[string]any{"create_type": 1, "name": "sip", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"call_times": 1, "video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	for k, v := range extra {
		p[k] = v
	}
	return testserver.MustOK(t, e.api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
}

// addMt adds a terminal to a conference (call mode automatic: it is
// called at once) and returns its mt_id.
func (e *sipEnv) addMt(t *testing.T, conf, account string, accountType int) string {
	t.Helper()
	p := map[string]any{"mts": []any{map[string]any{"account": account, "account_type": accountType, "protocol": 1, "bitrate": 1024}}}
	r := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/mts", testserver.Params(t, p)))
	mts, _ := r["mts"].([]any)
	if len(mts) != 1 {
		t.Fatalf("mts.add: %v", r)
	}
	return fmt.Sprint(mts[0].(map[string]any)["mt_id"])
}

// mts lists the conference's terminals.
func (e *sipEnv) mts(t *testing.T, conf string) []map[string]any {
	t.Helper()
	r := testserver.MustOK(t, e.api.Do("GET", "/api/v1/vc/confs/"+conf+"/mts", nil))
	var out []map[string]any
	for _, m := range r["mts"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // a safety net: a loaded machine is slow, not stuck
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func online(m map[string]any) bool { return fmt.Sprint(m["online"]) == "1" }

// waitOnline waits until terminal mt of conf is online.
func (e *sipEnv) waitOnline(t *testing.T, conf, mt, what string) {
	t.Helper()
	waitFor(t, what, func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt && online(m) {
				return true
			}
		}
		return false
	})
}

// outcome reads the outcome the engine stored for a terminal's last call.
func (e *sipEnv) outcome(t *testing.T, conf, mt string) (string, int) {
	t.Helper()
	recs, _, err := e.env.Store.ListRecords(context.Background(), store.RecordQuery{Kind: record.KindMT})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == conf+"/"+mt {
			var doc map[string]any
			_ = json.Unmarshal(r.Data, &doc)
			n, _ := doc["_outcome"].(float64)
			return r.State, int(n)
		}
	}
	t.Fatalf("no terminal %s/%s", conf, mt)
	return "", 0
}
