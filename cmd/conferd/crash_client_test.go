package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The crash test's process and client (crash_test.go).

// crashProc starts and kills conferd on one store.
type crashProc struct {
	t   *testing.T
	db  string
	dir string
	tr  *http.Transport
	hc  *http.Client
	cmd *exec.Cmd
}

func newCrashProc(t *testing.T, db string) *crashProc {
	tr := &http.Transport{MaxIdleConnsPerHost: 100}
	p := &crashProc{t: t, db: db, dir: t.TempDir(), tr: tr, hc: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
	t.Cleanup(func() { // a failed test leaves no process behind
		if p.cmd != nil && p.cmd.ProcessState == nil {
			p.kill()
		}
	})
	return p
}

// start runs conferd with room for every conference and terminal the
// writers create, and logs in.
func (p *crashProc) start() *crashClient {
	addr := freeAddr(p.t)
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), "CONFERD_TEST_MAIN=1", "CONFERD_TEST_ARGS=serve --addr "+addr+" --db "+p.db+
		" --files-dir "+filepath.Join(p.dir, "files")+" --max-confs 5000 --max-ports 1000000")
	p.cmd.Stdout, p.cmd.Stderr = io.Discard, io.Discard
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	waitUp(p.t, addr)
	c := &crashClient{hc: p.hc, addr: addr}
	c.login(p.t)
	return c
}

func (p *crashProc) kill() {
	_ = p.cmd.Process.Kill() // SIGKILL
	_ = p.cmd.Wait()
	p.tr.CloseIdleConnections()
}

// crashClient is the administrator's session on one process.
type crashClient struct {
	hc                  *http.Client
	addr, token, cookie string
}

// call sends form (with the token) in the query of a GET or DELETE, in
// the body otherwise.
func (c *crashClient) call(method, path string, form url.Values) (map[string]any, error) {
	if form == nil {
		form = url.Values{}
	}
	if c.token != "" {
		form.Set("account_token", c.token)
	}
	var body io.Reader
	target := "http://" + c.addr + path
	if method == "GET" || method == "DELETE" {
		target += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("API-Level", "3")
	if c.cookie != "" {
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: c.cookie})
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if c.cookie == "" {
		for _, ck := range resp.Cookies() {
			if ck.Name == "SSO_COOKIE_KEY" {
				c.cookie = ck.Value
			}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("HTTP %d: %q", resp.StatusCode, raw)
	}
	return m, nil
}

func (c *crashClient) login(t *testing.T) {
	r, err := c.call("POST", "/api/v1/system/token", url.Values{"oauth_consumer_key": {"crash-key"}, "oauth_consumer_secret": {"crash-secret"}})
	if !crashOK(r, err) {
		t.Fatalf("token: %v %v", r, err)
	}
	c.token = r["account_token"].(string)
	if r, err := c.call("POST", "/api/v1/system/login", url.Values{"username": {"crash"}, "password": {"crash-pw"}}); !crashOK(r, err) || c.cookie == "" {
		t.Fatalf("login: %v %v (cookie %q)", r, err, c.cookie)
	}
}

func crashOK(r map[string]any, err error) bool { return err == nil && r["success"] == float64(1) }

func crashParams(p any) url.Values {
	b, _ := json.Marshal(p)
	return url.Values{"params": {string(b)}}
}
