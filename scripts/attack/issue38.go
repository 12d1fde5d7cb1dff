package main

// The attacks of issue 38 (docs/operations.md "Limits"):
//
//	go run ./scripts/attack --url http://127.0.0.1:8080 slowbodies
//	go run ./scripts/attack --url ... --user admin --password P csrf
//	go run ./scripts/attack --url ... --user admin lock
//	go run ./scripts/attack --url ... unknownusers
//	go run ./scripts/attack --sip 127.0.0.1:5060 --e164 5551000 sipguess
//	go run ./scripts/attack --redirect http://127.0.0.1:8081 redirect

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	slowFrom = flag.String("from", "127.0.0.1", "slowbodies, lock, unknownusers: the attacker's local address")
	sipAddr  = flag.String("sip", "127.0.0.1:5060", "sipguess: conferd's SIP address (UDP)")
	e164     = flag.String("e164", "", "sipguess: the E.164 number to guess the password of")
	redirURL = flag.String("redirect", "", "redirect: the --http-redirect-addr listener's URL")
	threads  = flag.Int("threads", 16, "unknownusers: concurrent logins")
)

// clientFrom is an HTTP client whose connections leave from ip.
func clientFrom(ip string) *http.Client {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 64}}
}

// answer reads a reply's error_code (0 for success, -1 unreadable).
func answer(resp *http.Response, err error) int {
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var r struct {
		Success   int `json:"success"`
		ErrorCode int `json:"error_code"`
	}
	if json.NewDecoder(resp.Body).Decode(&r) != nil {
		return -1
	}
	return r.ErrorCode
}

// slowBodies: 66 connections from --from announce 1 MiB bodies and
// trickle them; meanwhile a client at --probe-from asks for tokens.
func slowBodies() {
	u, _ := url.Parse(*base)
	deadline := time.Now().Add(*hold)
	var wg sync.WaitGroup
	var held, busy atomic.Int64
	for range 66 {
		wg.Go(func() {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(*slowFrom)}, Timeout: 5 * time.Second}
			c, err := d.Dial("tcp", u.Host)
			if err != nil {
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/v1/system/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n", 1<<20)
			held.Add(1)
			defer held.Add(-1)
			for time.Now().Before(deadline) {
				if _, err := c.Write([]byte("a")); err != nil {
					return
				}
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				b := make([]byte, 512)
				if n, err := c.Read(b); err == nil {
					if strings.Contains(string(b[:n]), "90503") {
						busy.Add(1)
					}
					return
				} else if !isTimeout(err) {
					return
				}
			}
		})
	}
	probeClient := clientFrom(*probe)
	ok, refused := 0, 0
	for time.Now().Before(deadline) {
		code := answer(probeClient.PostForm(*base+"/api/v1/system/token", url.Values{"oauth_consumer_key": {"k"}, "oauth_consumer_secret": {"s"}}))
		if code == 90503 {
			refused++
		} else {
			ok++
		}
		time.Sleep(2 * time.Second)
	}
	wg.Wait()
	fmt.Printf("66 slow bodies from %s (%d answered 90503 at once); token requests from %s: %d served, %d answered 90503\n",
		*slowFrom, busy.Load(), *probe, ok, refused)
}

// csrf: the administrator's console login, then writes with its cookie
// and token as a page of another origin would send them.
func csrf() {
	jar := url.Values{"username": {*user}, "password": {*password}}
	resp, err := http.PostForm(*base+"/console/login", jar)
	if err != nil {
		panic(err)
	}
	var login struct {
		Token string `json:"account_token"`
	}
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	cookie := ""
	for _, c := range resp.Cookies() {
		if c.Name == "SSO_COOKIE_KEY" {
			cookie = c.Value
			fmt.Printf("cookie attributes: SameSite=Lax %v, Secure %v, HttpOnly %v\n", c.SameSite == http.SameSiteLaxMode, c.Secure, c.HttpOnly)
		}
	}
	code := answer(http.Post(*base+"/console/token", "", nil))
	fmt.Printf("POST /console/token without a login: error_code %d (a token for anyone before issue 38)\n", code)
	for _, h := range []map[string]string{{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "null"}} {
		p := fmt.Sprintf(`{"account":"csrf%d","password":"Csrf.pw1","name":"csrf"}`, time.Now().UnixNano()%100000)
		req, _ := http.NewRequest("POST", *base+"/api/v1/amc/accounts", strings.NewReader(url.Values{"account_token": {login.Token}, "params": {p}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
		for k, v := range h {
			req.Header.Set(k, v)
		}
		fmt.Printf("account creation with the cookie, %v: error_code %d (0: created)\n", h, answer(http.DefaultClient.Do(req)))
	}
}

// lock: wrong console logins of --user from --from; then the right
// password from --probe-from (prints what each got).
func lock() {
	c := clientFrom(*slowFrom)
	codes := map[int]int{}
	for range 20 {
		codes[answer(c.PostForm(*base+"/console/login", url.Values{"username": {*user}, "password": {"wrong-guess"}}))]++
	}
	fmt.Printf("20 wrong logins of %s from %s without a license: answers %v (10101 wrong, 90420 throttled, 90423 locked)\n", *user, *slowFrom, codes)
	if *password != "" {
		fmt.Printf("its right password from %s: error_code %d\n", *probe,
			answer(clientFrom(*probe).PostForm(*base+"/console/login", url.Values{"username": {*user}, "password": {*password}})))
	}
}

// unknownUsers: --threads logins of unknown users at once from --from for
// --hold; a login from --probe-from is timed meanwhile.
func unknownUsers() {
	c := clientFrom(*slowFrom)
	deadline := time.Now().Add(*hold)
	var wg sync.WaitGroup
	var n, throttled atomic.Int64
	for i := range *threads {
		wg.Go(func() {
			for j := 0; time.Now().Before(deadline); j++ {
				code := answer(c.PostForm(*base+"/console/login", url.Values{"username": {fmt.Sprintf("nobody-%d-%d", i, j)}, "password": {"x"}}))
				n.Add(1)
				if code == 90420 {
					throttled.Add(1)
				}
			}
		})
	}
	time.Sleep(*hold / 2)
	t0 := time.Now()
	code := answer(clientFrom(*probe).PostForm(*base+"/console/login", url.Values{"username": {"nobody-probe"}, "password": {"x"}}))
	el := time.Since(t0)
	wg.Wait()
	fmt.Printf("%d unknown-user logins from %s, %d answered 90420 without bcrypt; a login from %s meanwhile took %v (error_code %d)\n",
		n.Load(), *slowFrom, throttled.Load(), *probe, el.Round(time.Millisecond), code)
}

// sipGuess: REGISTER digest guesses for --e164 over UDP for --hold.
func sipGuess() {
	raddr, err := net.ResolveUDPAddr("udp", *sipAddr)
	if err != nil {
		panic(err)
	}
	conn, err := net.DialUDP("udp", nil, raddr)
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	nonceRE := regexp.MustCompile(`nonce="([^"]+)"`)
	md := func(s string) string { h := md5.Sum([]byte(s)); return hex.EncodeToString(h[:]) }
	send := func(seq int, authz string) string {
		local := conn.LocalAddr().String()
		msg := fmt.Sprintf("REGISTER sip:%s SIP/2.0\r\nVia: SIP/2.0/UDP %s;branch=z9hG4bK-g%d;rport\r\nMax-Forwards: 70\r\nFrom: <sip:%s@%s>;tag=g%d\r\nTo: <sip:%s@%s>\r\nCall-ID: guess-%d@attack\r\nCSeq: %d REGISTER\r\nContact: <sip:%s@%s>\r\n",
			*sipAddr, local, seq, *e164, *sipAddr, seq, *e164, *sipAddr, seq, seq, *e164, local)
		if authz != "" {
			msg += "Authorization: " + authz + "\r\n"
		}
		conn.Write([]byte(msg + "Content-Length: 0\r\n\r\n"))
		b := make([]byte, 4096)
		for {
			conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			n, err := conn.Read(b)
			if err != nil {
				return ""
			}
			if r := string(b[:n]); strings.Contains(r, fmt.Sprintf("CSeq: %d REGISTER", seq)) && !strings.HasPrefix(r, "SIP/2.0 100") {
				return r
			}
		}
	}
	deadline := time.Now().Add(*hold)
	codes := map[string]int{}
	guesses := 0
	for seq := 1; time.Now().Before(deadline); seq += 2 {
		m := nonceRE.FindStringSubmatch(send(seq, ""))
		if m == nil {
			codes["no challenge"]++
			continue
		}
		uri := "sip:" + *sipAddr
		resp := md(md(*e164+":confer:guess"+fmt.Sprint(seq)) + ":" + m[1] + ":00000001:abc:auth:" + md("REGISTER:"+uri))
		r := send(seq+1, fmt.Sprintf(`Digest username="%s", realm="confer", nonce="%s", uri="%s", response="%s", algorithm=MD5, qop=auth, nc=00000001, cnonce="abc"`, *e164, m[1], uri, resp))
		guesses++
		if f := strings.Fields(r); len(f) > 1 {
			codes[f[1]]++
		} else {
			codes["no answer"]++
		}
	}
	fmt.Printf("%d digest guesses for %s in %v (%.0f/s): answers %v\n", guesses, *e164, *hold, float64(guesses)/hold.Seconds(), codes)
}

// redirect: the plain-HTTP listener asked with a Host of the attacker's.
func redirect() {
	req, _ := http.NewRequest("GET", *redirURL+"/console/", nil)
	req.Host = "evil.example"
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		panic(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	fmt.Printf("Host: evil.example -> %d %s\n", resp.StatusCode, resp.Header.Get("Location"))
}
