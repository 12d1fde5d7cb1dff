package push_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/confer-platform/confer/internal/testserver"
)

// bx is a minimal Bayeux client for the tests: long polling over HTTP, or
// a websocket.
type bx struct {
	t        testing.TB
	url      string // http://host/api/v1/publish
	cookie   string
	header   http.Header
	clientID string
	domain   string
	http     *http.Client
	nextID   int
	buf      []msg // published messages received but not yet looked at

	mu      sync.Mutex
	ws      *websocket.Conn
	wsIn    chan map[string]any // everything the websocket delivers
	wsClose context.CancelFunc
}

type msg = map[string]any

var lpClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2000, MaxConnsPerHost: 0}}

func newBx(t testing.TB, env *testserver.Env, cookie string) *bx {
	return &bx{t: t, url: env.URL + "/api/v1/publish", cookie: cookie, http: lpClient, header: http.Header{}}
}

func (b *bx) id() string {
	b.nextID++
	return fmt.Sprint(b.nextID)
}

// post sends a batch over long polling and returns the reply batch.
func (b *bx) post(suffix string, msgs ...msg) []msg {
	b.t.Helper()
	body, _ := json.Marshal(msgs)
	req, err := http.NewRequest("POST", b.url+suffix, bytes.NewReader(body))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	for k, v := range b.header {
		req.Header[k] = v
	}
	if b.cookie != "" {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: b.cookie})
	}
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatalf("POST %s: %v", suffix, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		b.t.Fatalf("POST %s: HTTP %d %s", suffix, resp.StatusCode, raw)
	}
	var out []msg
	if err := json.Unmarshal(raw, &out); err != nil {
		b.t.Fatalf("POST %s: reply %q: %v", suffix, raw, err)
	}
	return out
}

func find(ms []msg, channel string) msg {
	for _, m := range ms {
		if m["channel"] == channel {
			return m
		}
	}
	return nil
}

func (b *bx) handshakeMsg(ext msg) msg {
	m := msg{"channel": "/meta/handshake", "version": "1.0", "minimumVersion": "1.0", "id": b.id(),
		"supportedConnectionTypes": []string{"websocket", "long-polling"}}
	if ext != nil {
		m["ext"] = ext
	}
	return m
}

// handshake handshakes over long polling and returns the reply.
func (b *bx) handshake(ext msg) msg {
	b.t.Helper()
	r := find(b.post("/handshake", b.handshakeMsg(ext)), "/meta/handshake")
	if r == nil {
		b.t.Fatal("no handshake reply")
	}
	if r["successful"] == true {
		b.clientID = r["clientId"].(string)
		b.domain, _ = r["ext"].(msg)["user_domain_moid"].(string)
	}
	return r
}

func (b *bx) mustHandshake() {
	b.t.Helper()
	if r := b.handshake(nil); r["successful"] != true {
		b.t.Fatalf("handshake: %v", r)
	}
}

func (b *bx) subMsg(channel string, subs any) msg {
	return msg{"channel": channel, "clientId": b.clientID, "subscription": subs, "id": b.id()}
}

// subscribe subscribes over long polling and returns the reply.
func (b *bx) subscribe(subs any) msg {
	b.t.Helper()
	return find(b.post("/subscribe", b.subMsg("/meta/subscribe", subs)), "/meta/subscribe")
}

func (b *bx) mustSubscribe(subs ...string) {
	b.t.Helper()
	for _, s := range subs {
		if r := b.subscribe(s); r["successful"] != true {
			b.t.Fatalf("subscribe %s: %v", s, r)
		}
	}
}

func (b *bx) connectMsg(timeoutMs int) msg {
	return msg{"channel": "/meta/connect", "clientId": b.clientID, "connectionType": "long-polling", "id": b.id(),
		"advice": msg{"timeout": timeoutMs}}
}

// connect polls once; timeoutMs < 0 leaves the server's timeout.
func (b *bx) connect(timeoutMs int) []msg {
	b.t.Helper()
	m := b.connectMsg(timeoutMs)
	if timeoutMs < 0 {
		delete(m, "advice")
	}
	return b.post("/connect", m)
}

// data returns the published messages of a batch.
func data(ms []msg) []msg {
	var out []msg
	for _, m := range ms {
		if ch, _ := m["channel"].(string); !strings.HasPrefix(ch, "/meta/") {
			out = append(out, m)
		}
	}
	return out
}

// next polls (long polling or websocket) until a published message on
// channel arrives, keeping the others in order in *seen; it fails after
// the deadline. Messages after the one returned stay buffered for the
// next call.
func (b *bx) next(channel string, seen *[]msg) msg {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for len(b.buf) > 0 {
			m := b.buf[0]
			b.buf = b.buf[1:]
			if seen != nil {
				*seen = append(*seen, m)
			}
			if m["channel"] == channel {
				return m
			}
		}
		if time.Now().After(deadline) {
			break
		}
		if b.ws != nil {
			select {
			case m := <-b.wsIn:
				b.buf = append(b.buf, m)
			case <-time.After(time.Until(deadline)):
			}
			continue
		}
		got := b.connect(1000)
		if c := find(got, "/meta/connect"); c == nil || c["successful"] != true {
			b.t.Fatalf("connect: %v", got)
		}
		b.buf = append(b.buf, data(got)...)
	}
	b.t.Fatalf("no message on %s within 10s (seen %v)", channel, seen)
	return nil
}

// dialWS opens a websocket carrying the cookie; every frame's messages go
// to wsIn, except replies to meta messages which wsReply returns.
func (b *bx) dialWS() {
	b.t.Helper()
	h := http.Header{}
	if b.cookie != "" {
		h.Set("Cookie", "SSO_COOKIE_KEY="+b.cookie)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c, _, err := websocket.Dial(ctx, strings.Replace(b.url, "http", "ws", 1), &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		cancel()
		b.t.Fatalf("websocket: %v", err)
	}
	b.ws, b.wsIn, b.wsClose = c, make(chan map[string]any, 10000), cancel
	b.t.Cleanup(func() { cancel(); c.CloseNow() })
	go func() {
		for {
			_, raw, err := c.Read(ctx)
			if err != nil {
				close(b.wsIn)
				return
			}
			var ms []msg
			if json.Unmarshal(raw, &ms) != nil {
				continue
			}
			for _, m := range ms {
				b.wsIn <- m
			}
		}
	}()
}

// wsSend writes a batch on the websocket.
func (b *bx) wsSend(msgs ...msg) {
	b.t.Helper()
	raw, _ := json.Marshal(msgs)
	if err := b.ws.Write(context.Background(), websocket.MessageText, raw); err != nil {
		b.t.Fatalf("websocket write: %v", err)
	}
}

// wsReply reads from the websocket until the message on channel (a meta
// reply) arrives; published messages met on the way are kept in *seen.
func (b *bx) wsReply(channel string, seen *[]msg) msg {
	b.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case m, ok := <-b.wsIn:
			if !ok {
				b.t.Fatalf("websocket closed waiting for %s", channel)
			}
			if m["channel"] == channel {
				return m
			}
			if seen != nil {
				*seen = append(*seen, m)
			}
		case <-timeout:
			b.t.Fatalf("no %s on the websocket within 10s", channel)
		}
	}
}

// without returns m without the listed keys.
func without(m msg, keys ...string) msg {
	out := msg{}
	for k, v := range m {
		out[k] = v
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func sameJSON(t testing.TB, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}
