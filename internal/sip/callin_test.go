package sip_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/sip"
)

// --sip-call-in and enumeration (issue 38 item 4): an unregistered
// caller cannot tell a running conference from an unused number (a bad
// offer gets 488 before the number is looked up, a refusal 404 whatever
// its reason); "password" takes callers only into conferences with a
// password, "registered" only registered callers.
func TestCallInPolicy(t *testing.T) {
	t.Parallel()
	t.Run("open", func(t *testing.T) {
		e := startEnv(t, sipConfig())
		conf := e.conf(t, map[string]any{"max_join_mt": 8})
		noCodec := "v=0\no=x 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 9 RTP/AVP 18\n"
		for _, number := range []string{conf, "9999999"} {
			if got := newPeer(t, e.addr()).callWith(number, noCodec).code(); got != 488 {
				t.Errorf("no codec to %s: %d, want 488", number, got)
			}
		}
		var in []*peer
		for i := range 8 {
			p := newPeer(t, e.addr())
			if got := p.callWith(conf, audioSDP(9, "sendrecv")).code(); got != 200 {
				t.Fatalf("caller %d: %d", i, got)
			}
			in = append(in, p)
		}
		if got := newPeer(t, e.addr()).callWith(conf, audioSDP(9, "sendrecv")).code(); got != 404 {
			t.Errorf("a caller of a full conference: %d, want 404 as for no conference", got)
		}
		for _, p := range in {
			p.do("BYE", "", "")
		}
	})
	t.Run("password", func(t *testing.T) {
		cfg := sipConfig()
		cfg.CallIn = sip.CallInPassword
		e := startEnv(t, cfg)
		open := e.conf(t, nil)
		locked := e.conf(t, map[string]any{"password": "4321"})
		if got := newPeer(t, e.addr()).callWith(open, audioSDP(9, "sendrecv")).code(); got != 404 {
			t.Errorf("a conference without password: %d, want 404", got)
		}
		p := newPeer(t, e.addr())
		if got := p.callWith(locked, audioSDP(9, "sendrecv")).code(); got != 200 {
			t.Fatalf("a conference with a password: %d, want 200 (then the password)", got)
		}
		p.do("BYE", "", "")
	})
	t.Run("registered", func(t *testing.T) {
		cfg := sipConfig()
		cfg.CallIn = sip.CallInRegistered
		e := startEnv(t, cfg)
		conf := e.conf(t, nil)
		if got := newPeer(t, e.addr()).callWith(conf, audioSDP(9, "sendrecv")).code(); got != 404 {
			t.Errorf("an unregistered caller: %d, want 404", got)
		}
	})
}
