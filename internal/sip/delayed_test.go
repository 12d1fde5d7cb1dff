package sip_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/testserver"
)

// A PBX trunk calls in with a delayed offer (an INVITE without SDP,
// RFC 3261 section 13.2.1): Confer's 200 offers, the ACK answers PCMA,
// and the trunk's RTP arrives. The caller registered its number first:
// it is listed with that number (e164; its account is the number, type 5), over SIP
// (protocol 1), with its address (issue 39 items 4 and 6).
func TestDelayedOfferCallerIdentified(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	e := startEnv(t, sipConfig())
	e.createAccount(t, "trunk44", "5551044", "s3cret.pw")
	reg := startSIPp(t, scenario(t, "uac_register.xml", map[string]string{"E164": "5551044", "PASSWORD": "s3cret.pw", "REGCODE": "200"}), e.addr())
	reg.wait(t)
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uac_delayed.xml", map[string]string{"FROM": "5551044"}), e.addr(), "-s", conf)
	var m map[string]any
	waitFor(t, "the trunk online", func() bool {
		m = e.mtByAlias(t, conf, "PBX trunk")
		return m != nil && online(m)
	})
	want := map[string]string{"protocol": "1", "ip": "127.0.0.1", "e164": "5551044"}
	for k, v := range want {
		if got := fmt.Sprint(m[k]); got != v {
			t.Errorf("caller %s = %s, want %s", k, got, v)
		}
	}
	waitFor(t, "the trunk's RTP", func() bool { return e.ua.Stats().RTPReceived > 20 })
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": fmt.Sprint(m["mt_id"])}}})))
	s.wait(t)
}

// An unregistered caller is listed with its address (its account, type 7) over
// SIP.
func TestCallerByAddress(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	if res := p.call(conf, ""); res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	var m map[string]any
	waitFor(t, "the caller online", func() bool { m = e.mtByAlias(t, conf, "peer"); return m != nil && online(m) })
	want := map[string]string{"protocol": "1", "ip": "127.0.0.1", "e164": ""}
	for k, v := range want {
		if got := fmt.Sprint(m[k]); got != v {
			t.Errorf("caller %s = %s, want %s", k, got, v)
		}
	}
	p.do("BYE", "", "")
}
