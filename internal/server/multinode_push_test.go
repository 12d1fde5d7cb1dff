package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testserver"
)

// lpClient is a CometD client over plain HTTP long polling
// (docs/push.md), enough to subscribe and wait for a message.
type lpClient struct {
	t        *testing.T
	url      string // the node's /api/v1/publish
	cookie   string
	clientID string
	domain   string
}

func (c *lpClient) post(suffix string, msgs ...map[string]any) []map[string]any {
	c.t.Helper()
	body, _ := json.Marshal(msgs)
	req, err := http.NewRequest("POST", c.url+suffix, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json;charset=UTF-8")
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("POST %s: %v", suffix, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out []map[string]any
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &out) != nil {
		c.t.Fatalf("POST %s: HTTP %d %s", suffix, resp.StatusCode, raw)
	}
	return out
}

// subscribe handshakes and subscribes to the conference channels of the
// client's user domain.
func (c *lpClient) subscribe() {
	c.t.Helper()
	hs := c.post("/handshake", map[string]any{"channel": "/meta/handshake", "version": "1.0",
		"supportedConnectionTypes": []string{"long-polling"}})
	if len(hs) == 0 || hs[0]["successful"] != true {
		c.t.Fatalf("handshake: %v", hs)
	}
	c.clientID = hs[0]["clientId"].(string)
	c.domain = hs[0]["ext"].(map[string]any)["user_domain_moid"].(string)
	sub := c.post("/subscribe", map[string]any{"channel": "/meta/subscribe", "clientId": c.clientID,
		"subscription": "/userdomains/" + c.domain + "/confs/**"})
	if len(sub) == 0 || sub[0]["successful"] != true {
		c.t.Fatalf("subscribe: %v", sub)
	}
	c.connect(0) // the first connect is answered at once
}

func (c *lpClient) connect(timeoutMs int) []map[string]any {
	return c.post("/connect", map[string]any{"channel": "/meta/connect", "clientId": c.clientID,
		"connectionType": "long-polling", "advice": map[string]any{"timeout": timeoutMs}})
}

// await polls until a message on channel whose data satisfies ok arrives,
// failing after ten seconds.
func (c *lpClient) await(channel string, ok func(data map[string]any) bool) {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range c.connect(1000) {
			if d, _ := m["data"].(map[string]any); m["channel"] == channel && ok(d) {
				return
			}
		}
	}
	c.t.Fatalf("no message on %s within 10 s", channel)
}

// A push subscriber connected to node A hears of changes made through
// node B: every node tails the shared event log.
func TestNodesPushAcrossNodes(t *testing.T) {
	a, b := twoNodes(t)
	ca := a.LoggedIn(t)
	sub := &lpClient{t: t, url: a.URL + "/api/v1/publish", cookie: ca.Cookie}
	sub.subscribe()
	cb := on(t, b, ca)
	id := testserver.MustOK(t, cb.Do("POST", "/api/v1/mc/confs", testserver.Params(t, confParams("push", "10.6.0.1", "10.6.0.2"))))["conf_id"].(string)
	base := "/userdomains/" + sub.domain + "/confs/" + id
	sub.await(base, func(d map[string]any) bool { return d["method"] == "update" })
	advance(t, b.Clock, 3*time.Second, b) // only B runs the calls
	sub.await(base+"/cascades/0/mts/1", func(d map[string]any) bool { return d["online"] == float64(1) })
	testserver.MustOK(t, cb.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, map[string]any{"mt_id": "1"})))
	sub.await(base+"/speaker", func(d map[string]any) bool { return d["mt_id"] == "1" })

	// A long-polling client's connect that a balancer sends to another
	// node is told to handshake again there (docs/deployment.md "Sticky
	// sessions"): the CometD client's state is the node's.
	moved := &lpClient{t: t, url: b.URL + "/api/v1/publish", cookie: ca.Cookie, clientID: sub.clientID}
	r := moved.connect(0)
	advice, _ := r[0]["advice"].(map[string]any)
	if len(r) != 1 || r[0]["successful"] != false || !strings.HasPrefix(fmt.Sprint(r[0]["error"]), "402") || advice["reconnect"] != "handshake" {
		t.Errorf("connect of A's client on B = %v, want 402 and advice reconnect handshake", r)
	}
	moved.subscribe()
	testserver.MustOK(t, ca.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, map[string]any{"mt_id": "2"})))
	moved.await(base+"/speaker", func(d map[string]any) bool { return d["mt_id"] == "2" })
}
