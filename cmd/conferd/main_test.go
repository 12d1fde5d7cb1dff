package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/browsertest"
)

// TestMain lets the tests run the real main() in a child process.
func TestMain(m *testing.M) {
	if os.Getenv("CONFERD_TEST_MAIN") == "1" {
		os.Args = append([]string{"conferd"}, strings.Fields(os.Getenv("CONFERD_TEST_ARGS"))...)
		main()
		return
	}
	if os.Getenv("CONFER_SIP_ADDR") == "" {
		os.Setenv("CONFER_SIP_ADDR", "127.0.0.1:0") // tests never take the SIP port 5060 (docs/sip.md)
	}
	if os.Getenv("CONFER_SIMULATED_TERMINALS") == "" {
		os.Setenv("CONFER_SIMULATED_TERMINALS", "1") // the tests' numbers are the simulated directory's (docs/sip.md)
	}
	if os.Getenv("CONFER_SIP_TLS_ADDR") == "" {
		os.Setenv("CONFER_SIP_TLS_ADDR", "127.0.0.1:0") // nor 5061 (SIP over TLS with --tls-cert)
	}
	os.Exit(m.Run())
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestExitTwoOnBadReleaseOrDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.db")
	code, _, errs := runCmd(t, "serve", "--db", db, "--release", "7.0.0.0.0")
	if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "unknown platform release") {
		t.Fatalf("bad release: exit %d, stderr %q", code, errs)
	}
	// Two hosts: the driver reports each on a line of its own.
	code, _, errs = runCmd(t, "--db", "postgres://nobody@127.0.0.1:1,127.0.0.1:2/none?connect_timeout=2")
	if code != 2 || !strings.Contains(errs, "database") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Fatalf("unreachable database: exit %d, stderr %q", code, errs)
	}
	code, _, _ = runCmd(t, "frobnicate")
	if code != 2 {
		t.Fatalf("unknown command: exit %d", code)
	}
}

func TestLicenseAndAccountCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sub", "c.db") // the folder is created
	if code, out, errs := runCmd(t, "license", "import", "--db", db, "--create", "--key", "k1", "--secret", "s1"); code != 0 || !strings.Contains(out, "k1") {
		t.Fatalf("license import: %d %q %q", code, out, errs)
	}
	if code, _, _ := runCmd(t, "license", "import", "--db", db, "--key", "k1"); code != 2 {
		t.Fatalf("license import without secret: exit %d", code)
	}
	code, out, errs := runCmd(t, "account", "create", "--db", db, "--username", "bob", "--password", "pw", "--domain", "east", "--admin")
	if code != 0 || !strings.Contains(out, "east") {
		t.Fatalf("account create: %d %q %q", code, out, errs)
	}
	if code, _, errs := runCmd(t, "account", "create", "--db", db, "--username", "bob", "--password", "pw"); code != 1 || !strings.Contains(errs, "taken") {
		t.Fatalf("duplicate account: %d %q", code, errs)
	}
}

// The first start on an empty store prints a license and an administrator
// that work; the second start prints nothing new. SIGTERM ends the server
// with exit status 0.
func TestFirstStartAndSignal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	start := func() (*exec.Cmd, *bufio.Reader, string) {
		addr := freeAddr(t)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CONFERD_TEST_MAIN=1", "CONFERD_TEST_ARGS=serve --addr "+addr+" --create --db "+db)
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitUp(t, addr)
		return cmd, bufio.NewReader(stdout), addr
	}
	cmd, out, addr := start()
	creds := map[string]string{}
	for len(creds) < 4 {
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("first-start output ended early: %v (got %v)", err, creds)
		}
		for _, k := range []string{"oauth_consumer_key", "oauth_consumer_secret", "username", "password"} {
			if strings.Contains(line, k+")") || strings.HasPrefix(strings.TrimSpace(line), k+":") {
				f := strings.Fields(line)
				creds[k] = f[len(f)-1]
			}
		}
	}
	tok := postForm(t, addr, "/api/v1/system/token", "oauth_consumer_key="+creds["oauth_consumer_key"]+"&oauth_consumer_secret="+creds["oauth_consumer_secret"])
	if !strings.Contains(tok, `"success":1`) {
		t.Fatalf("token with printed license: %s", tok)
	}
	// The token's write went through the group commit, which /metrics
	// counts (docs/operations.md).
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, name := range []string{"confer_store_group_commits_total ", "confer_store_group_commit_writes_total ", "confer_store_group_commit_busy_seconds_total "} {
		if !strings.Contains(string(metrics), "\n"+name) || strings.Contains(string(metrics), "\n"+name+"0\n") {
			t.Errorf("/metrics: %s missing or 0", name)
		}
	}
	stop(t, cmd)

	cmd, out, _ = start()
	stop(t, cmd)
	rest, _ := io.ReadAll(out)
	if strings.Contains(string(rest), "password") {
		t.Fatalf("second start printed credentials again: %q", rest)
	}
}

// waitUp waits until the server accepts connections, bounded by go
// test's -timeout only (a loaded machine starts it late).
func waitUp(t *testing.T, addr string) {
	t.Helper()
	for !browsertest.Expired(t) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server at %s did not come up", addr)
}

func stop(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("conferd after SIGTERM: %v, want exit status 0", err)
		}
	case <-browsertest.Expiry(t):
		cmd.Process.Kill()
		t.Fatal("conferd did not stop after SIGTERM")
	}
}

func postForm(t *testing.T, addr, path, body string) string {
	t.Helper()
	resp, err := http.Post(fmt.Sprintf("http://%s%s", addr, path), "application/x-www-form-urlencoded", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestTerminalDirectoryCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	if code, out, errs := runCmd(t, "terminal", "add", "--db", db, "--create", "--e164", "222123", "--alias", "mt_shanghai", "--behaviour", "busy"); code != 0 || !strings.Contains(out, "222123: busy") {
		t.Fatalf("terminal add: %d %q %q", code, out, errs)
	}
	if code, _, _ := runCmd(t, "terminal", "add", "--db", db, "--e164", "1", "--behaviour", "asleep"); code != 2 {
		t.Fatalf("bad behaviour: exit %d", code)
	}
	if code, out, _ := runCmd(t, "terminal", "list", "--db", db); code != 0 || !strings.Contains(out, "alias=mt_shanghai") {
		t.Fatalf("terminal list: %d %q", code, out)
	}
	if code, _, _ := runCmd(t, "terminal", "remove", "--db", db, "--account", "222123"); code != 0 {
		t.Fatalf("terminal remove: exit %d", code)
	}
	if code, _, _ := runCmd(t, "terminal", "remove", "--db", db, "--account", "222123"); code != 1 {
		t.Fatalf("second remove: exit %d", code)
	}
}

// A SQLite file that does not exist is refused (a mistyped --db made a new,
// empty database: issue 41) unless --create says so or it is CONFER_DB's
// path; nothing is created meanwhile.
func TestMissingDatabaseRefused(t *testing.T) {
	dir := t.TempDir()
	typo := filepath.Join(dir, "conefr.db")
	code, _, errs := runCmd(t, "account", "create", "--db", typo, "--username", "u", "--password", "pw")
	if code != exitUsage || !strings.Contains(errs, "does not exist") || !strings.Contains(errs, "--create") {
		t.Errorf("a missing --db: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(typo); !os.IsNotExist(err) {
		t.Errorf("the refused --db was created: %v", err)
	}
	if code, _, errs := runCmd(t, "account", "create", "--db", typo, "--create", "--username", "u", "--password", "pw"); code != 0 {
		t.Fatalf("--create: exit %d, %q", code, errs)
	}
	if code, out, errs := runCmd(t, "terminal", "list", "--db", typo); code != 0 {
		t.Errorf("the created database: exit %d, %q %q", code, out, errs)
	}
	// A config file's db is the deployment's own too (the systemd unit's
	// first start): serve creates it.
	configured := filepath.Join(dir, "configured.db")
	cfg := writeFile(t, filepath.Join(dir, "conferd.conf"), "db = "+configured+"\n")
	startServe(t, "--config", cfg, "--addr", freeAddr(t), "--rtc-udp-port", "0", "--rtc-tcp-port", "-1",
		"--sip-addr", "127.0.0.1:0", "--sip-tls-addr", "")
	if _, err := os.Stat(configured); err != nil {
		t.Errorf("the config file's database was not created: %v", err)
	}
	deployed := filepath.Join(dir, "deployed.db")
	t.Setenv("CONFER_DB", deployed)
	if code, _, errs := runCmd(t, "terminal", "list"); code != 0 {
		t.Errorf("CONFER_DB's path: exit %d, %q", code, errs)
	}
}
