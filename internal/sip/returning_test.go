package sip_test

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// again makes the peer's next call a new one (a new Call-ID and tag),
// from the same From URI.
func (p *peer) again() {
	p.callID, p.localTag = "peer-"+strconv.Itoa(rand.IntN(1e9)), "p"+strconv.Itoa(rand.IntN(1e6))
}

// A caller that calls in again is the terminal it was (issue 38 item 8:
// every call-in made a new record, and a flood of calls filled the
// conference): the same From URI calling 3 times leaves one record.
// Two calls of that URI at once are two terminals: an online terminal is
// never taken over; the next call takes an offline one back.
func TestReturningCallerKeepsItsTerminal(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	peers := func() (n, on int) {
		for _, m := range e.mts(t, conf) {
			if m["alias"] == "peer" {
				n++
				if online(m) {
					on++
				}
			}
		}
		return n, on
	}
	p := newPeer(t, e.addr())
	var mt any
	for i := range 3 {
		p.again()
		if res := p.call(conf, ""); res.code() != 200 {
			t.Fatalf("call %d: %s", i+1, res.first)
		}
		m := e.mtByAlias(t, conf, "peer")
		if m == nil || !online(m) {
			t.Fatalf("call %d: the caller is not online: %v", i+1, m)
		}
		if i == 0 {
			mt = m["mt_id"]
		} else if m["mt_id"] != mt {
			t.Fatalf("call %d is terminal %v, the first was %v", i+1, m["mt_id"], mt)
		}
		if res := p.do("BYE", "", ""); res.code() != 200 {
			t.Fatalf("BYE: %s", res.first)
		}
		waitFor(t, "the caller offline", func() bool { _, on := peers(); return on == 0 })
	}
	if n, _ := peers(); n != 1 {
		t.Fatalf("3 calls of one caller left %d terminals", n)
	}
	// Two calls at once from the same URI.
	q := newPeer(t, e.addr())
	q.localURI = p.localURI
	p.again()
	q.again()
	if res := p.call(conf, ""); res.code() != 200 {
		t.Fatalf("first of two calls: %s", res.first)
	}
	if res := q.call(conf, ""); res.code() != 200 {
		t.Fatalf("second of two calls: %s", res.first)
	}
	if n, on := peers(); n != 2 || on != 2 {
		t.Fatalf("two calls at once: %d terminals, %d online", n, on)
	}
	p.do("BYE", "", "")
	q.do("BYE", "", "")
	waitFor(t, "both offline", func() bool { _, on := peers(); return on == 0 })
	p.again()
	if res := p.call(conf, ""); res.code() != 200 {
		t.Fatalf("the call after: %s", res.first)
	}
	if n, on := peers(); n != 2 || on != 1 {
		t.Fatalf("the call after: %d terminals, %d online", n, on)
	}
	p.do("BYE", "", "")
	waitFor(t, "no call left", func() bool { return e.ua.Stats().Calls == 0 })
}
