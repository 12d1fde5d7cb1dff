package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	_ "modernc.org/sqlite"
)

// Crash consistency (issue 11): conferd runs as a child process on SQLite;
// 100 concurrent writers, half creating personal templates and half
// renaming a template of their own over and over (creations and swaps both
// go through the store's group commit); the process is killed with SIGKILL
// at a random moment, 10 times; after every restart each template whose
// creation was acknowledged with success: 1 is there with its last
// acknowledged name (or the rename in flight at the kill, which may have
// committed unacknowledged), and at the end SQLite's integrity check
// passes. Bounded to about a minute
// per engine; on PostgreSQL too when CONFER_TEST_POSTGRES is set.
func TestCrashConsistency(t *testing.T) {
	if testing.Short() {
		t.Skip("crash test: skipped in -short mode")
	}
	testdb.Engines(t, func(t *testing.T, dsn string) { crashRun(t, dsn) })
}

func crashRun(t *testing.T, db string) {
	const (
		cycles   = 10
		inFlight = 100
	)
	budget := time.Now().Add(90 * time.Second)
	dir := t.TempDir()
	sqlite := !strings.HasPrefix(db, "postgres")
	if code, _, errs := runCmd(t, "license", "import", "--db", db, "--key", "crash-key", "--secret", "crash-secret"); code != 0 {
		t.Fatalf("license import: %s", errs)
	}
	if code, _, errs := runCmd(t, "account", "create", "--db", db, "--username", "crash", "--password", "crash-pw", "--admin"); code != 0 {
		t.Fatalf("account create: %s", errs)
	}

	tr := &http.Transport{MaxIdleConnsPerHost: inFlight, MaxConnsPerHost: 0}
	hc := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	defer tr.CloseIdleConnections()

	start := func() (*exec.Cmd, string) {
		addr := freeAddr(t)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CONFERD_TEST_MAIN=1", "CONFERD_TEST_ARGS=serve --addr "+addr+" --db "+db+" --files-dir "+filepath.Join(dir, "files"))
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitUp(t, addr)
		return cmd, addr
	}
	kill := func(cmd *exec.Cmd) {
		_ = cmd.Process.Kill() // SIGKILL
		_ = cmd.Wait()
		tr.CloseIdleConnections()
	}
	call := func(method, addr, path string, form url.Values, cookie string) (map[string]any, error) {
		var body io.Reader
		target := "http://" + addr + path
		if method == "GET" {
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
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("HTTP %d: %q", resp.StatusCode, raw)
		}
		return m, nil
	}
	login := func(addr string) (token, cookie string) {
		r, err := call("POST", addr, "/api/v1/system/token", url.Values{"oauth_consumer_key": {"crash-key"}, "oauth_consumer_secret": {"crash-secret"}}, "")
		if err != nil || r["success"] != float64(1) {
			t.Fatalf("token: %v %v", r, err)
		}
		token = r["account_token"].(string)
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/v1/system/login",
			strings.NewReader(url.Values{"account_token": {token}, "username": {"crash"}, "password": {"crash-pw"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		for _, c := range resp.Cookies() {
			if c.Name == "SSO_COOKIE_KEY" {
				cookie = c.Value
			}
		}
		if cookie == "" {
			t.Fatal("login: no SSO_COOKIE_KEY cookie")
		}
		return token, cookie
	}
	// check verifies that every acknowledged template is stored with its
	// last acknowledged name, or with the name of the rename that was in
	// flight when the process was killed (inFlight), which may or may not
	// have committed; check then takes the stored name as acknowledged.
	check := func(addr, token, cookie string, acked, inFlight map[string]string) {
		t.Helper()
		for id, name := range acked {
			r, err := call("GET", addr, "/api/v1/mc/personal_templates/"+id, url.Values{"account_token": {token}}, cookie)
			if err != nil {
				t.Fatalf("GET template %s: %v", id, err)
			}
			got, _ := r["name"].(string)
			if r["success"] != float64(1) || (got != name && (inFlight[id] == "" || got != inFlight[id])) {
				t.Fatalf("acknowledged template %s (%s, in flight %q) lost after SIGKILL: %v", id, name, inFlight[id], r)
			}
			acked[id] = got
		}
	}

	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	all := map[string]string{}     // template_id → name, acknowledged
	pending := map[string]string{} // template_id → rename in flight at the last kill
	var total, failed, renames int
	var firstErr string
	for cycle := 0; cycle < cycles; cycle++ {
		if time.Now().After(budget) {
			t.Fatalf("time budget spent after %d cycles", cycle)
		}
		cmd, addr := start()
		token, cookie := login(addr)
		check(addr, token, cookie, all, pending) // everything acknowledged before every kill so far
		pending = map[string]string{}

		var mu sync.Mutex
		acked := map[string]string{}
		// Each renaming worker's template, created before the kill window.
		own := make([]string, inFlight)
		var setup sync.WaitGroup
		for w := 1; w < inFlight; w += 2 {
			setup.Add(1)
			go func(w int) {
				defer setup.Done()
				name := fmt.Sprintf("c%d-w%d-r0", cycle, w)
				params, _ := json.Marshal(crashTemplate(name))
				r, err := call("POST", addr, "/api/v1/mc/personal_templates", url.Values{"account_token": {token}, "params": {string(params)}}, cookie)
				if err != nil || r["success"] != float64(1) {
					t.Errorf("creating the template to rename: %v %v", r, err)
					return
				}
				mu.Lock()
				own[w] = r["template_id"].(string)
				acked[own[w]] = name
				mu.Unlock()
			}(w)
		}
		setup.Wait()
		if t.Failed() {
			t.FailNow()
		}
		// renameLoop renames the worker's template until the kill.
		renameLoop := func(cycle, w int) {
			id := own[w]
			for i := 1; ; i++ {
				name := fmt.Sprintf("c%d-w%d-r%d", cycle, w, i)
				params, _ := json.Marshal(crashTemplate(name))
				path := "/api/v1/mc/personal_templates"
				if id != "" {
					path += "/" + id
					mu.Lock()
					pending[id] = name
					mu.Unlock()
				}
				r, err := call("POST", addr, path, url.Values{"account_token": {token}, "params": {string(params)}}, cookie)
				mu.Lock()
				total++
				if err == nil && r["success"] == float64(1) {
					if id == "" {
						id = r["template_id"].(string)
					} else {
						renames++
					}
					acked[id] = name
					delete(pending, id)
				} else {
					failed++
					if firstErr == "" {
						firstErr = fmt.Sprint(r, err)
					}
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}
		stopAt := time.Now().Add(time.Duration(300+rng.Intn(700)) * time.Millisecond)
		var wg sync.WaitGroup
		for w := 0; w < inFlight; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				if w%2 == 1 {
					renameLoop(cycle, w)
					return
				}
				for i := 0; ; i++ {
					name := fmt.Sprintf("c%d-w%d-%d", cycle, w, i)
					params, _ := json.Marshal(crashTemplate(name))
					r, err := call("POST", addr, "/api/v1/mc/personal_templates", url.Values{"account_token": {token}, "params": {string(params)}}, cookie)
					mu.Lock()
					total++
					if err == nil && r["success"] == float64(1) {
						acked[r["template_id"].(string)] = name
					} else {
						failed++
						if firstErr == "" {
							firstErr = fmt.Sprint(r, err)
						}
					}
					mu.Unlock()
					if err != nil { // the process is gone
						return
					}
				}
			}(w)
		}
		time.Sleep(time.Until(stopAt))
		kill(cmd) // in the middle of writes: the workers' requests fail
		wg.Wait()
		for id, name := range acked {
			if prev, dup := all[id]; dup { // every cycle's templates are new
				t.Fatalf("template_id %s acknowledged in two cycles (%s, %s)", id, prev, name)
			}
			all[id] = name
		}
	}
	if len(all) < cycles {
		t.Fatalf("only %d writes acknowledged in %d cycles; first failure: %s", len(all), cycles, firstErr)
	}

	// The store after the last kill: SQLite's integrity check, then a
	// restart that still holds every acknowledged write.
	if sqlite {
		sdb, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		var res string
		if err := sdb.QueryRowContext(context.Background(), "PRAGMA integrity_check").Scan(&res); err != nil || res != "ok" {
			t.Fatalf("integrity_check = %q, %v", res, err)
		}
		sdb.Close()
	}
	cmd, addr := start()
	token, cookie := login(addr)
	check(addr, token, cookie, all, pending)
	stop(t, cmd)
	if renames == 0 { // a slow machine: the renames' templates were still checked
		t.Logf("no rename acknowledged in %d cycles (the machine is slow)", cycles)
	}
	t.Logf("%d cycles: %d requests, %d templates and %d renames acknowledged and all present, %d failed or cut by SIGKILL (first: %s)", cycles, total, len(all), renames, failed, firstErr)
}

// crashTemplate is a personal template with every required parameter.
func crashTemplate(name string) map[string]any {
	return map[string]any{
		"name": name, "bitrate": 1024, "closed_conf": 0, "safe_conf": 0, "encrypted_type": 0, "conf_type": 0,
		"call_mode": 2, "call_times": 3, "call_interval": 20, "mute": 0, "silence": 0, "video_quality": 0,
		"one_reforming": 0, "dual_mode": 1, "voice_activity_detection": 0, "cascade_mode": 1,
		"cascade_upload": 1, "cascade_return": 0, "cascade_return_para": 0, "public_conf": 0,
		"max_join_mt": 8, "auto_end": 0, "preoccupy_resource": 0, "bind_e164": 0,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
	}
}
