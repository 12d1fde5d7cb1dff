package sdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/sdk"
)

// next waits for the next event of sub on a channel matching resource.
func next(t *testing.T, sub *sdk.Subscription, resource string) sdk.Event {
	t.Helper()
	timeout := time.After(15 * time.Second)
	for {
		select {
		case ev, ok := <-sub.Events():
			if !ok {
				t.Fatalf("events closed while waiting for %s: %v", resource, sub.Err())
			}
			if ev.Resource == resource {
				return ev
			}
		case <-timeout:
			t.Fatalf("no event on %s", resource)
		}
	}
}

// subscribeOrSkip subscribes, skipping the test while the server has no
// push endpoint.
func subscribeOrSkip(t *testing.T, c *sdk.Client, patterns ...string) *sdk.Subscription {
	t.Helper()
	sub, err := c.Subscribe(context.Background(), patterns...)
	if errors.Is(err, sdk.ErrNotSupported) || errors.Is(err, sdk.ErrNotImplemented) {
		t.Skipf("the server has no push endpoint yet (issue 7): %v", err)
	}
	if err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	t.Cleanup(func() { sub.Close() })
	return sub
}

// TestSubscribe subscribes to a real server's CometD endpoint.
func TestSubscribe(t *testing.T) {
	env := start(t, testserver.Options{})
	ctx := context.Background()
	c := admin(t, env, sdk.WithAPILevel(3))
	sub := subscribeOrSkip(t, c, "/confs/**")
	if sub.DomainMoid() == "" || sub.DomainMoid() != c.LoginInfo().Userdomainmoid {
		t.Errorf("DomainMoid = %q, login's %q", sub.DomainMoid(), c.LoginInfo().Userdomainmoid)
	}

	conf := startConf(t, env, c, "10.0.0.1")
	ev := next(t, sub, "/confs/"+conf)
	if ev.Method != "update" || ev.ConfID() != conf || !strings.HasPrefix(ev.Channel, "/userdomains/"+sub.DomainMoid()+"/confs/") {
		t.Errorf("conference event = %+v", ev)
	}
	if err := c.VCConfsSpeakerUpdate(ctx, conf, &sdk.VCConfsSpeakerUpdateRequest{MtID: "1"}); err != nil {
		t.Fatal(err)
	}
	ev = next(t, sub, "/confs/"+conf+"/speaker")
	// After an update, GET /api/v1/vc + the resource returns the new state.
	ep, args, ok := sdk.MatchEndpoint("GET", "/api/v1/vc"+ev.Resource)
	if !ok {
		t.Fatalf("no endpoint for the resource %s", ev.Resource)
	}
	var state map[string]any
	if err := c.Call(ctx, ep, args, nil, &state); err != nil || state["mt_id"] != "1" {
		t.Errorf("GET %s = %v, %v", ev.Resource, state, err)
	}

	// A channel of another user domain is refused.
	err := sub.Add(ctx, "/userdomains/someone-else/confs/**")
	var pe *sdk.PushError
	if !errors.As(err, &pe) || pe.Channel != "/meta/subscribe" {
		t.Errorf("foreign subscription: err = %v, want a *PushError", err)
	}

	if _, err := c.MCConfsDelete(ctx, conf); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, sub, "/confs/"+conf); ev.Method != "delete" {
		t.Errorf("end of the conference: %+v", ev)
	}
	sub.Close()
	drained(t, sub)
	if sub.Err() != nil {
		t.Errorf("Err after Close = %v", sub.Err())
	}
}

// TestSubscribeRenewsSession: a handshake with an expired session is
// refused; the client logs in again and handshakes with the new cookie.
func TestSubscribeRenewsSession(t *testing.T) {
	env := start(t, testserver.Options{})
	rec := &recorder{}
	c := admin(t, env, sdk.WithHTTPClient(&http.Client{Transport: rec}))
	if _, err := c.Login(context.Background()); err != nil {
		t.Fatal(err)
	}
	env.Advance(t, 31*time.Minute)
	sub := subscribeOrSkip(t, c, "/confs/*")
	if n := rec.count("/api/v1/system/login"); n != 2 {
		t.Errorf("%d logins, want 2", n)
	}
	if sub.Handshakes() != 1 {
		t.Errorf("Handshakes = %d", sub.Handshakes())
	}
}

// fakeBayeux is a minimal Bayeux long-polling server, to test the
// client's reconnection deterministically: it can forget its clients (as
// a restarted server does) and fail requests.
type fakeBayeux struct {
	t          *testing.T
	mu         sync.Mutex
	clients    map[string]*fakeClient
	seq        int
	handshakes int
	failNext   int // answer this many next requests with HTTP 503
	subscribed chan string
	disconnect chan string
}

type fakeClient struct {
	subs  []string
	queue []map[string]any
	wake  chan struct{}
}

func newFakeBayeux(t *testing.T) (*fakeBayeux, *httptest.Server) {
	f := &fakeBayeux{t: t, clients: map[string]*fakeClient{}, subscribed: make(chan string, 100), disconnect: make(chan string, 10)}
	hs := httptest.NewServer(f)
	t.Cleanup(hs.Close)
	return f, hs
}

func (f *fakeBayeux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != sdk.PushPath {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	if f.failNext > 0 {
		f.failNext--
		f.mu.Unlock()
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	f.mu.Unlock()
	var msgs []map[string]any
	if err := json.NewDecoder(r.Body).Decode(&msgs); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var out []map[string]any
	for _, m := range msgs {
		out = append(out, f.handle(r, m)...)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (f *fakeBayeux) handle(r *http.Request, m map[string]any) []map[string]any {
	ch, _ := m["channel"].(string)
	id, _ := m["id"].(string)
	cid, _ := m["clientId"].(string)
	reply := map[string]any{"channel": ch, "id": id, "successful": true}
	f.mu.Lock()
	c := f.clients[cid]
	f.mu.Unlock()
	unknown := func() []map[string]any {
		return []map[string]any{{"channel": ch, "id": id, "successful": false, "error": "402::unknown client",
			"advice": map[string]any{"reconnect": "handshake"}}}
	}
	switch ch {
	case "/meta/handshake":
		if ck, err := r.Cookie(sdk.CookieName); err != nil || ck.Value != "cookie-1" {
			return []map[string]any{{"channel": ch, "id": id, "successful": false, "error": "403::no session",
				"advice": map[string]any{"reconnect": "none"}}}
		}
		f.mu.Lock()
		f.seq++
		f.handshakes++
		cid = fmt.Sprintf("client-%d", f.seq)
		f.clients[cid] = &fakeClient{wake: make(chan struct{}, 1)}
		f.mu.Unlock()
		reply["clientId"] = cid
		reply["version"] = "1.0"
		reply["supportedConnectionTypes"] = []string{"long-polling"}
		reply["ext"] = map[string]any{"user_domain_moid": "dom1"}
		reply["advice"] = map[string]any{"reconnect": "retry", "interval": 0, "timeout": 2000}
		return []map[string]any{reply}
	case "/meta/subscribe":
		if c == nil {
			return unknown()
		}
		sub, _ := m["subscription"].(string)
		f.mu.Lock()
		c.subs = append(c.subs, sub)
		f.mu.Unlock()
		f.subscribed <- sub
		reply["subscription"] = sub
		return []map[string]any{reply}
	case "/meta/connect":
		if c == nil {
			return unknown()
		}
		select {
		case <-c.wake:
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
		f.mu.Lock()
		out := append([]map[string]any{reply}, c.queue...)
		c.queue = nil
		f.mu.Unlock()
		return out
	case "/meta/disconnect":
		f.mu.Lock()
		delete(f.clients, cid)
		f.mu.Unlock()
		f.disconnect <- cid
		return []map[string]any{reply}
	}
	return []map[string]any{{"channel": ch, "id": id, "successful": false, "error": "400::unknown channel"}}
}

// publish queues a message for every client subscribed to a pattern
// matching channel.
func (f *fakeBayeux) publish(channel string, data map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.clients {
		for _, s := range c.subs {
			if s == channel || strings.HasSuffix(s, "/**") && strings.HasPrefix(channel, strings.TrimSuffix(s, "**")) {
				c.queue = append(c.queue, map[string]any{"channel": channel, "data": data})
				select {
				case c.wake <- struct{}{}:
				default:
				}
				break
			}
		}
	}
}

// forget drops every client, as a restarted server would.
func (f *fakeBayeux) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, c := range f.clients {
		select {
		case c.wake <- struct{}{}:
		default:
		}
		delete(f.clients, id)
	}
}

func TestSubscribeReconnects(t *testing.T) {
	f, hs := newFakeBayeux(t)
	c, err := sdk.New(hs.URL, sdk.WithSession("token-1", "cookie-1"))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := c.Subscribe(context.Background(), "/confs/**", "userdomains/dom1/alarms")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for _, want := range []string{"/userdomains/dom1/confs/**", "/userdomains/dom1/alarms"} {
		if got := <-f.subscribed; got != want {
			t.Errorf("subscribed %q, want %q", got, want)
		}
	}

	f.publish("/userdomains/dom1/confs/7/speaker", map[string]any{"method": "update"})
	ev := next(t, sub, "/confs/7/speaker")
	if ev.Method != "update" || ev.ConfID() != "7" || ev.Channel != "/userdomains/dom1/confs/7/speaker" {
		t.Errorf("event = %+v", ev)
	}
	f.publish("/userdomains/dom1/confs/7/alarm", map[string]any{"method": "notify", "error_code": 20401})
	if ev := next(t, sub, "/confs/7/alarm"); ev.Method != "notify" || ev.ErrorCode != 20401 {
		t.Errorf("notify event = %+v", ev)
	}

	// The server forgets the client: the client handshakes and subscribes
	// again to both channels.
	f.forget()
	<-f.subscribed
	<-f.subscribed
	f.publish("/userdomains/dom1/confs/8", map[string]any{"method": "update"})
	next(t, sub, "/confs/8")
	if sub.Handshakes() != 2 {
		t.Errorf("Handshakes = %d, want 2", sub.Handshakes())
	}

	// The server fails a few requests: the client retries with backoff,
	// then handshakes again.
	f.mu.Lock()
	f.failNext = 2
	f.mu.Unlock()
	f.forget()
	<-f.subscribed
	<-f.subscribed
	f.publish("/userdomains/dom1/confs/9", map[string]any{"method": "delete"})
	if ev := next(t, sub, "/confs/9"); ev.Method != "delete" {
		t.Errorf("event after failures = %+v", ev)
	}

	sub.Close()
	select {
	case <-f.disconnect:
	case <-time.After(5 * time.Second):
		t.Error("no /meta/disconnect on Close")
	}
	drained(t, sub)
}

// drained checks that Events is closed once its buffered events are read.
func drained(t *testing.T, sub *sdk.Subscription) {
	t.Helper()
	for range sub.Events() {
	}
}

// TestSubscribeRefused: a handshake the server refuses for good.
func TestSubscribeRefused(t *testing.T) {
	_, hs := newFakeBayeux(t)
	c, _ := sdk.New(hs.URL, sdk.WithSession("token-1", "someone else's cookie"))
	_, err := c.Subscribe(context.Background(), "/confs/**")
	var pe *sdk.PushError
	if !errors.As(err, &pe) || pe.Channel != "/meta/handshake" || !strings.Contains(pe.Message, "403") {
		t.Errorf("err = %v, want the handshake's refusal", err)
	}
}
