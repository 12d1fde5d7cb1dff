//go:build unix

package sip_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The call-rate figures of docs/benchmarks.md "SIP" (issue 39; not run by
// default: set CONFER_SIP_BENCH=1): SIPp's built-in uac sets up and tears
// down SIP_CALLS calls (INVITE, 100, 180/200, ACK, BYE, 200; no media),
// at most SIP_LIMIT at once, offered at SIP_RATE a second,
//
//   - against Confer: each call joins an open conference (its terminal,
//     its RTP sockets, an SFU member) and leaves it;
//
//   - against Kamailio (Debian's, when installed) as a stateful proxy
//     (tm, record-route) in front of SIPp's built-in uas, on the same
//     machine, side by side.
//
//     CONFER_SIP_BENCH=1 SIP_CALLS=2000 SIP_RATE=1000 SIP_LIMIT=50 go test -run TestSIPCallRate -v ./internal/sip/
func TestSIPCallRate(t *testing.T) {
	t.Parallel()
	if os.Getenv("CONFER_SIP_BENCH") != "1" {
		t.Skip("set CONFER_SIP_BENCH=1 to measure the SIP call rates")
	}
	needSIPp(t)
	calls, rate, limit := envInt("SIP_CALLS", 2000), envInt("SIP_RATE", 1000), envInt("SIP_LIMIT", 50)
	sippArgs := func(extra ...string) []string {
		return append([]string{"-sn", "uac", "-r", strconv.Itoa(rate), "-m", strconv.Itoa(calls), "-l", strconv.Itoa(limit), "-d", "0"}, extra...)
	}

	// Confer.
	cfg := sipConfig()
	cfg.RTPPortMax = cfg.RTPPortMin + 8*limit + 64
	if n := envInt("SIP_RTP_PORTS", 0); n > 0 {
		cfg.RTPPortMax = cfg.RTPPortMin + n
	}
	cfg.MaxDialogs = 4 * limit
	cfg.RatePerAddress = 1000000 // every call comes from SIPp's one address
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{MaxSessions: 4 * limit}, SIP: &cfg, Conference: engine.DefaultConfig()})
	e := &sipEnv{env: env, api: env.LoggedIn(t), ua: env.Srv.SIP()}
	conf := e.conf(t, map[string]any{"max_join_mt": 192})
	r := runSIPpRate(t, e.addr(), sippArgs("-s", conf)...)
	t.Logf("Confer (call-in, join and leave): %s", r)

	// Kamailio as a stateful proxy in front of SIPp's uas.
	kam, err := exec.LookPath("kamailio")
	if err != nil {
		t.Log("kamailio is not installed (apt-get install kamailio): no side-by-side figure")
		return
	}
	uas := startSIPp(t, "", "", "-sn", "uas", "-m", strconv.Itoa(calls))
	waitBound(t, uas)
	port := freePort(t)
	dir := t.TempDir()
	conf2 := filepath.Join(dir, "kamailio.cfg")
	cfgText := strings.NewReplacer("@PORT@", strconv.Itoa(port), "@UAS@", strconv.Itoa(uas.port)).Replace(kamailioCfg)
	if err := os.WriteFile(conf2, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	k := exec.Command(kam, "-f", conf2, "-DD", "-E", "-m", "256", "-M", "16", "-w", dir, "-P", filepath.Join(dir, "k.pid"))
	klog, err := os.Create(filepath.Join(dir, "kamailio.log"))
	if err != nil {
		t.Fatal(err)
	}
	k.Stdout, k.Stderr = klog, klog
	k.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its worker processes are ended with it
	if err := k.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-k.Process.Pid, syscall.SIGKILL); _ = k.Wait(); klog.Close() })
	waitFor(t, "kamailio listening", func() bool { return udpBound(port) })
	r = runSIPpRate(t, "127.0.0.1:"+strconv.Itoa(port), sippArgs("-s", "bench")...)
	t.Logf("Kamailio (stateful proxy to SIPp uas): %s", r)
}

// kamailioCfg is a stateful proxy: everything to SIPp's uas, in-dialog
// requests along the recorded route.
const kamailioCfg = `#!KAMAILIO
debug=0
log_stderror=yes
children=4
listen=udp:127.0.0.1:@PORT@
loadmodule "tm.so"
loadmodule "sl.so"
loadmodule "rr.so"
loadmodule "maxfwd.so"
loadmodule "pv.so"
loadmodule "textops.so"
loadmodule "siputils.so"
request_route {
	if (!mf_process_maxfwd_header("10")) { sl_send_reply("483", "Too Many Hops"); exit; }
	if (has_totag()) {
		# SIPp's built-in uac sends its ACK and BYE without the Route set.
		if (!loose_route()) { $du = "sip:127.0.0.1:@UAS@"; }
		t_relay();
		exit;
	}
	if (is_method("CANCEL")) { if (t_check_trans()) { t_relay(); } exit; }
	record_route();
	$du = "sip:127.0.0.1:@UAS@";
	t_relay();
}
`

// rateResult is what one SIPp run of the call rate gives.
type rateResult struct {
	ok, failed int
	elapsed    time.Duration
}

func (r rateResult) String() string {
	return strconv.Itoa(r.ok) + " calls set up and torn down, " + strconv.Itoa(r.failed) + " failed, in " +
		r.elapsed.Round(time.Millisecond).String() + ": " + strconv.FormatFloat(float64(r.ok)/r.elapsed.Seconds(), 'f', 0, 64) + " calls/s"
}

var (
	sippOK     = regexp.MustCompile(`Successful call\s+\|\s+\d+\s+\|\s+(\d+)`)
	sippFailed = regexp.MustCompile(`Failed call\s+\|\s+\d+\s+\|\s+(\d+)`)
)

// runSIPpRate runs SIPp's uac against remote until its calls are done.
func runSIPpRate(t *testing.T, remote string, args ...string) rateResult {
	t.Helper()
	start := time.Now()
	s := startSIPp(t, "", remote, args...)
	err := <-s.done
	el := time.Since(start)
	var r rateResult
	r.elapsed = el
	if m := sippOK.FindStringSubmatch(s.out.String()); m != nil {
		r.ok, _ = strconv.Atoi(m[1])
	}
	if m := sippFailed.FindStringSubmatch(s.out.String()); m != nil {
		r.failed, _ = strconv.Atoi(m[1])
	}
	if r.ok == 0 {
		t.Fatalf("sipp: %v\n%s", err, tail(s.out.String()))
	}
	if r.failed > 0 { // SIPp's last screen: which message the failed calls stopped at
		out := s.out.String()
		if i := strings.LastIndex(out, "Messages  Retrans"); i >= 0 {
			screen, _, _ := strings.Cut(out[i:], "Test Terminated")
			t.Logf("SIPp:\n%s", screen)
		}
		// The responses the failed calls got instead (SIPp's -trace_err).
		codes := map[string]int{}
		errs, _ := filepath.Glob(filepath.Join(s.cmd.Dir, "*_errors.log"))
		for _, f := range errs {
			b, _ := os.ReadFile(f)
			for _, l := range strings.Split(string(b), "\n") {
				if i := strings.Index(l, "received 'SIP/2.0 "); i >= 0 {
					codes[strings.TrimSpace(l[i+10:])]++
				}
			}
		}
		t.Logf("unexpected responses: %v", codes)
	}
	return r
}

func udpBound(port int) bool {
	c, err := exec.Command("ss", "-Hlun", "sport = :"+strconv.Itoa(port)).Output()
	return err == nil && len(strings.TrimSpace(string(c))) > 0
}
