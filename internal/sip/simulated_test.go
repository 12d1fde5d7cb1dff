package sip_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Without simulated terminals (conferd's default), a number no real
// endpoint takes is never shown online: an unregistered E.164 without an
// outbound proxy, an alias at a domain whose DNS names no SIP server
// (RFC 3263, dns.go) and an H.323 number go offline at once with the outcome NoRoute (push
// 20406), and stay offline (issue 39 item 2).
func TestUnroutableNumbersOffline(t *testing.T) {
	t.Parallel()
	cfg := sipConfig()
	cfg.DNSServer = newDNSServer(t).addr() // knows no name
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, SIP: &cfg, NoSimulatedTerminals: true})
	e := &sipEnv{env: env, api: env.LoggedIn(t), ua: env.Srv.SIP()}
	conf := e.conf(t, nil)
	cases := []struct {
		account       string
		typ, protocol int
	}{
		{"5559001", 5, 1},
		{"room@partner.example.com", 8, 1},
		{"5559002", 5, 0},
	}
	for _, c := range cases {
		p := map[string]any{"mts": []any{map[string]any{"account": c.account, "account_type": c.typ, "protocol": c.protocol, "bitrate": 1024}}}
		r := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/mts", testserver.Params(t, p)))
		mt := fmt.Sprint(r["mts"].([]any)[0].(map[string]any)["mt_id"])
		waitFor(t, c.account+" offline with no route", func() bool {
			st, o := e.outcome(t, conf, mt)
			return st == "idle" && o == int(media.NoRoute)
		})
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt && online(m) {
				t.Errorf("%s is online without a call", c.account)
			}
		}
	}
	if n := e.ua.Stats().Dialled; n != 0 {
		t.Errorf("%d calls placed, want none", n)
	}
}
