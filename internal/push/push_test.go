package push_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// adminDomain is the user_domain_moid of the fixture administrator.
func adminDomain(t testing.TB, env *testserver.Env) string {
	t.Helper()
	a, err := env.Store.AccountByUsername(context.Background(), testserver.AdminUser)
	if err != nil {
		t.Fatal(err)
	}
	return a.DomainMoid
}

// startConf creates a running conference inviting two IP terminals and
// lets them answer; it returns the conf_id.
func startConf(t testing.TB, env *testserver.Env, c *testserver.Client, name string) string {
	t.Helper()
	net := nextConfNet() // a terminal is online in one conference at a time
	p := map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
		"invite_members": []any{
			map[string]any{"name": "a", "account": net + ".1", "account_type": 7, "bitrate": 1024, "protocol": 0},
			map[string]any{"name": "b", "account": net + ".2", "account_type": 7, "bitrate": 1024, "protocol": 0},
		}}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	env.Advance(t, 2*time.Second)
	return id
}

var confSeqs atomic.Int64

// nextConfNet gives each conference startConf starts (on any node) a
// network of its own: "10.1.1", "10.1.2", ...
func nextConfNet() string {
	n := confSeqs.Add(1) - 1
	return fmt.Sprintf("10.%d.%d", 1+n/250, 1+n%250)
}

// Reference 02 "握手": the handshake needs the cookie of a live login and
// answers user_domain_moid in ext; no cookie, an unknown one or one whose
// login timed out is refused for good (reconnect none).
func TestHandshakeAuthentication(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	for _, tc := range []struct{ name, cookie string }{
		{"no cookie", ""},
		{"unknown cookie", "00000000-0000-0000-0000-000000000000"},
	} {
		r := newBx(t, env, tc.cookie).handshake(nil)
		if r["successful"] != false || !strings.HasPrefix(r["error"].(string), "403::") || r["clientId"] != nil {
			t.Errorf("%s: handshake = %v", tc.name, r)
		}
		if a, _ := r["advice"].(msg); a["reconnect"] != "none" {
			t.Errorf("%s: advice = %v, want reconnect none", tc.name, r["advice"])
		}
	}

	b := newBx(t, env, admin.Cookie)
	r := b.handshake(nil)
	if r["successful"] != true || r["clientId"] == "" || r["version"] != "1.0" {
		t.Fatalf("handshake = %v", r)
	}
	sameJSON(t, "ext", r["ext"], msg{"user_domain_moid": adminDomain(t, env)})
	sameJSON(t, "supportedConnectionTypes", r["supportedConnectionTypes"], []string{"websocket", "long-polling"})
	sameJSON(t, "advice", r["advice"], msg{"reconnect": "retry", "interval": 0, "timeout": 30000, "maxInterval": 30000})

	// The login times out (30 idle minutes): the next handshake is refused.
	env.Clock.Advance(31 * time.Minute)
	if r := newBx(t, env, admin.Cookie).handshake(nil); r["successful"] != false || !strings.Contains(r["error"].(string), "10102") {
		t.Errorf("handshake with an expired login = %v", r)
	}
}

// Subscriptions: own domain's channels with wildcards in the last
// segment; another domain's, meta channels and misplaced wildcards are
// refused; an unknown clientId must handshake again.
func TestSubscribePermissions(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	b := newBx(t, env, env.LoggedIn(t).Cookie)
	b.mustHandshake()
	d := b.domain
	for _, ch := range []string{"/userdomains/" + d + "/confs/**", "/userdomains/" + d + "/confs/*",
		"/userdomains/" + d + "/confs/1110000/speaker", "/userdomains/" + d + "/**"} {
		if r := b.subscribe(ch); r["successful"] != true || r["subscription"] != ch {
			t.Errorf("subscribe %s = %v", ch, r)
		}
	}
	if r := b.subscribe([]string{"/userdomains/" + d + "/confs/1/mts/*", "/userdomains/" + d + "/confs/2/**"}); r["successful"] != true {
		t.Errorf("subscribe a list = %v", r)
	}
	for _, tc := range []struct{ ch, code string }{
		{"/userdomains/someone-else/confs/**", "403:"},
		{"/userdomains/*/confs", "400:"},
		{"/userdomains/**", "403:"},
		{"/**", "403:"},
		{"/confs/**", "403:"},
		{"/meta/connect", "403:"},
		{"/userdomains/" + d + "/*/speaker", "400:"},
		{"/userdomains/" + d + "//confs", "400:"},
		{"userdomains/" + d + "/confs", "400:"},
	} {
		r := b.subscribe(tc.ch)
		if r["successful"] != false || !strings.HasPrefix(r["error"].(string), tc.code+tc.ch+":") {
			t.Errorf("subscribe %s = %v, want error %s", tc.ch, r, tc.code)
		}
	}
	// A list with one foreign channel subscribes nothing.
	if r := b.subscribe([]string{"/userdomains/" + d + "/x", "/userdomains/other/x"}); r["successful"] != false {
		t.Errorf("mixed list = %v", r)
	}
	// Clients do not publish.
	rs := b.post("", msg{"channel": "/userdomains/" + d + "/confs/1", "clientId": b.clientID, "data": msg{"method": "update"}, "id": "p"})
	if rs[0]["successful"] != false || !strings.HasPrefix(rs[0]["error"].(string), "403:") {
		t.Errorf("publish = %v", rs)
	}
	// Unsubscribe, then an unknown clientId.
	if r := find(b.post("", b.subMsg("/meta/unsubscribe", "/userdomains/"+d+"/confs/**")), "/meta/unsubscribe"); r["successful"] != true {
		t.Errorf("unsubscribe = %v", r)
	}
	b.clientID = "nosuchclient"
	r := b.subscribe("/userdomains/" + d + "/confs/**")
	if r["successful"] != false || !strings.HasPrefix(r["error"].(string), "402:") || r["advice"].(msg)["reconnect"] != "handshake" {
		t.Errorf("unknown client = %v", r)
	}
}

// Speaker, chairman, terminals and the conference reach a long-polling
// subscriber of /confs/** with the content of the matching GET; a
// rejected request publishes nothing; ending the conference deletes it.
func TestLongPollDelivery(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		b := newBx(t, env, admin.Cookie)
		b.mustHandshake()
		base := "/userdomains/" + b.domain + "/confs"
		b.mustSubscribe(base+"/**", base)
		b.connect(0) // first connect: answered at once

		id := startConf(t, env, admin, "delivery")
		var seen []msg
		list := b.next(base, &seen)
		if list["data"].(msg)["method"] != "update" {
			t.Errorf("list message = %v", list)
		}
		conf := b.next(base+"/"+id, &seen)
		get := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+id, nil))
		sameJSON(t, "conference content", without(conf["data"].(msg), "method"), without(get, "success"))
		mt := b.next(base+"/"+id+"/cascades/0/mts/1", &seen)
		if mt["data"].(msg)["method"] != "update" {
			t.Errorf("terminal message = %v", mt)
		}
		// Wait until terminal 1 is reported online.
		for mt["data"].(msg)["online"] != float64(1) {
			mt = b.next(base+"/"+id+"/cascades/0/mts/1", &seen)
		}
		getMT := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+id+"/mts/1", nil))
		sameJSON(t, "terminal content", without(mt["data"].(msg), "method"), without(getMT, "success"))

		// Rejected: no such terminal; nothing is published for it.
		testserver.MustFail(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "99"})), 12104)
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "2"})))
		seen = nil
		sp := b.next(base+"/"+id+"/speaker", &seen)
		sameJSON(t, "speaker message", sp, msg{"channel": base + "/" + id + "/speaker", "data": msg{"method": "update", "mt_id": "2"}})
		for _, m := range seen {
			if m["channel"] == base+"/"+id {
				t.Errorf("a speaker change published the conference: %v", m)
			}
		}
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/chairman", testserver.Params(t, msg{"mt_id": "1"})))
		ch := b.next(base+"/"+id+"/chairman", nil)
		sameJSON(t, "chairman message", ch["data"], msg{"method": "update", "mt_id": "1"})

		testserver.MustOK(t, admin.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
		seen = nil
		del := b.next(base+"/"+id, &seen)
		sameJSON(t, "end of the conference", del["data"], msg{"method": "delete"})
		b.next(base, &seen)
		b.next(base+"/"+id+"/cascades/0/mts/2", &seen)
	})
}

// Messages queued while no connect is held come in one reply (batching),
// in order; a batch of requests is answered in one reply too.
func TestBatching(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	// One request: two subscriptions and the first connect.
	rs := b.post("", b.subMsg("/meta/subscribe", base+"/**"), b.subMsg("/meta/subscribe", base), b.connectMsg(0))
	if len(rs) != 3 || rs[0]["successful"] != true || rs[1]["successful"] != true || rs[2]["channel"] != "/meta/connect" {
		t.Fatalf("batch reply = %v", rs)
	}
	id := startConf(t, env, admin, "batch")
	// Updates carry the resource's state when the tailer reads it
	// (docs/push.md): two speaker changes that both commit before the
	// tailer reads the first are one update ("2"). That was the flake
	// (issue 20 item 8: got ["2"] under load); so each change is awaited
	// before the next, with held connects, which return as soon as
	// messages are queued.
	var all []msg
	var speakers []any
	awaitSpeaker := func(want string) {
		t.Helper()
		for range 20 {
			for _, m := range data(b.connect(-1)) {
				all = append(all, m)
				if m["channel"] == base+"/"+id+"/speaker" {
					speakers = append(speakers, m["data"].(msg)["mt_id"])
				}
			}
			if len(speakers) > 0 && speakers[len(speakers)-1] == want {
				return
			}
		}
		t.Fatalf("no speaker update %q; speakers %v", want, speakers)
	}
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
	awaitSpeaker("1")
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "2"})))
	awaitSpeaker("2")
	sameJSON(t, "speakers in order", speakers, []any{"1", "2"})
	if len(all) < 4 {
		t.Errorf("want the list, conference, terminals and speakers batched, got %d messages", len(all))
	}
}

// A held connect returns as soon as a message is published; its reply
// carries the message and the connect's advice.
func TestHeldConnect(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base)
	b.connect(0)
	got := make(chan []msg, 1)
	start := time.Now()
	go func() { got <- b.connect(-1) }() // held up to 30s
	time.Sleep(100 * time.Millisecond)
	startConf(t, env, admin, "held")
	select {
	case rs := <-got:
		if find(rs, base) == nil || find(rs, "/meta/connect")["successful"] != true {
			t.Errorf("held connect reply = %v", rs)
		}
		if time.Since(start) > 10*time.Second {
			t.Errorf("held connect answered after %v", time.Since(start))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("held connect not answered")
	}
}

// A client that stops connecting expires after MaxInterval (measured on
// an injected clock); one whose connect is held does not.
func TestClientExpiry(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Push: push.Options{MaxInterval: time.Second, Now: clock}})
	admin := env.LoggedIn(t)
	silent, busy := newBx(t, env, admin.Cookie), newBx(t, env, admin.Cookie)
	silent.mustHandshake()
	busy.mustHandshake()
	held := make(chan []msg, 1)
	go func() { held <- busy.connect(-1) }()
	waitFor(t, "held connect", func() bool { return env.Srv.Push().Clients() == 2 })
	time.Sleep(50 * time.Millisecond)
	advance(5 * time.Second)
	waitFor(t, "the silent client to expire", func() bool { return env.Srv.Push().Clients() == 1 })
	rs := silent.connect(0)
	if c := find(rs, "/meta/connect"); c["successful"] != false || !strings.HasPrefix(c["error"].(string), "402:") {
		t.Errorf("connect of an expired client = %v", rs)
	}
	// The busy client is alive: a disconnect ends its held connect.
	r := find(busy.post("", msg{"channel": "/meta/disconnect", "clientId": busy.clientID, "id": "d"}), "/meta/disconnect")
	if r["successful"] != true {
		t.Errorf("disconnect = %v", r)
	}
	select {
	case rs := <-held:
		if c := find(rs, "/meta/connect"); c == nil || c["successful"] != false {
			t.Errorf("held connect after disconnect = %v", rs)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("disconnect did not end the held connect")
	}
	if n := env.Srv.Push().Clients(); n != 0 {
		t.Errorf("clients after disconnect = %d", n)
	}
}

func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A connected client whose login ends is told to handshake again, and
// that handshake is refused.
func TestLoginEndsClient(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Push: push.Options{SessionCheck: time.Nanosecond}})
	b := newBx(t, env, env.LoggedIn(t).Cookie)
	b.mustHandshake()
	if c := find(b.connect(0), "/meta/connect"); c["successful"] != true {
		t.Fatalf("connect = %v", c)
	}
	env.Clock.Advance(31 * time.Minute)
	c := find(b.connect(0), "/meta/connect")
	if c["successful"] != false || c["advice"].(msg)["reconnect"] != "handshake" {
		t.Errorf("connect after the login ended = %v", c)
	}
	if r := b.handshake(nil); r["successful"] != false {
		t.Errorf("handshake after the login ended = %v", r)
	}
}

// The websocket transport: the upgrade's cookie authenticates, replies
// come at once and messages as soon as they are published, while the
// connect is held.
func TestWebSocket(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.dialWS()
	b.wsSend(b.handshakeMsg(nil))
	hs := b.wsReply("/meta/handshake", nil)
	if hs["successful"] != true {
		t.Fatalf("handshake = %v", hs)
	}
	b.clientID = hs["clientId"].(string)
	d := hs["ext"].(msg)["user_domain_moid"].(string)
	base := "/userdomains/" + d + "/confs"
	m := b.connectMsg(0)
	m["connectionType"] = "websocket"
	b.wsSend(m)
	if c := b.wsReply("/meta/connect", nil); c["successful"] != true {
		t.Fatalf("connect = %v", c)
	}
	b.wsSend(b.subMsg("/meta/subscribe", base+"/**"), b.subMsg("/meta/subscribe", "/userdomains/other/**"))
	if r := b.wsReply("/meta/subscribe", nil); r["successful"] != true {
		t.Fatalf("subscribe = %v", r)
	}
	if r := b.wsReply("/meta/subscribe", nil); r["successful"] != false {
		t.Fatalf("foreign subscribe = %v", r)
	}
	m = b.connectMsg(-1)
	delete(m, "advice")
	m["connectionType"] = "websocket"
	b.wsSend(m) // held
	id := startConf(t, env, admin, "ws")
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
	sp := b.next(base+"/"+id+"/speaker", nil)
	sameJSON(t, "speaker", sp["data"], msg{"method": "update", "mt_id": "1"})

	// Without a cookie the websocket opens but the handshake is refused.
	nb := newBx(t, env, "")
	nb.dialWS()
	nb.wsSend(nb.handshakeMsg(nil))
	if r := nb.wsReply("/meta/handshake", nil); r["successful"] != false {
		t.Errorf("handshake without cookie = %v", r)
	}
}

// Update contents are shaped for the client's API-Level: a client that
// handshakes with api_level 3 sees the fields of 6.1.0.4.0 (enable_rtc),
// one without sees the API-Level 1 shape, as their GETs would.
func TestContentFollowsAPILevel(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	old, cur := newBx(t, env, admin.Cookie), newBx(t, env, admin.Cookie)
	old.mustHandshake()
	if r := cur.handshake(msg{"api_level": 3}); r["successful"] != true {
		t.Fatal(r)
	}
	base := "/userdomains/" + old.domain + "/confs"
	old.mustSubscribe(base + "/*")
	cur.mustSubscribe(base + "/*")
	id := startConf(t, env, admin, "levels")
	o, c := old.next(base+"/"+id, nil)["data"].(msg), cur.next(base+"/"+id, nil)["data"].(msg)
	if _, has := o["enable_rtc"]; has {
		t.Errorf("API-Level 1 content has enable_rtc")
	}
	if _, has := c["enable_rtc"]; !has {
		t.Errorf("API-Level 3 content lacks enable_rtc")
	}
	admin.Level = "3"
	get := testserver.MustOK(t, admin.Do("GET", "/api/v1/vc/confs/"+id, nil))
	sameJSON(t, "API-Level 3 content", without(c, "method"), without(get, "success"))
}

// Notifications: a failed call (an offline E.164 number) is notified on
// /confs/{conf_id}/mts; push.Notify publishes any other.
func TestNotifications(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base + "/**")
	if err := env.Store.PutDirectoryEntry(context.Background(), store.DirectoryEntry{Account: "5550001",
		DomainMoid: b.domain, E164: "5550001", Behaviour: "offline"}); err != nil {
		t.Fatal(err)
	}
	id := startConf(t, env, admin, "notify")
	add := msg{"mts": []any{msg{"account": "5550001", "account_type": 5, "bitrate": 1024, "protocol": 0}}}
	testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, add)))
	env.Advance(t, time.Second)
	n := b.next(base+"/"+id+"/mts", nil)
	sameJSON(t, "call failure", n["data"], msg{"method": "notify", "error_code": 20401, "mt": msg{"account": "5550001", "account_type": 5}})

	if err := push.Notify(context.Background(), env.Store, env.Clock.Now(), b.domain, id, "/applyspeaker", map[string]any{"mt_id": "2"}); err != nil {
		t.Fatal(err)
	}
	env.Srv.Push().Wake()
	n = b.next(base+"/"+id+"/applyspeaker", nil)
	sameJSON(t, "apply speaker", n["data"], msg{"method": "notify", "mt_id": "2"})
}

// On a shared database a change written through one node reaches the
// subscribers of another (every node tails the same event log).
func TestAcrossNodes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		a := testserver.Start(t, dsn, testserver.Options{})
		bnode := testserver.Start(t, dsn, testserver.Options{})
		b := newBx(t, bnode, bnode.LoggedIn(t).Cookie)
		b.mustHandshake()
		base := "/userdomains/" + b.domain + "/confs"
		b.mustSubscribe(base + "/**")
		admin := a.LoggedIn(t)
		id := startConf(t, a, admin, "nodes")
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
		sp := b.next(base+"/"+id+"/speaker", nil)
		sameJSON(t, "speaker via the other node", sp["data"], msg{"method": "update", "mt_id": "1"})
	})
}

// The conference-wide channels of the media features: each update
// carries what the channel's GET returns; stopping sends a delete.
func TestMediaChannels(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base + "/**")
	id := startConf(t, env, admin, "media")
	vc := "/api/v1/vc/confs/" + id
	check := func(channel, get string) {
		t.Helper()
		m := b.next(base+"/"+id+channel, nil)
		want := without(testserver.MustOK(t, admin.Do("GET", vc+get, nil)), "success")
		sameJSON(t, channel, without(m["data"].(msg), "method"), want)
		if m["data"].(msg)["method"] != "update" {
			t.Errorf("%s: %v", channel, m)
		}
	}
	deleted := func(channel string) {
		t.Helper()
		sameJSON(t, channel, b.next(base+"/"+id+channel, nil)["data"], msg{"method": "delete"})
	}
	put := func(method, path string, p msg) {
		t.Helper()
		testserver.MustOK(t, admin.Do(method, vc+path, testserver.Params(t, p)))
	}

	put("POST", "/mixs", msg{"mode": 1, "members": []any{}})
	check("/mixs/1", "/mixs/1")
	testserver.MustOK(t, admin.Do("DELETE", vc+"/mixs/1", nil))
	deleted("/mixs/1")

	put("POST", "/vmps", msg{"mode": 2, "layout": 1, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
		"mt_name_style": msg{"font_size": 1, "font_color": "#FF0000", "position": 2}, "members": []any{}})
	check("/vmps/1", "/vmps/1")
	testserver.MustOK(t, admin.Do("DELETE", vc+"/vmps/1", nil))
	deleted("/vmps/1")

	put("POST", "/inspections", msg{"mode": 1, "src": msg{"type": 1, "mt_id": "1"}, "dst": msg{"mt_id": "2"}})
	m := b.next(base+"/"+id+"/inspections/2/1", nil)
	list := testserver.MustOK(t, admin.Do("GET", vc+"/inspections", nil))["inspections"].([]any)
	sameJSON(t, "inspection", without(m["data"].(msg), "method"), list[0])

	put("PUT", "/upload", msg{"mt_id": "1"})
	check("/upload", "/upload")
	put("PUT", "/vad", msg{"state": 1, "vacinterval": 5})
	check("/vad", "/vad")
	put("PUT", "/dualstream", msg{"mt_id": "2"})
	check("/dualstream", "/dualstream")
}
