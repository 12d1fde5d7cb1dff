package push_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/racetest"
)

// The official CometD JavaScript client (npm cometd and
// cometd-nodejs-client, test/push/speaker.js) against a real conferd:
// refused handshakes (no cookie, an expired login's cookie), a foreign
// domain's channel refused, subscriptions with wildcards, speaker,
// terminal and composition changes made through the HTTP API, and a
// re-handshake with new subscriptions after conferd restarts; over the
// websocket and the long-polling transport at once. CI installs the npm
// packages (.ci/run: npm ci --prefix test/push).
func TestNodeCometD(t *testing.T) {
	node, harness, bin := nodeHarness(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "confer.db")
	for _, args := range [][]string{
		{"license", "import", "--db", db, "--create", "--key", "node-key", "--secret", "node-secret"},
		{"account", "create", "--db", db, "--username", "alice", "--password", "alice-pw", "--admin"},
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("conferd %v: %v\n%s", args, err, out)
		}
	}
	addr := freeAddr(t)
	api := &apiClient{t: t, base: "http://" + addr}

	// A login of a 2-second session, whose cookie has expired by the time
	// the client tries it.
	srv := startConferd(t, bin, db, addr, "--session-ttl", "2s")
	expired, _ := api.login()
	expiredAt := time.Now().Add(2 * time.Second)
	srv.stop(t)
	srv = startConferd(t, bin, db, addr)
	defer func() { srv.stop(t) }()
	domain := api.loginAs()
	time.Sleep(time.Until(expiredAt) + 500*time.Millisecond)

	publish := "http://" + addr + "/api/v1/publish"
	clients := map[string]*nodeClient{}
	for _, tr := range []string{"websocket", "long-polling"} {
		clients[tr] = startNode(t, tr, node, filepath.Join(harness, "speaker.js"), publish, api.cookie, domain, "--transport", tr, "--expired", expired)
	}
	base := "/userdomains/" + domain + "/confs"
	each := func(f func(tr string, c *nodeClient)) {
		for _, tr := range []string{"websocket", "long-polling"} {
			f(tr, clients[tr])
		}
	}

	each(func(tr string, c *nodeClient) {
		h := c.expect("refused handshake without cookie", func(e msg) bool { return e["event"] == "handshake" && e["case"] == "nocookie" })
		if h["successful"] != false || !strings.HasPrefix(h["error"].(string), "403::") || h["reconnect"] != "none" {
			t.Errorf("%s: handshake without cookie = %v", tr, h)
		}
		h = c.expect("refused handshake with an expired cookie", func(e msg) bool { return e["event"] == "handshake" && e["case"] == "expired" })
		if h["successful"] != false || !strings.Contains(h["error"].(string), "(10102)") {
			t.Errorf("%s: handshake with an expired cookie = %v", tr, h)
		}
		h = c.expect("handshake", func(e msg) bool { return e["event"] == "handshake" && e["case"] == "login" })
		if h["successful"] != true || h["user_domain_moid"] != domain {
			t.Fatalf("%s: handshake = %v", tr, h)
		}
		f := c.expect("foreign subscription", func(e msg) bool { return e["event"] == "subscribe" && e["case"] == "foreign" })
		if f["successful"] != false || !strings.HasPrefix(f["error"].(string), "403:") {
			t.Errorf("%s: foreign subscription = %v", tr, f)
		}
		r := c.expect("subscriptions", func(e msg) bool { return e["event"] == "ready" })
		if r["transport"] != tr || r["again"] != false {
			t.Errorf("%s: ready = %v", tr, r)
		}
	})

	// A conference with two terminals: the conference, then terminal 1
	// online.
	conf := map[string]any{"create_type": 1, "name": "node", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
		"invite_members": []any{
			map[string]any{"name": "a", "account": "10.2.0.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
			map[string]any{"name": "b", "account": "10.2.0.2", "account_type": 7, "bitrate": 1024, "protocol": 0},
		}}
	id := api.ok("POST", "/api/v1/mc/confs", conf)["conf_id"].(string)
	each(func(tr string, c *nodeClient) {
		c.message(base, "update")
		c.message(base+"/"+id, "update")
		for _, mt := range []string{"1", "2"} {
			c.expect("terminal "+mt+" online", func(e msg) bool {
				d, _ := e["data"].(msg)
				return e["channel"] == base+"/"+id+"/cascades/0/mts/"+mt && d["online"] == float64(1)
			})
		}
	})
	api.ok("PUT", "/api/v1/vc/confs/"+id+"/speaker", map[string]any{"mt_id": "1"})
	each(func(tr string, c *nodeClient) {
		d := c.message(base+"/"+id+"/speaker", "update")
		if d["mt_id"] != "1" {
			t.Errorf("%s: speaker = %v", tr, d)
		}
	})
	vmp := map[string]any{"mode": 2, "layout": 1, "broadcast": 1, "voice_hint": 0, "show_mt_name": 1,
		"mt_name_style": map[string]any{"font_size": 1, "font_color": "#FF0000", "position": 2}, "members": []any{}}
	if r := api.do("POST", "/api/v1/vc/confs/"+id+"/vmps", vmp); r["success"] == float64(1) {
		each(func(tr string, c *nodeClient) {
			d := c.message(base+"/"+id+"/vmps/1", "update")
			if d["mode"] != float64(2) {
				t.Errorf("%s: composition = %v", tr, d)
			}
		})
	} else {
		t.Logf("no picture composition to publish: %v", r)
	}

	// conferd restarts: the clients find their clientId unknown, handshake
	// again and subscribe again.
	srv.stop(t)
	srv = startConferd(t, bin, db, addr)
	each(func(tr string, c *nodeClient) {
		c.expect("re-handshake", func(e msg) bool { return e["event"] == "rehandshake" })
		c.expect("subscriptions again", func(e msg) bool { return e["event"] == "ready" && e["again"] == true })
	})
	api.ok("PUT", "/api/v1/vc/confs/"+id+"/speaker", map[string]any{"mt_id": "2"})
	api.ok("POST", "/api/v1/vc/confs/"+id+"/mts?_method=DELETE", map[string]any{"mts": []any{map[string]any{"mt_id": "1"}}})
	each(func(tr string, c *nodeClient) {
		if d := c.message(base+"/"+id+"/speaker", "update"); d["mt_id"] != "2" {
			t.Errorf("%s: speaker after the restart = %v", tr, d)
		}
		c.message(base+"/"+id+"/cascades/0/mts/1", "delete")
	})
	each(func(tr string, c *nodeClient) { c.quit() })
}

// nodeHarness skips without node or the npm packages, and builds conferd
// from the tree; it returns node, test/push and the binary.
func nodeHarness(t *testing.T) (string, string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the Node CometD test")
	}
	racetest.Skip(t, "the Node CometD client talks to a conferd built without -race in its own process, so the detector watches only this harness; the package's in-process push tests run under -race")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: skipping the CometD JavaScript client test (.ci/run installs it)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	harness := filepath.Join(root, "test", "push")
	if _, err := os.Stat(filepath.Join(harness, "node_modules", "cometd-nodejs-client")); err != nil {
		t.Skip("test/push/node_modules is missing: run `npm ci --prefix test/push` (.ci/run does)")
	}
	built.once.Do(func() { built.build(root) })
	if built.err != nil {
		t.Fatalf("go build conferd: %v\n%s", built.err, built.out)
	}
	return node, harness, built.bin
}

// built is conferd built once for the package's node tests: a build links
// the whole server, and the tests run the same binary. TestMain removes it.
var built conferdBuild

type conferdBuild struct {
	once     sync.Once
	dir, bin string
	out      []byte
	err      error
}

// build builds ./cmd/conferd of the module at root into a new folder.
func (b *conferdBuild) build(root string) {
	if b.dir, b.err = os.MkdirTemp("", "confer-push-node"); b.err != nil {
		return
	}
	b.bin = filepath.Join(b.dir, "conferd")
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "build", "-o", b.bin, "./cmd/conferd")
	cmd.Dir = root
	b.out, b.err = cmd.CombinedOutput()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// freeAddr returns a loopback address with a port free now (conferd
// listens on it across restarts).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

type conferd struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
}

func startConferd(t *testing.T, bin, db, addr string, extra ...string) *conferd {
	t.Helper()
	args := append([]string{"serve", "--addr", addr, "--db", db, "--simulated-terminals"}, extra...) // the terminals the test adds are simulated (docs/sip.md)
	cmd := exec.Command(bin, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &syncWriter{w: &out}, &syncWriter{w: &out}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &conferd{cmd: cmd, out: &out, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(c.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-c.done })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/api/system/version")
		if err == nil {
			resp.Body.Close()
			return c
		}
		select {
		case <-c.done:
			t.Fatalf("conferd exited:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("conferd did not start: %v\n%s", err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends conferd as an operator would (SIGTERM) and waits.
func (c *conferd) stop(t *testing.T) {
	select {
	case <-c.done:
		return
	default:
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
		if !c.cmd.ProcessState.Success() || !strings.Contains(c.out.String(), "conferd stopped") {
			t.Errorf("conferd did not stop cleanly on SIGTERM: %v\n%s", c.cmd.ProcessState, c.out.String())
		}
	case <-time.After(20 * time.Second):
		_ = c.cmd.Process.Kill()
		t.Errorf("conferd did not stop on SIGTERM within 20s")
		<-c.done
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// apiClient logs in and calls the HTTP API.
type apiClient struct {
	t      *testing.T
	base   string
	token  string
	cookie string
}

// login returns a new login's cookie and the user domain.
func (a *apiClient) login() (string, string) {
	a.t.Helper()
	r := a.form("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {"node-key"}, "oauth_consumer_secret": {"node-secret"}}, "")
	tok, _ := r.body["account_token"].(string)
	if tok == "" {
		a.t.Fatalf("token: %v", r.body)
	}
	r = a.form("POST", "/api/v1/system/login", url.Values{"account_token": {tok}, "username": {"alice"}, "password": {"alice-pw"}}, "")
	for _, c := range r.cookies {
		if c.Name == "SSO_COOKIE_KEY" {
			a.token = tok
			return c.Value, fmt.Sprint(r.body["userdomainmoid"])
		}
	}
	a.t.Fatalf("login: %v", r.body)
	return "", ""
}

// loginAs logs in for good and returns the user domain.
func (a *apiClient) loginAs() string {
	a.t.Helper()
	cookie, domain := a.login()
	a.cookie = cookie
	return domain
}

type apiReply struct {
	body    map[string]any
	cookies []*http.Cookie
}

func (a *apiClient) form(method, path string, v url.Values, cookie string) apiReply {
	a.t.Helper()
	target := a.base + path
	var body io.Reader
	if method == "GET" || method == "DELETE" {
		target += "?" + v.Encode()
	} else {
		body = strings.NewReader(v.Encode())
	}
	req, _ := http.NewRequest(method, target, body)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("API-Level", "3")
	if cookie != "" {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		a.t.Fatalf("%s %s: %q", method, path, raw)
	}
	return apiReply{body: out, cookies: resp.Cookies()}
}

func (a *apiClient) do(method, path string, params map[string]any) map[string]any {
	a.t.Helper()
	p, _ := json.Marshal(params)
	return a.form(method, path, url.Values{"params": {string(p)}, "account_token": {a.token}}, a.cookie).body
}

func (a *apiClient) ok(method, path string, params map[string]any) map[string]any {
	a.t.Helper()
	r := a.do(method, path, params)
	if r["success"] != float64(1) {
		a.t.Fatalf("%s %s: %v", method, path, r)
	}
	return r
}

// nodeClient is a running speaker.js.
type nodeClient struct {
	t       *testing.T
	name    string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	events  chan msg
	stderr  *bytes.Buffer
	log     []string
	pending []msg // events received and not matched yet
	done    chan struct{}
}

func startNode(t *testing.T, name, node, script string, args ...string) *nodeClient {
	t.Helper()
	cmd := exec.Command(node, append([]string{script}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &syncWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &nodeClient{t: t, name: name, cmd: cmd, stdin: stdin,
		events: make(chan msg, 1000), stderr: &stderr, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e msg
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				c.events <- e
			}
		}
		close(c.events)
	}()
	go func() { _ = cmd.Wait(); close(c.done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-c.done })
	return c
}

// expect returns the first event, received before or within the next
// 30 seconds, that satisfies ok; events are matched in the order they
// came, each at most once.
func (c *nodeClient) expect(what string, ok func(msg) bool) msg {
	c.t.Helper()
	for i, e := range c.pending {
		if ok(e) {
			c.pending = append(c.pending[:i:i], c.pending[i+1:]...)
			return e
		}
	}
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e, open := <-c.events:
			if !open {
				c.t.Fatalf("node (%s) ended waiting for %s; events:\n%s\nstderr:\n%s", c.name, what, strings.Join(c.log, "\n"), c.stderr)
			}
			b, _ := json.Marshal(e)
			c.log = append(c.log, string(b))
			if ok(e) {
				return e
			}
			c.pending = append(c.pending, e)
		case <-timeout:
			c.t.Fatalf("node (%s): no %s within 30s; events:\n%s\nstderr:\n%s", c.name, what, strings.Join(c.log, "\n"), c.stderr)
		}
	}
}

// message waits for a message on channel with the method and returns
// its data.
func (c *nodeClient) message(channel, method string) msg {
	c.t.Helper()
	e := c.expect(method+" on "+channel, func(e msg) bool {
		d, _ := e["data"].(msg)
		return e["event"] == "message" && e["channel"] == channel && d["method"] == method
	})
	return e["data"].(msg)
}

// quit asks the client to disconnect and waits for it to exit.
func (c *nodeClient) quit() {
	c.t.Helper()
	_, _ = io.WriteString(c.stdin, "quit\n")
	c.expect("disconnect", func(e msg) bool { return e["event"] == "disconnected" })
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		c.t.Errorf("node (%s) did not exit", c.name)
	}
}
