package main

import (
	"bufio"
	"crypto/tls"
	"net"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// conferd runs the SIP user agent on --sip-addr, UDP and TCP: it answers
// OPTIONS on both (docs/sip.md "Configuration").
func TestServeSIP(t *testing.T) {
	logs := startServe(t, "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--rtc-udp-port", "0", "--rtc-tcp-port", "0",
		"--sip-addr", "127.0.0.1:0")
	m := regexp.MustCompile(`sip: user agent listening.*addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no SIP listen line: %s", logs)
	}
	for _, network := range []string{"udp", "tcp"} {
		c, err := net.Dial(network, m[1])
		if err != nil {
			t.Fatal(err)
		}
		msg := "OPTIONS sip:" + m[1] + " SIP/2.0\r\nVia: SIP/2.0/" + strings.ToUpper(network) + " " + c.LocalAddr().String() +
			";branch=z9hG4bK1\r\nFrom: <sip:t@127.0.0.1>;tag=1\r\nTo: <sip:" + m[1] + ">\r\nCall-ID: o1\r\nCSeq: 1 OPTIONS\r\nMax-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte(msg)); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || !strings.HasPrefix(line, "SIP/2.0 200") {
			t.Fatalf("%s OPTIONS: %q %v", network, line, err)
		}
	}
}

// Bad SIP flags stop the start with a usage error.
func TestServeSIPBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--sip-rtp-ports", "9-5"}, {"--sip-addr", "nope"}, {"--sip-public-ip", "x"}, {"--sip-max-calls", "0"}, {"--sip-register-to", "127.0.0.1:5070"}} {
		code, _, errs := runCmd(t, append([]string{"serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--create"}, args...)...)
		if code != exitUsage || !strings.Contains(errs, args[0]) {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
}

// The SFU's default port taken (another conferd on the laptop) falls back
// to a free one, and the warning names the SFU, not the SIP agent, whose
// own port was free (README "Run it").
func TestServeDefaultRTCPortTaken(t *testing.T) {
	held, err := net.ListenPacket("udp4", "127.0.0.1:7882")
	if err != nil {
		t.Skipf("UDP 7882 is in use here already (%v): the test needs to hold it itself", err)
	}
	defer held.Close()
	logs := startServe(t, "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--sip-addr", "127.0.0.1:0")
	out := logs.String()
	if !strings.Contains(out, "the SFU's default ports are taken") || strings.Contains(out, "SIP port 5060") {
		t.Fatalf("warnings of a taken SFU port: %s", out)
	}
	if !regexp.MustCompile(`media: WHIP, WHEP.*ice_udp="?\[127\.0\.0\.1:\d+`).MatchString(out) || regexp.MustCompile(`127\.0\.0\.1:7882[\] ]`).MatchString(out) {
		t.Fatalf("the SFU did not take a free port: %s", out)
	}
}

// With the HTTPS certificate (--tls-cert, --tls-key) the user agent also
// serves SIP over TLS on --sip-tls-addr, and the log names its address;
// --sip-tls-addr "" turns it off (docs/sip.md "TLS").
func TestServeSIPTLS(t *testing.T) {
	cert, key, pool := selfSigned(t)
	logs := startServe(t, "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--rtc-udp-port", "0", "--rtc-tcp-port", "0",
		"--sip-addr", "127.0.0.1:0", "--sip-tls-addr", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key)
	m := regexp.MustCompile(`sip: user agent listening, TLS.*addr=(127\.0\.0\.1:\d+)`).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no SIP over TLS listen line: %s", logs)
	}
	c, err := tls.Dial("tcp", m[1], &tls.Config{RootCAs: pool})
	if err != nil {
		t.Fatalf("TLS to the SIP agent: %v", err)
	}
	defer c.Close()
	msg := "OPTIONS sip:" + m[1] + ";transport=tls SIP/2.0\r\nVia: SIP/2.0/TLS " + c.LocalAddr().String() +
		";branch=z9hG4bK1\r\nFrom: <sip:t@127.0.0.1>;tag=1\r\nTo: <sip:" + m[1] + ">\r\nCall-ID: o1\r\nCSeq: 1 OPTIONS\r\nMax-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "SIP/2.0 200") {
		t.Fatalf("OPTIONS over TLS: %q %v", line, err)
	}

	off := startServe(t, "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--rtc-udp-port", "0", "--rtc-tcp-port", "0",
		"--sip-addr", "127.0.0.1:0", "--sip-tls-addr", "", "--tls-cert", cert, "--tls-key", key)
	if strings.Contains(off.String(), "listening, TLS") {
		t.Fatalf("SIP over TLS with --sip-tls-addr \"\": %s", off)
	}
	if code, _, errs := runCmd(t, "serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--sip-tls-addr", "nope", "--tls-cert", cert, "--tls-key", key); code != exitUsage || !strings.Contains(errs, "--sip-tls-addr") {
		t.Fatalf("bad --sip-tls-addr: exit %d, %q", code, errs)
	}
}

// The default SIP over TLS port taken falls back to a free one, and the
// warning names it.
func TestServeDefaultSIPTLSPortTaken(t *testing.T) {
	held, err := net.Listen("tcp", ":5061")
	if err != nil {
		t.Skipf("TCP 5061 is in use here already (%v): the test needs to hold it itself", err)
	}
	defer held.Close()
	t.Setenv("CONFER_SIP_TLS_ADDR", "") // the default, :5061
	cert, key, _ := selfSigned(t)
	logs := startServe(t, "--addr", freeAddr(t), "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--rtc-udp-port", "0", "--rtc-tcp-port", "0",
		"--sip-addr", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key)
	out := logs.String()
	if !strings.Contains(out, "SIP over TLS port 5061 is taken") || !regexp.MustCompile(`listening, TLS.*addr=\S+:\d+`).MatchString(out) ||
		regexp.MustCompile(`listening, TLS.*addr=\S+:5061\b`).MatchString(out) {
		t.Fatalf("a taken SIP TLS port: %s", out)
	}
}
