package push_test

import (
	"encoding/json"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// The official client's acknowledgement extension (test/push/ack.js with
// cometd/AckExtension.js) against a real conferd, over websocket and
// long polling: a proxy cuts the connection carrying the reply with a
// speaker change; the client connects again with its clientId (no new
// handshake) and receives the change then.
func TestNodeCometDAck(t *testing.T) {
	node, harness, bin := nodeHarness(t)
	db := filepath.Join(t.TempDir(), "confer.db")
	addr := freeAddr(t)
	srv := startConferdWithAccount(t, bin, db, addr)
	defer func() { srv.stop(t) }()
	api := &apiClient{t: t, base: "http://" + addr}
	domain := api.loginAs()

	clients := map[string]*nodeClient{}
	proxies := map[string]*cutProxy{}
	transports := []string{"websocket", "long-polling"}
	for _, tr := range transports {
		proxies[tr] = startCutProxy(t, addr)
		clients[tr] = startNode(t, tr, node, filepath.Join(harness, "ack.js"), "http://"+proxies[tr].addr()+"/api/v1/publish",
			api.cookie, domain, "--transport", tr)
	}
	for _, tr := range transports {
		c := clients[tr]
		if h := c.expect("handshake", func(e msg) bool { return e["event"] == "handshake" }); h["successful"] != true || h["ack"] != true {
			t.Fatalf("%s: handshake = %v", tr, h)
		}
		if r := c.expect("subscription", func(e msg) bool { return e["event"] == "ready" }); r["transport"] != tr {
			t.Fatalf("%s: ready = %v", tr, r)
		}
	}
	conf := map[string]any{"create_type": 1, "name": "ack", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats":  []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
		"invite_members": []any{map[string]any{"name": "a", "account": "10.4.0.1", "account_type": 7, "bitrate": 1024, "protocol": 0}}}
	id := api.ok("POST", "/api/v1/mc/confs", conf)["conf_id"].(string)
	base := "/userdomains/" + domain + "/confs/" + id
	for _, tr := range transports {
		clients[tr].expect("terminal 1 online", func(e msg) bool {
			d, _ := e["data"].(msg)
			return e["channel"] == base+"/cascades/0/mts/1" && d["online"] == float64(1)
		})
	}
	time.Sleep(500 * time.Millisecond) // each client's next connect is held

	for _, tr := range transports {
		proxies[tr].arm()
	}
	api.ok("PUT", "/api/v1/vc/confs/"+id+"/speaker", map[string]any{"mt_id": "1"})
	for _, tr := range transports {
		c := clients[tr]
		c.expect("the failed connect", func(e msg) bool { return e["event"] == "connect" && e["successful"] == false })
		if d := c.message(base+"/speaker", "update"); d["mt_id"] != "1" {
			t.Errorf("%s: speaker = %v", tr, d)
		}
		if n := proxies[tr].cuts.Load(); n != 1 {
			t.Errorf("%s: %d connections cut, want 1", tr, n)
		}
		handshakes := 0
		for _, e := range append(c.logged(), c.pending...) {
			if e["event"] == "handshake" {
				handshakes++
			}
		}
		if handshakes != 1 {
			t.Errorf("%s: %d handshakes, want 1 (the same clientId reconnects)", tr, handshakes)
		}
		c.quitQuietly()
	}
}

// startConferdWithAccount sets up a database with the node test's license
// and account and starts conferd on it.
func startConferdWithAccount(t *testing.T, bin, db, addr string) *conferd {
	t.Helper()
	for _, args := range [][]string{
		{"license", "import", "--db", db, "--create", "--key", "node-key", "--secret", "node-secret"},
		{"account", "create", "--db", db, "--username", "alice", "--password", "alice-pw", "--admin"},
	} {
		if out, err := execCombined(bin, args...); err != nil {
			t.Fatalf("conferd %v: %v\n%s", args, err, out)
		}
	}
	return startConferd(t, bin, db, addr)
}

// cutProxy forwards TCP connections to a target; once armed, it closes
// the connection on which the target next sends anything, instead of
// forwarding it (a reply lost on the way).
type cutProxy struct {
	ln     net.Listener
	target string
	armed  atomic.Bool
	cuts   atomic.Int32
}

func startCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *cutProxy) addr() string { return p.ln.Addr().String() }

func (p *cutProxy) arm() { p.armed.Store(true) }

func (p *cutProxy) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer server.Close()
	go func() { _, _ = io.Copy(server, client); server.Close() }()
	buf := make([]byte, 64<<10)
	for {
		n, err := server.Read(buf)
		if n > 0 && p.armed.CompareAndSwap(true, false) {
			p.cuts.Add(1)
			return // both ends close: the reply is lost
		}
		if n > 0 {
			if _, werr := client.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func execCombined(bin string, args ...string) ([]byte, error) {
	return exec.Command(bin, args...).CombinedOutput()
}

// logged decodes the events the client has been matched against.
func (c *nodeClient) logged() []msg {
	var out []msg
	for _, l := range c.log {
		var e msg
		if json.Unmarshal([]byte(l), &e) == nil {
			out = append(out, e)
		}
	}
	return out
}

// quitQuietly asks the client to disconnect and waits for it to exit.
func (c *nodeClient) quitQuietly() {
	c.t.Helper()
	_, _ = io.WriteString(c.stdin, "quit\n")
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		c.t.Errorf("node (%s) did not exit", c.name)
	}
}
