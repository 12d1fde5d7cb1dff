package server_test

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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 20: what one client can take from the server, tried with real
// connections on the listener and http.Server conferd runs.

// procStatus reads a field of /proc/self/status in bytes.
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skipf("no %s in /proc/self/status", field)
	return 0
}

// multipartFlood is a multipart/form-data body of a text field and a file
// part of size bytes, generated as it is read (the client holds none of it).
type multipartFlood struct {
	head, tail []byte
	left       int64
}

const floodBoundary = "flood-boundary-1234567890"

func newFlood(fields url.Values, size int64) *multipartFlood {
	var h bytes.Buffer
	for k, vs := range fields {
		for _, v := range vs {
			fmt.Fprintf(&h, "--%s\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n", floodBoundary, k, v)
		}
	}
	fmt.Fprintf(&h, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.pdf\"\r\nContent-Type: application/pdf\r\n\r\n", floodBoundary)
	return &multipartFlood{head: h.Bytes(), tail: []byte("\r\n--" + floodBoundary + "--\r\n"), left: size}
}

func (f *multipartFlood) Len() int64 { return int64(len(f.head)) + f.left + int64(len(f.tail)) }

func (f *multipartFlood) Read(p []byte) (int, error) {
	switch {
	case len(f.head) > 0:
		n := copy(p, f.head)
		f.head = f.head[n:]
		return n, nil
	case f.left > 0:
		n := int(min(int64(len(p)), f.left))
		for i := range p[:n] {
			p[i] = 'x'
		}
		f.left -= int64(n)
		return n, nil
	case len(f.tail) > 0:
		n := copy(p, f.tail)
		f.tail = f.tail[n:]
		return n, nil
	}
	return 0, io.EOF
}

// Item 1: 40 concurrent 20 MB multipart bodies before authentication (to
// the token endpoint, and to the upload endpoint without a token) were
// read into memory whole: the process's peak resident memory grew by the
// sum of the bodies. Now a multipart body is read up to its first file
// part before authentication, and the peak grows by far less than one
// body per request.
func TestPreAuthBodiesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 800 MB")
	}
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	targets := []string{"/api/v1/system/token", "/api/v1/mc/meeting_files/0123456789abcdef"}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak resident memory: %v", err)
	}
	before := procStatus(t, "VmHWM")
	const n, size = 40, 20 << 20
	var wg sync.WaitGroup
	replies := make(chan string, n)
	for i := range n {
		wg.Go(func() {
			f := newFlood(url.Values{"oauth_consumer_key": {"k"}}, size)
			req, _ := http.NewRequest("POST", env.URL+targets[i%2], f)
			req.ContentLength = f.Len()
			req.Header.Set("Content-Type", "multipart/form-data; boundary="+floodBoundary)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return // the server may close before the client has sent it all
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			replies <- string(b)
		})
	}
	wg.Wait()
	close(replies)
	grew := procStatus(t, "VmHWM") - before
	t.Logf("peak resident memory grew by %d MiB for %d bodies of %d MiB", grew>>20, n, size>>20)
	if grew > 200<<20 {
		t.Errorf("peak resident memory grew by %d MiB, want under 200 MiB", grew>>20)
	}
	for r := range replies {
		var env struct {
			Success   int `json:"success"`
			ErrorCode int `json:"error_code"`
		}
		if json.Unmarshal([]byte(r), &env) != nil || env.Success != 0 || env.ErrorCode == 0 {
			t.Errorf("reply %.200q is not a failure envelope", r)
		}
	}
}

// Item 1: a server-wide budget of body bytes in memory; beyond it 90503.
func TestBodyMemoryBudget(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Limits: server.Limits{BodyMemory: 1000}})
	c := env.Client(t)
	r := c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {strings.Repeat("k", 2000)}})
	wantCode(t, r, server.CodeBusy)
	// The CometD path too (its bodies are read by the push service).
	req, _ := http.NewRequest("POST", env.URL+"/api/v1/publish", strings.NewReader("["+strings.Repeat(" ", 2000)+"]"))
	req.Header.Set("Content-Type", "application/json")
	wantCode(t, c.Send(req), server.CodeBusy)
	// A body within the budget is served; the budget is given back.
	for range 3 {
		wantCode(t, c.Do("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {"k"}, "oauth_consumer_secret": {"s"}}), 10001)
	}
}

// dialFrom opens a TCP connection to env from the local address ip
// (Linux routes all of 127.0.0.0/8 to the loopback).
func dialFrom(t *testing.T, env *testserver.Env, ip string) net.Conn {
	t.Helper()
	u, _ := url.Parse(env.URL)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Skipf("dial from %s: %v", ip, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed reads from c until the server closes it, and returns what
// it read; it fails when the server keeps the connection open longer than
// limit (far above the deadline under test).
func waitClosed(t *testing.T, c net.Conn, limit time.Duration) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(limit))
	b, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server kept the connection open for %v (read %q)", limit, b)
	}
	return string(b)
}

// Item 2: a body trickled slowly and an idle keep-alive connection are
// closed by their deadlines.
func TestSlowAndIdleConnectionsClosed(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Limits: server.Limits{
		ReadTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, HeaderTimeout: 300 * time.Millisecond}})
	// A slow body: headers announce 100 bytes, one arrives.
	slow := dialFrom(t, env, "127.0.0.1")
	fmt.Fprintf(slow, "POST /api/v1/system/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na")
	waitClosed(t, slow, 20*time.Second)
	// Slow headers.
	hdr := dialFrom(t, env, "127.0.0.1")
	fmt.Fprintf(hdr, "GET /healthz HTTP/1.1\r\n")
	waitClosed(t, hdr, 20*time.Second)
	// An idle keep-alive connection after one request.
	idle := dialFrom(t, env, "127.0.0.1")
	fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	waitClosed(t, idle, 20*time.Second)
}

// Item 2: connections are capped per client address and in total; a
// connection beyond a cap is answered 90503 in the envelope and closed,
// and other addresses are still served.
func TestConnectionCaps(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Limits: server.Limits{MaxConnsPerIP: 5, MaxConns: 8}})
	var held []net.Conn
	for range 5 {
		c := dialFrom(t, env, "127.0.0.3")
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != 200 {
			t.Fatalf("connection within the cap: %v %v", resp, err)
		}
		held = append(held, c)
	}
	over := dialFrom(t, env, "127.0.0.3")
	if got := waitClosed(t, over, 20*time.Second); !strings.Contains(got, `"error_code":90503`) {
		t.Fatalf("sixth connection from one address: %q, want the 90503 envelope", got)
	}
	// Another address is served (5 + 1 of 8).
	other := dialFrom(t, env, "127.0.0.4")
	fmt.Fprintf(other, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	if got := waitClosed(t, other, 20*time.Second); !strings.Contains(got, `"status":"ok"`) {
		t.Fatalf("another address: %q", got)
	}
	// The total: 5 held + 3 more from a third address, the ninth refused.
	for range 3 {
		c := dialFrom(t, env, "127.0.0.5")
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != 200 {
			t.Fatalf("connection within the total: %v %v", resp, err)
		}
		held = append(held, c)
	}
	if got := waitClosed(t, dialFrom(t, env, "127.0.0.6"), 20*time.Second); !strings.Contains(got, `"error_code":90503`) {
		t.Fatalf("ninth connection: %q, want the 90503 envelope", got)
	}
	// Closing frees the slots: the server notices each close on its next
	// read of that connection, so a new connection is served at once or
	// after a few refusals.
	for _, c := range held[:5] {
		c.Close()
	}
	for try := 0; ; try++ {
		c := dialFrom(t, env, "127.0.0.7")
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		got := waitClosed(t, c, 20*time.Second)
		if strings.Contains(got, `"error_code":90503`) && try < 1000 {
			continue
		}
		if !strings.Contains(got, `"status":"ok"`) && !strings.Contains(got, "HTTP/1.1 200") {
			t.Fatalf("after closing: %q", got)
		}
		break
	}
}

// Item 7: the replies net/http writes before any handler (a malformed
// Content-Length, headers above the limit) are the JSON envelope.
func TestNetHTTPErrorsAreEnvelopes(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for _, tc := range []struct {
		name, req string
		code      int
	}{
		{"malformed Content-Length", "POST /api/v1/system/token HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n", 24506},
		{"query over 1 MiB", "GET /api/vc/version?q=" + strings.Repeat("a", 1<<20+8<<10) + " HTTP/1.1\r\nHost: x\r\n\r\n", 90413},
		{"malformed header", "GET / HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n", 24506},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dialFrom(t, env, "127.0.0.1")
			go io.WriteString(c, tc.req)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct {
				Success   *int   `json:"success"`
				ErrorCode int    `json:"error_code"`
				Desc      string `json:"description"`
			}
			b, _ := io.ReadAll(resp.Body)
			if err := json.Unmarshal(b, &body); err != nil || body.Success == nil || *body.Success != 0 || body.ErrorCode != tc.code {
				t.Fatalf("HTTP %d %q, want the envelope with %d", resp.StatusCode, b, tc.code)
			}
			if !strings.HasSuffix(body.Desc, fmt.Sprintf("(%d)", tc.code)) {
				t.Errorf("description %q", body.Desc)
			}
		})
	}
}
