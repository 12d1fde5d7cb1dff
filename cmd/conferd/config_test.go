package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/confer-platform/confer/internal/browsertest"
)

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Command line, then environment, then config file, then the default.
func TestConfigPrecedence(t *testing.T) {
	t.Setenv("CONFER_RELEASE", "5.2.0.2.0")
	fs := newFlagSet("serve", io.Discard)
	addr := fs.String("addr", envOr("CONFER_ADDR", defaultAddr), "")
	rel := fs.String("release", envOr("CONFER_RELEASE", "latest"), "(env CONFER_RELEASE)")
	files := fs.String("files-dir", envOr("CONFER_FILES_DIR", ""), "")
	ttl := fs.Duration("token-ttl", envDuration("CONFER_TOKEN_TTL", time.Hour), "")
	maxConfs := fs.Int("max-confs", 10, "")
	if err := fs.Parse([]string{"--addr", ":9000"}); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, filepath.Join(t.TempDir(), "conferd.conf"), `# conferd settings
addr = :7000
release = 6.0.0.3.0
files-dir = "/srv/confer files"

token-ttl = 2h
max-confs=25
`)
	if err := applyConfig(fs, cfg); err != nil {
		t.Fatal(err)
	}
	if *addr != ":9000" || *rel != "5.2.0.2.0" || *files != "/srv/confer files" || *ttl != 2*time.Hour || *maxConfs != 25 {
		t.Fatalf("addr %q release %q files-dir %q token-ttl %v max-confs %d", *addr, *rel, *files, *ttl, *maxConfs)
	}
	for text, want := range map[string]string{
		"nosuch = 1\n":         "unknown setting",
		"addr\n":               "name = value",
		"max-confs = many\n":   "max-confs",
		"addr = a\naddr = b\n": "already set",
	} {
		fs := newFlagSet("serve", io.Discard)
		fs.String("addr", "", "")
		fs.Int("max-confs", 1, "")
		err := applyConfig(fs, writeFile(t, filepath.Join(t.TempDir(), "c"), text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("config %q: err %v, want %q", text, err, want)
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// selfSigned writes a certificate and key for 127.0.0.1 and returns their
// paths and a pool trusting the certificate.
func selfSigned(t *testing.T) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "confer test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert := writeFile(t, filepath.Join(dir, "cert.pem"), string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})))
	keyPath := writeFile(t, filepath.Join(dir, "key.pem"), string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb})))
	c, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(c)
	return cert, keyPath, pool
}

// startServe runs serve in this process until the test ends.
func startServe(t *testing.T, args ...string) *lockedBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	go func() { done <- serve(ctx, args, io.Discard, stderr) }()
	t.Cleanup(func() {
		cancel()
		<-done // bounded by go test's -timeout, not a budget of its own
	})
	for !strings.Contains(stderr.String(), "conferd serving") {
		select {
		case code := <-done:
			t.Fatalf("serve exited %d: %s", code, stderr)
		default:
		}
		if browsertest.Expired(t) { // a loaded machine starts it late
			t.Fatalf("serve did not start: %s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return stderr
}

// HTTPS with --tls-cert and --tls-key on a real listener, plain HTTP
// redirected from --http-redirect-addr, JSON logs, settings from --config.
func TestServeTLSRedirectJSONLogsConfig(t *testing.T) {
	cert, key, pool := selfSigned(t)
	addr, raddr := freeAddr(t), freeAddr(t)
	cfg := writeFile(t, filepath.Join(t.TempDir(), "conferd.conf"),
		"addr = "+addr+"\nlog-format = json\ntls-cert = "+cert+"\ntls-key = "+key+"\n")
	logs := startServe(t, "--config", cfg, "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--http-redirect-addr", raddr)

	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil || !strings.Contains(string(b), `"ok"`) {
		t.Fatalf("https /healthz = %d %s", resp.StatusCode, b)
	}
	// Plain HTTP on the TLS port is refused.
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		if resp.StatusCode == 200 {
			t.Fatal("plain HTTP answered on the TLS listener")
		}
		resp.Body.Close()
	}
	// The redirect listener sends clients to HTTPS, keeping path and query.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err = noFollow.Post("http://"+raddr+"/api/v1/system/token?x=1", "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "https://" + addr + "/api/v1/system/token?x=1"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Fatalf("redirect = %d %q, want 308 %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
	// Issue 38 item 10: never to the host the request names.
	req, _ := http.NewRequest("GET", "http://"+raddr+"/console/", nil)
	req.Host = "evil.example"
	if resp, err = noFollow.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := "https://" + addr + "/console/"; resp.Header.Get("Location") != want {
		t.Fatalf("redirect of Host evil.example = %q, want %q", resp.Header.Get("Location"), want)
	}
	// HSTS under TLS.
	if resp, err = client.Get("https://" + addr + "/api/vc/version"); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if h := resp.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(h, "max-age=") {
		t.Fatalf("Strict-Transport-Security = %q under TLS", h)
	}
	// An API request through TLS logs one JSON line.
	resp, err = client.Get("https://" + addr + "/api/v1/vc/confs?account_token=sekrit-token")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id := resp.Header.Get("X-Request-Id")
	var found bool
	// Log lines reach stderr within a few milliseconds (ops.LineBuffer).
	for deadline := time.Now().Add(5 * time.Second); !found && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for _, line := range strings.Split(logs.String(), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["request_id"] == id {
				found = m["endpoint"] == "vc.confs.list" && m["code"] != float64(0)
			}
		}
	}
	if !found {
		t.Fatalf("no JSON log line for request %s:\n%s", id, logs)
	}
	if strings.Contains(logs.String(), "sekrit-token") {
		t.Fatal("the token reached the log")
	}
	// Push websockets upgrade over TLS even for a client that offers
	// HTTP/2, as http.DefaultTransport does.
	h2 := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	ws, _, err := websocket.Dial(context.Background(), "wss://"+addr+"/api/v1/publish", &websocket.DialOptions{HTTPClient: h2})
	if err != nil {
		t.Fatalf("websocket over TLS: %v", err)
	}
	ws.CloseNow()
}

func TestServeRejectsHalfTLS(t *testing.T) {
	code, _, errs := runCmd(t, "serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--tls-cert", "x.pem")
	if code != 2 || !strings.Contains(errs, "tls-key") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	bad := writeFile(t, filepath.Join(t.TempDir(), "bad.pem"), "not a certificate")
	code, _, errs = runCmd(t, "serve", "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--tls-cert", bad, "--tls-key", bad)
	if code != 2 || !strings.Contains(errs, "TLS") {
		t.Fatalf("bad certificate: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCmd(t, "serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--tls-key", "k.pem", "--http-redirect-addr", ":0")
	if code != 2 {
		t.Fatalf("redirect without TLS: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCmd(t, "serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--log-format", "xml")
	if code != 2 || !strings.Contains(errs, "log-format") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}
