package sip_test

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
)

// A REGISTER client over UDP from a chosen local address, to try the
// registrar's digest check message by message (issue 38 item 2).
type regClient struct {
	t      *testing.T
	conn   *net.UDPConn
	server string
	e164   string
	n      int
}

func newRegClient(t *testing.T, e *sipEnv, ip, e164 string) *regClient {
	t.Helper()
	raddr, err := net.ResolveUDPAddr("udp", e.addr())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialUDP("udp", &net.UDPAddr{IP: net.ParseIP(ip)}, raddr)
	if err != nil {
		t.Skipf("UDP from %s: %v", ip, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &regClient{t: t, conn: conn, server: e.addr(), e164: e164}
}

// send sends a REGISTER with the Authorization header authz ("" for
// none) and returns the status code and the nonce of a challenge.
func (c *regClient) send(authz string) (int, string) {
	c.t.Helper()
	c.n++
	local := c.conn.LocalAddr().String()
	msg := fmt.Sprintf("REGISTER sip:%s SIP/2.0\r\nVia: SIP/2.0/UDP %s;branch=z9hG4bK-%s-%d;rport\r\nMax-Forwards: 70\r\n"+
		"From: <sip:%s@%s>;tag=t%d\r\nTo: <sip:%s@%s>\r\nCall-ID: reg-%s-%d@test\r\nCSeq: %d REGISTER\r\n"+
		"Contact: <sip:%s@%s>\r\nExpires: 600\r\n", c.server, local, strings.ReplaceAll(local, ":", "-"), c.n,
		c.e164, c.server, c.n, c.e164, c.server, strings.ReplaceAll(local, ":", "-"), c.n, c.n, c.e164, local)
	if authz != "" {
		msg += "Authorization: " + authz + "\r\n"
	}
	msg += "Content-Length: 0\r\n\r\n"
	if _, err := c.conn.Write([]byte(msg)); err != nil {
		c.t.Fatal(err)
	}
	buf := make([]byte, 8192)
	for {
		c.conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a lost datagram on loopback: fail, not hang
		n, err := c.conn.Read(buf)
		if err != nil {
			c.t.Fatalf("no answer to REGISTER %d: %v", c.n, err)
		}
		reply := string(buf[:n])
		if !strings.Contains(reply, fmt.Sprintf("CSeq: %d REGISTER", c.n)) {
			continue // a late answer to an earlier request
		}
		code, _ := strconv.Atoi(strings.Fields(reply)[1])
		if code == 100 {
			continue
		}
		nonce := ""
		if m := regexp.MustCompile(`nonce="([^"]+)"`).FindStringSubmatch(reply); m != nil {
			nonce = m[1]
		}
		return code, nonce
	}
}

// digest is an Authorization header for nonce with nonce-count nc.
func (c *regClient) digest(password, nonce string, nc int) string {
	md := func(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }
	uri := "sip:" + c.server
	ha1, ha2 := md(c.e164+":confer:"+password), md("REGISTER:"+uri)
	ncs := fmt.Sprintf("%08x", nc)
	resp := md(ha1 + ":" + nonce + ":" + ncs + ":c0ffee:auth:" + ha2)
	return fmt.Sprintf(`Digest username="%s", realm="confer", nonce="%s", uri="%s", response="%s", algorithm=MD5, qop=auth, nc=%s, cnonce="c0ffee"`,
		c.e164, nonce, uri, resp, ncs)
}

// register answers a fresh challenge with password and returns the code.
func (c *regClient) register(password string) int {
	c.t.Helper()
	code, nonce := c.send("")
	if code != 401 || nonce == "" {
		c.t.Fatalf("REGISTER without credentials: %d, want a 401 challenge", code)
	}
	code, _ = c.send(c.digest(password, nonce, 1))
	return code
}

// Issue 38 item 2: a captured Authorization answered again, from another
// address with another Contact, or from the same with the same
// nonce-count, was accepted (200). Now it is challenged anew; the client
// that owns it goes on with the next nonce-count.
func TestRegisterReplayRefused(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	e.createAccount(t, "room61", "5551061", "replay.pw")
	owner := newRegClient(t, e, "127.0.0.1", "5551061")
	code, nonce := owner.send("")
	if code != 401 {
		t.Fatalf("challenge: %d", code)
	}
	captured := owner.digest("replay.pw", nonce, 1)
	if code, _ := owner.send(captured); code != 200 {
		t.Fatalf("the owner's REGISTER: %d, want 200", code)
	}
	thief := newRegClient(t, e, "127.0.0.2", "5551061")
	if code, _ := thief.send(captured); code != 401 {
		t.Errorf("the captured Authorization from another address: %d, want 401", code)
	}
	if code, _ := owner.send(captured); code != 401 {
		t.Errorf("the captured Authorization again from the same address: %d, want 401", code)
	}
	if code, _ := owner.send(owner.digest("replay.pw", nonce, 2)); code != 200 {
		t.Errorf("the owner's next nonce-count: %d, want 200", code)
	}
}

// Issue 38 item 2: 808 digest guesses a second from one socket, none
// counted; the right password answered 200 while the HTTP login was
// locked. Now failed digests and failed HTTP logins count toward one
// throttle per address and account, and a locked account cannot register.
func TestRegisterGuessesThrottled(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	e.createAccount(t, "room62", "5551062", "right.pw1")
	free := auth.DefaultConfig().ThrottleFree
	guesser := newRegClient(t, e, "127.0.0.3", "5551062")
	for i := range free {
		if code := guesser.register(fmt.Sprintf("guess%d", i)); code != 403 {
			t.Fatalf("guess %d: %d, want 403", i+1, code)
		}
	}
	if code := guesser.register("right.pw1"); code != 403 {
		t.Fatalf("the right password from the guessing address during its backoff: %d, want 403", code)
	}
	if code := newRegClient(t, e, "127.0.0.4", "5551062").register("right.pw1"); code != 200 {
		t.Fatalf("the right password from another address: %d, want 200", code)
	}

	// HTTP failures count for SIP: console logins of the account's user
	// name from 127.0.0.5, then its REGISTER from there.
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.5")}}).DialContext}
	defer tr.CloseIdleConnections()
	for range free {
		resp, err := (&http.Client{Transport: tr}).PostForm(e.env.URL+"/console/login", url.Values{"username": {"room62"}, "password": {"guess"}})
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if code := newRegClient(t, e, "127.0.0.5", "5551062").register("right.pw1"); code != 403 {
		t.Fatalf("REGISTER after HTTP guesses from the same address: %d, want 403", code)
	}

	// A locked account (licensed logins with wrong passwords) cannot register.
	c := e.env.Client(t)
	for range auth.DefaultConfig().MaxFailures {
		c.Login("room62", "wrong")
	}
	if r := c.Login("room62", "right.pw1"); r.Code() != 90423 {
		t.Fatalf("the account after %d wrong licensed logins: %s, want 90423", auth.DefaultConfig().MaxFailures, r.Raw)
	}
	if code := newRegClient(t, e, "127.0.0.6", "5551062").register("right.pw1"); code != 403 {
		t.Fatalf("REGISTER of a locked account: %d, want 403", code)
	}
}
