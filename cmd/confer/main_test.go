package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// cli runs confer command lines against a real server, with its own
// configuration folder and environment.
type cli struct {
	t        *testing.T
	env      *testserver.Env
	dir      string
	vars     map[string]string
	stdin    string
	terminal bool
	typed    []string // what the user types at the secret prompts
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	return &cli{t: t, env: env, dir: t.TempDir(), vars: map[string]string{
		"CONFER_SECRET": testserver.LicenseSecret, "CONFER_PASSWORD": testserver.AdminPassword,
	}}
}

type result struct {
	code     int
	out, err string
}

// run runs one command line with --config set to the test's folder.
func (c *cli) run(args ...string) result {
	c.t.Helper()
	var out, errw bytes.Buffer
	typed := c.typed
	a := &app{
		in: strings.NewReader(c.stdin), out: &out, errw: &errw,
		getenv:   func(k string) string { return c.vars[k] },
		terminal: func() bool { return c.terminal },
		readSecret: func() (string, error) {
			if len(typed) == 0 {
				return "", os.ErrClosed
			}
			s := typed[0]
			typed = typed[1:]
			return s, nil
		},
	}
	code := a.run(context.Background(), append([]string{"--config", c.dir}, args...))
	return result{code, out.String(), errw.String()}
}

// ok runs a command line that must succeed.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != 0 {
		c.t.Fatalf("confer %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.out, r.err)
	}
	return r.out
}

func (c *cli) login() {
	c.t.Helper()
	c.ok("login", "--url", c.env.URL, "--key", testserver.LicenseKey, "--user", testserver.AdminUser)
}

// conference starts a conference calling one terminal and lets it answer.
func (c *cli) conference(name string) string {
	c.t.Helper()
	out := c.ok("confs", "create", "--name", name, "--mt", "10.0.0.1")
	// "Created conference 1110000 (meeting id ...)."
	f := strings.Fields(out)
	if len(f) < 3 || f[0] != "Created" {
		c.t.Fatalf("confs create printed %q", out)
	}
	c.env.Advance(c.t, 3*time.Second)
	return f[2]
}

func TestLogin(t *testing.T) {
	c := newCLI(t)
	out := c.ok("login", "--url", c.env.URL, "--key", testserver.LicenseKey, "--user", "admin", "--api-level", "3")
	if !strings.Contains(out, "Logged in to "+c.env.URL+" as admin (user domain default)") {
		t.Errorf("login printed %q", out)
	}
	cfg, err := os.ReadFile(filepath.Join(c.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{testserver.LicenseSecret, testserver.AdminPassword} {
		if strings.Contains(string(cfg), secret) {
			t.Errorf("config.json holds a secret: %s", cfg)
		}
	}
	st, err := os.Stat(filepath.Join(c.dir, "sessions", "default.json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("session file mode %v, want 0600", st.Mode().Perm())
	}
	// The cached session serves the next commands.
	if out := c.ok("confs", "list"); !strings.HasPrefix(out, "CONF_ID") {
		t.Errorf("confs list printed %q", out)
	}
	if out := c.ok("profiles"); !strings.Contains(out, "default") || !strings.Contains(out, c.env.URL) || !strings.Contains(out, " 3 ") {
		t.Errorf("profiles printed %q", out)
	}

	// Secrets typed at a terminal prompt are not echoed.
	c2 := newCLI(t)
	c2.vars = map[string]string{}
	c2.terminal, c2.typed = true, []string{testserver.LicenseSecret, testserver.AdminPassword}
	r := c2.run("login", "--profile", "lab", "--url", c2.env.URL, "--key", testserver.LicenseKey, "--user", "admin")
	if r.code != 0 || !strings.Contains(r.err, "License secret: ") || !strings.Contains(r.err, "Password of admin: ") {
		t.Fatalf("prompted login: %+v", r)
	}
	if strings.Contains(r.out+r.err, testserver.AdminPassword) || strings.Contains(r.out+r.err, testserver.LicenseSecret) {
		t.Errorf("a secret was echoed: %+v", r)
	}

	// From a file, and from standard input when it is not a terminal.
	c3 := newCLI(t)
	c3.vars = map[string]string{}
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte(testserver.AdminPassword+"\n"), 0o600)
	c3.stdin = testserver.LicenseSecret + "\n"
	c3.ok("login", "--url", c3.env.URL, "--key", testserver.LicenseKey, "--user", "admin", "--password-file", pw)

	// A wrong password: the platform's code and description, exit 1.
	c3.stdin = testserver.LicenseSecret + "\n"
	c3.vars["BAD"] = "wrong"
	r = c3.run("login", "--password-env", "BAD")
	if r.code != 1 || !strings.Contains(r.err, "error 10101") {
		t.Errorf("wrong password: %+v", r)
	}
}

func TestConfsTableAndJSON(t *testing.T) {
	c := newCLI(t)
	c.login()
	conf := c.conference("Weekly sync")

	out := c.ok("confs", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "CONF_ID") || !strings.Contains(lines[0], "NAME") ||
		!strings.HasPrefix(lines[1], conf) || !strings.Contains(lines[1], "Weekly sync") || !strings.Contains(lines[1], "permanent") {
		t.Errorf("confs list table:\n%s", out)
	}

	var reply struct {
		Success int `json:"success"`
		Total   int `json:"total"`
		Confs   []struct {
			ConfID string `json:"conf_id"`
			Name   string `json:"name"`
		} `json:"confs"`
	}
	if err := json.Unmarshal([]byte(c.ok("confs", "list", "--json")), &reply); err != nil {
		t.Fatal(err)
	}
	if reply.Success != 1 || reply.Total != 1 || len(reply.Confs) != 1 || reply.Confs[0].ConfID != conf || reply.Confs[0].Name != "Weekly sync" {
		t.Errorf("confs list --json = %+v", reply)
	}

	out = c.ok("confs", "show", conf)
	if !strings.Contains(out, "name") || !strings.Contains(out, "Weekly sync") || strings.Contains(out, "success") {
		t.Errorf("confs show:\n%s", out)
	}

	out = c.ok("mts", "list", conf)
	if !strings.Contains(out, "MT_ID") || !strings.Contains(out, "10.0.0.1") || !strings.Contains(out, "yes") {
		t.Errorf("mts list:\n%s", out)
	}

	if out := c.ok("speaker", "set", conf, "1"); !strings.Contains(out, "Terminal 1 is the speaker of conference "+conf) {
		t.Errorf("speaker set printed %q", out)
	}
	out = c.ok("speaker", "show", conf)
	if !strings.Contains(out, "SPEAKER") || !strings.Contains(out, conf+"  1") {
		t.Errorf("speaker show:\n%s", out)
	}
	if out := c.ok("speaker", "show", conf, "--json"); strings.Join(strings.Fields(out), "") != `{"success":1,"mt_id":"1"}` {
		t.Errorf("speaker show --json = %s", out)
	}
	c.ok("speaker", "clear", conf)
	if out := c.ok("speaker", "show", conf); !strings.Contains(out, "has no speaker") {
		t.Errorf("speaker show after clear: %q", out)
	}

	// The generic call, with the catalogue's types.
	if out := c.ok("call", "PUT", "/api/v1/vc/confs/"+conf+"/chairman", "mt_id=1"); strings.TrimSpace(out) != "OK" {
		t.Errorf("call PUT chairman printed %q", out)
	}
	if out := c.ok("chairman", "show", conf); !strings.Contains(out, conf+"  1") {
		t.Errorf("chairman show:\n%s", out)
	}
	out = c.ok("call", "GET", "/api/v1/vc/confs", "count=0")
	if !strings.Contains(out, "total") || !strings.Contains(out, "confs:") || !strings.Contains(out, "CONF_ID") {
		t.Errorf("call GET confs:\n%s", out)
	}

	if out := c.ok("confs", "end", conf); !strings.Contains(out, "Ended conference "+conf) {
		t.Errorf("confs end printed %q", out)
	}
	if out := c.ok("confs", "list"); strings.Contains(out, conf) {
		t.Errorf("conference still listed after end:\n%s", out)
	}
}

func TestFailures(t *testing.T) {
	c := newCLI(t)
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"not logged in", []string{"confs", "list"}, 2, "no profile yet"},
		{"unknown command", []string{"conferences"}, 2, `unknown command "conferences"`},
		{"group without verb", []string{"confs"}, 2, "confs needs a subcommand"},
		{"missing argument", []string{"confs", "show"}, 2, "usage: confer confs show [flags] CONF_ID"},
		{"bad flag", []string{"confs", "list", "--nope"}, 2, "flag provided but not defined: -nope"},
		{"unreachable", []string{"version", "--url", "http://127.0.0.1:1"}, 3, "connect"},
	}
	// Without a platform, version prints confer's own (issue 41).
	if r := c.run("version"); r.code != 0 || !strings.HasPrefix(r.out, "confer "+cliVersion()+" (no platform") {
		t.Errorf("version without a profile: %+v", r)
	}
	if r := c.run("version", "--url", "http://127.0.0.1:1"); !strings.HasPrefix(r.out, "confer "+cliVersion()+"\n") {
		t.Errorf("version of an unreachable platform does not print confer's: %+v", r)
	}
	for _, tt := range tests {
		r := c.run(tt.args...)
		if r.code != tt.code || !strings.Contains(r.err, tt.err) {
			t.Errorf("%s: confer %s = exit %d, stderr %q; want exit %d and %q", tt.name, strings.Join(tt.args, " "), r.code, r.err, tt.code, tt.err)
		}
	}

	c.login()
	r := c.run("confs", "show", "1119999")
	if r.code != 1 || !strings.Contains(r.err, "confer: error 12103: ") || !strings.HasSuffix(strings.TrimSpace(r.err), "(12103)") {
		t.Errorf("unknown conference: %+v", r)
	}
	r = c.run("confs", "show", "1119999", "--json")
	if r.code != 1 || !strings.Contains(r.out, `"error_code": 12103`) {
		t.Errorf("unknown conference --json: %+v", r)
	}
}

func TestDebugMode(t *testing.T) {
	c := newCLI(t)
	c.login()
	conf := c.conference("Checks")
	if out := c.ok("mts", "add", conf, "10.0.0.9", "--debug"); !strings.Contains(out, "nothing was executed") {
		t.Errorf("mts add --debug printed %q", out)
	}
	if out := c.ok("mts", "list", conf); strings.Contains(out, "10.0.0.9") {
		t.Errorf("mts add --debug added a terminal:\n%s", out)
	}
	r := c.run("call", "POST", "/api/v1/vc/confs/"+conf+"/mts", `mts:=[{"account":"10.0.0.9","account_type":7,"protocol":0}]`, "--debug")
	if r.code != 1 || !strings.Contains(r.err, "mts[0].bitrate") {
		t.Errorf("invalid call in debug mode: %+v", r)
	}
}

// TestSessionRenewal moves the server's clock past the session lifetime:
// with the secrets in the environment the CLI logs in again and caches
// the new session; without, it says so and exits 1.
func TestSessionRenewal(t *testing.T) {
	c := newCLI(t)
	c.login()
	path := filepath.Join(c.dir, "sessions", "default.json")
	before, _ := os.ReadFile(path)
	c.env.Advance(t, 31*time.Minute)
	c.ok("confs", "list")
	after, _ := os.ReadFile(path)
	if bytes.Equal(before, after) {
		t.Error("the session cache did not change after a new login")
	}
	c.env.Advance(t, 31*time.Minute)
	c.vars = map[string]string{}
	r := c.run("confs", "list")
	if r.code != 1 || !strings.Contains(r.err, "error 10002") || !strings.Contains(r.err, "confer login") {
		t.Errorf("expired session without secrets: %+v", r)
	}
}

func TestVersion(t *testing.T) {
	// An unstamped build is "dev", as conferd's (issue 41: it was the
	// SDK's 0.1.0).
	if v := cliVersion(); !strings.HasPrefix(v, "dev") {
		t.Errorf("unstamped confer calls itself %q", v)
	}
	c := newCLI(t)
	// --version prints confer's own version and asks no platform (issue
	// 41: it printed the help).
	if out := c.ok("--version"); out != "confer "+cliVersion()+"\n" {
		t.Errorf("confer --version = %q", out)
	}
	out := c.ok("version", "--url", c.env.URL)
	for _, m := range []string{"system", "mc", "vc", "amc", "vrs", "upu", "krtc", "nms"} {
		if !strings.Contains(out, "\n"+m+" ") {
			t.Errorf("version lacks module %s:\n%s", m, out)
		}
	}
	// Every module answers a request without API-Level (issue 22 item 7).
	if !strings.Contains(out, "6.1.0.4.0.20210115") || !strings.Contains(out, "API_LEVEL") || strings.Contains(out, "ERROR") {
		t.Errorf("version:\n%s", out)
	}
	var v struct {
		Modules []struct {
			Module   string `json:"module"`
			APILevel int    `json:"api_level"`
		} `json:"modules"`
	}
	if err := json.Unmarshal([]byte(c.ok("version", "--url", c.env.URL, "--json")), &v); err != nil || len(v.Modules) != 8 || v.Modules[0].APILevel != 3 {
		t.Errorf("version --json = %+v, %v", v, err)
	}
}

func TestHelp(t *testing.T) {
	c := newCLI(t)
	if out := c.ok("--help"); !strings.Contains(out, "Usage: confer <command>") || !strings.Contains(out, "confs") {
		t.Errorf("confer --help:\n%s", out)
	}
	for _, cmd := range commands {
		if cmd.hidden {
			continue
		}
		if strings.TrimSpace(cmd.example) == "" || cmd.summary == "" {
			t.Errorf("command %q has no example or summary", cmd.name)
		}
		args := append(strings.Fields(cmd.name), "--help")
		out := c.ok(args...)
		if !strings.Contains(out, "Usage: confer "+cmd.name) || !strings.Contains(out, "Example:\n  confer") {
			t.Errorf("confer %s --help:\n%s", cmd.name, out)
		}
	}
	if out := c.ok("help", "mts"); !strings.Contains(out, "mts hangup") {
		t.Errorf("help mts:\n%s", out)
	}
}

func TestCompletion(t *testing.T) {
	c := newCLI(t)
	if out := c.ok("completion", "bash"); !strings.Contains(out, "complete -o default -F _confer_complete confer") {
		t.Errorf("completion bash:\n%s", out)
	}
	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{"con"}, []string{"confs"}},
		{[]string{"confs", ""}, []string{"create", "end", "list", "show"}},
		{[]string{"--json", "speaker", "s"}, []string{"set", "show"}},
		{[]string{"confs", "list", "--c"}, []string{"--config", "--count"}},
		{[]string{"call", "P"}, []string{"POST", "PUT"}},
		{[]string{"call", "PUT", "/api/v1/vc/confs/{conf_id}/spe"}, []string{"/api/v1/vc/confs/{conf_id}/speaker"}},
		{[]string{"call", "PUT", "/api/v1/vc/confs/1110000/speaker", ""}, []string{"force_broadcast=", "mt_id="}},
		{[]string{"completion", ""}, []string{"bash", "zsh"}},
	}
	for _, tt := range tests {
		got := strings.Fields(c.ok(append([]string{"__complete", "--"}, tt.words...)...))
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("complete %q = %q, want %q", tt.words, got, tt.want)
		}
	}
}

// signalWriter collects output and signals its first write.
type signalWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.buf.Write(p)
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestWatch(t *testing.T) {
	c := newCLI(t)
	c.login()
	conf := c.conference("Watched")
	for _, asJSON := range []bool{false, true} {
		// The terminal's joining, pushed after the watch subscribed,
		// would be its first line: the watch starts once it is out.
		if err := c.env.Srv.Push().WaitPublished(context.Background()); err != nil {
			t.Fatal(err)
		}
		out := &bytes.Buffer{}
		errw := &signalWriter{first: make(chan struct{})}
		a := &app{in: strings.NewReader(""), out: out, errw: errw, getenv: func(k string) string { return c.vars[k] },
			terminal: func() bool { return false }}
		args := []string{"--config", c.dir, "watch", "/confs/" + conf + "/**", "--count", "1", "--for", "20s"}
		if asJSON {
			args = append(args, "--json")
		}
		done := make(chan int)
		go func() { done <- a.run(context.Background(), args) }()
		select {
		case <-errw.first: // "Watching ..." once subscribed
		case code := <-done:
			if strings.Contains(errw.String(), "90404") {
				t.Skipf("the server has no push endpoint yet (issue 7): %s", errw.String())
			}
			t.Fatalf("watch ended with %d: %s", code, errw.String())
		}
		if asJSON {
			c.ok("speaker", "clear", conf)
		} else {
			c.ok("speaker", "set", conf, "1")
		}
		var code int
		select {
		case code = <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("watch did not end")
		}
		if code != 0 {
			t.Fatalf("watch exit %d: %s", code, errw.String())
		}
		line := strings.TrimSpace(out.String())
		if asJSON {
			var ev struct {
				Channel string         `json:"channel"`
				Data    map[string]any `json:"data"`
			}
			if err := json.Unmarshal([]byte(line), &ev); err != nil || !strings.HasSuffix(ev.Channel, "/confs/"+conf+"/speaker") || ev.Data["method"] != "update" {
				t.Errorf("watch --json printed %q", line)
			}
		} else if !strings.Contains(line, "update  /confs/"+conf+"/speaker") {
			t.Errorf("watch printed %q", line)
		}
	}
}
