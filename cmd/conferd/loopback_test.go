package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A node whose --addr is loopback opens its media (ICE) ports on
// loopback only, and its start-up log names the console's address
// (docs/media.md "Configuration", docs/console.md).
func TestServeLoopbackKeepsMedia(t *testing.T) {
	addr := freeAddr(t)
	logs := startServe(t, "--addr", addr, "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--rtc-udp-port", "0", "--rtc-tcp-port", "0",
		"--sip-addr", "127.0.0.1:0")
	out := logs.String()
	m := regexp.MustCompile(`ice_udp="?\[([^\]]*)\]`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no ICE UDP addresses in the log: %s", out)
	}
	for _, a := range strings.Fields(m[1]) {
		if !strings.HasPrefix(a, "127.") {
			t.Errorf("with --addr %s the ICE UDP port listens on %s", addr, a)
		}
	}
	if want := "console=http://" + addr + "/console/"; !strings.Contains(out, want) {
		t.Errorf("the start-up log lacks %q: %s", want, out)
	}
}

func TestConsoleURL(t *testing.T) {
	for _, c := range []struct{ scheme, addr, want string }{
		{"http", "[::]:8080", "http://localhost:8080/console/"},
		{"https", "0.0.0.0:443", "https://localhost:443/console/"},
		{"http", "192.0.2.7:8080", "http://192.0.2.7:8080/console/"},
	} {
		if got := consoleURL(c.scheme, fakeAddr(c.addr)); got != c.want {
			t.Errorf("consoleURL(%s, %s) = %s, want %s", c.scheme, c.addr, got, c.want)
		}
	}
}

type fakeAddr string

func (a fakeAddr) Network() string { return "tcp" }
func (a fakeAddr) String() string  { return string(a) }
