package sip_test

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The figures of docs/benchmarks.md "SIP" (not run by default: set
// CONFER_SIP_BENCH=1): SIPp callers dial an open conference at a rate
// (calls set up per second), each stays a while sending G.711 (concurrent
// SIP terminals in one conference).
//
//	CONFER_SIP_BENCH=1 SIP_CALLS=100 SIP_RATE=20 SIP_STAY=5000 go test -run TestSIPFigures -v ./internal/sip/
func TestSIPFigures(t *testing.T) {
	t.Parallel()
	if os.Getenv("CONFER_SIP_BENCH") != "1" {
		t.Skip("set CONFER_SIP_BENCH=1 to measure the SIP figures")
	}
	needSIPp(t)
	calls, rate, stay := envInt("SIP_CALLS", 100), envInt("SIP_RATE", 20), envInt("SIP_STAY", 5000)
	cfg := sipConfig()
	cfg.RTPPortMax = cfg.RTPPortMin + 8*calls
	cfg.MaxDialogs = 2 * calls
	cfg.RatePerAddress = 100 * rate // every call comes from SIPp's one address (docs/sip.md "Limits per address")
	ec := engine.DefaultConfig()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{MaxSessions: 4 * calls}, SIP: &cfg, Conference: ec})
	e := &sipEnv{env: env, api: env.LoggedIn(t), ua: env.Srv.SIP()}
	conf := e.conf(t, map[string]any{"max_join_mt": 192})
	start := time.Now()
	s := startSIPp(t, scenario(t, "uac_bench.xml", map[string]string{"STAY": strconv.Itoa(stay)}), e.addr(), "-s", conf,
		"-r", strconv.Itoa(rate), "-m", strconv.Itoa(calls), "-l", strconv.Itoa(calls))
	peak := 0
	var first time.Duration
	for done := false; !done; {
		select {
		case err := <-s.done:
			s.done <- err
			done = true
		case <-time.After(100 * time.Millisecond):
			n := 0
			for _, m := range e.mts(t, conf) {
				if online(m) {
					n++
				}
			}
			if n > peak {
				peak = n
			}
			if n == calls && first == 0 {
				first = time.Since(start)
			}
		}
	}
	s.wait(t)
	st := e.ua.Stats()
	ok := regexp.MustCompile(`Successful call\s+\|\s+\d+\s+\|\s+(\d+)`).FindStringSubmatch(s.out.String())
	t.Logf("calls %d offered at %d/s: SIPp successful %v; joined %d; peak online in one conference %d; all %d online after %v; RTP received %d, sent %d; run %v",
		calls, rate, ok[1:], st.Joined, peak, calls, first, st.RTPReceived, st.RTPSent, time.Since(start))
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var _ = sip.DefaultAddr
