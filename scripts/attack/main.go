// Command attack repeats the resource attacks of issue 20 (and those of
// issue 38, issue38.go) against a
// running conferd and prints what the server took: resident memory (from
// /proc/PID/status, so run it on the server's host), open descriptors, the
// time /healthz took meanwhile, and whether quotas held. docs/operations.md
// "Limits" gives the figures it measured.
//
//	go run ./scripts/attack --url http://127.0.0.1:8080 --pid $(pidof conferd) memory
//	go run ./scripts/attack --url ... --pid ... slow
//	go run ./scripts/attack --url ... --key K --secret S --user U --password P --other-user U2 --other-password P2 quota
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	base     = flag.String("url", "http://127.0.0.1:8080", "conferd's address")
	pid      = flag.Int("pid", 0, "conferd's process id (memory and descriptors)")
	n        = flag.Int("n", 60, "memory: concurrent bodies")
	size     = flag.Int64("size", 20<<20, "memory: bytes of each body's file part")
	conns    = flag.Int("conns", 2000, "slow: slow connections")
	hold     = flag.Duration("hold", 45*time.Second, "slow: how long to keep trickling")
	probe    = flag.String("probe-from", "127.0.0.2", "slow: local address of the /healthz probe (another client)")
	key      = flag.String("key", "", "quota: license key")
	secret   = flag.String("secret", "", "quota: license secret")
	user     = flag.String("user", "", "quota: the booking account (not an administrator)")
	password = flag.String("password", "", "quota: its password")
	other    = flag.String("other-user", "", "quota: an account of another user domain")
	otherPw  = flag.String("other-password", "", "quota: its password")
)

func main() {
	flag.Parse()
	switch flag.Arg(0) {
	case "memory":
		memory()
	case "slow":
		slow()
	case "quota":
		quota()
	case "slowbodies":
		slowBodies()
	case "csrf":
		csrf()
	case "lock":
		lock()
	case "unknownusers":
		unknownUsers()
	case "sipguess":
		sipGuess()
	case "redirect":
		redirect()
	case "ports":
		ports()
	case "nms":
		nmsLeak()
	default:
		fmt.Fprintln(os.Stderr, "usage: attack [flags] memory|slow|quota|slowbodies|csrf|lock|unknownusers|sipguess|redirect|ports|nms (issue 38: scripts/attack/issue38.go, shares.go)")
		os.Exit(2)
	}
}

// status reads a field of /proc/PID/status in MiB.
func status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", *pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb >> 10
		}
	}
	return -1
}

func fds() int {
	es, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", *pid))
	if err != nil {
		return -1
	}
	return len(es)
}

// sampler records the peak resident memory while f runs.
func sampler(f func()) (peak int64) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			if r := status("VmRSS"); r > peak {
				peak = r
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak
}

const boundary = "attack-boundary-0123456789"

// flood is a multipart body: a text field, then a file part of size bytes.
func flood(size int64) io.Reader {
	head := fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"oauth_consumer_key\"\r\n\r\nk\r\n--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n", boundary, boundary)
	tail := "\r\n--" + boundary + "--\r\n"
	return io.MultiReader(strings.NewReader(head), io.LimitReader(zeros{}, size), strings.NewReader(tail))
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func memory() {
	fmt.Printf("before: RSS %d MiB\n", status("VmRSS"))
	for _, path := range []string{"/api/v1/system/token", "/api/v1/mc/meeting_files/0123456789abcdef"} {
		codes := map[string]int{}
		var mu sync.Mutex
		peak := sampler(func() {
			var wg sync.WaitGroup
			for range *n {
				wg.Go(func() {
					req, _ := http.NewRequest("POST", *base+path, flood(*size))
					req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
					code := "transport error"
					if resp, err := http.DefaultClient.Do(req); err == nil {
						var env struct {
							ErrorCode int `json:"error_code"`
						}
						b, _ := io.ReadAll(resp.Body)
						resp.Body.Close()
						json.Unmarshal(b, &env)
						code = strconv.Itoa(env.ErrorCode)
					}
					mu.Lock()
					codes[code]++
					mu.Unlock()
				})
			}
			wg.Wait()
		})
		fmt.Printf("%d x %d MiB to %s: peak RSS %d MiB, replies %v\n", *n, *size>>20, path, peak, codes)
	}
	time.Sleep(5 * time.Second)
	fmt.Printf("5 s after: RSS %d MiB\n", status("VmRSS"))
}

func slow() {
	u, _ := url.Parse(*base)
	fmt.Printf("before: %d descriptors, RSS %d MiB\n", fds(), status("VmRSS"))
	var open, refused atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(*hold)
	for range *conns {
		wg.Go(func() {
			c, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
			if err != nil {
				refused.Add(1)
				return
			}
			defer c.Close()
			open.Add(1)
			defer open.Add(-1)
			fmt.Fprintf(c, "POST /api/v1/system/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n")
			for time.Now().Before(deadline) {
				if _, err := c.Write([]byte("a")); err != nil {
					return // closed by the server
				}
				c.SetReadDeadline(time.Now().Add(3 * time.Second))
				var b [1]byte
				if _, err := c.Read(b[:]); err != nil && !isTimeout(err) {
					return // answered or closed by the server
				} else if err == nil {
					return
				}
			}
		})
	}
	// Another client meanwhile.
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(*probe)}, Timeout: 5 * time.Second}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	var worst time.Duration
	failed := 0
	for time.Now().Before(deadline) {
		t0 := time.Now()
		resp, err := client.Get(*base + "/healthz")
		el := time.Since(t0)
		if err != nil {
			failed++
		} else {
			resp.Body.Close()
		}
		worst = max(worst, el)
		fmt.Printf("t+%2.0fs: slow connections still open %d, conferd descriptors %d, /healthz %v (err %v)\n",
			hold.Seconds()-time.Until(deadline).Seconds(), open.Load(), fds(), el.Round(time.Millisecond), err)
		time.Sleep(3 * time.Second)
	}
	wg.Wait()
	fmt.Printf("slowest /healthz %v, %d failed; dial refused %d; after: %d descriptors, RSS %d MiB\n", worst.Round(time.Millisecond), failed, refused.Load(), fds(), status("VmRSS"))
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// login returns a token and cookie.
func login(u, p string) (string, string) {
	r, err := http.PostForm(*base+"/api/v1/system/token", url.Values{"oauth_consumer_key": {*key}, "oauth_consumer_secret": {*secret}})
	if err != nil {
		panic(err)
	}
	var tok struct {
		Token string `json:"account_token"`
	}
	json.NewDecoder(r.Body).Decode(&tok)
	r.Body.Close()
	r, err = http.PostForm(*base+"/api/v1/system/login", url.Values{"account_token": {tok.Token}, "username": {u}, "password": {p}})
	if err != nil {
		panic(err)
	}
	r.Body.Close()
	for _, c := range r.Cookies() {
		if c.Name == "SSO_COOKIE_KEY" {
			return tok.Token, c.Value
		}
	}
	panic("login of " + u + " failed")
}

func create(token, cookie, name, start string) map[string]any {
	p := map[string]any{"create_type": 1, "name": name, "duration": 60, "bitrate": 2048, "max_join_mt": 8, "call_mode": 2,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 2048}}}
	if start != "" {
		p["start_time"] = start
	}
	b, _ := json.Marshal(p)
	req, _ := http.NewRequest("POST", *base+"/api/v1/mc/confs", strings.NewReader(url.Values{"account_token": {token}, "params": {string(b)}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return out
}

func quota() {
	tok, ck := login(*user, *password)
	start := time.Now().Add(24 * time.Hour).UTC().Format("2006-01-02T15:04:05+00:00")
	booked := 0
	var last map[string]any
	for i := range 100000 {
		last = create(tok, ck, fmt.Sprintf("attack %d", i), start)
		if last["success"] != float64(1) {
			break
		}
		booked++
	}
	fmt.Printf("%s booked %d conferences, then: %v %v\n", *user, booked, last["error_code"], last["description"])
	otok, ock := login(*other, *otherPw)
	r := create(otok, ock, "other domain", "")
	fmt.Printf("%s (another user domain) creates a conference: success %v %v %v\n", *other, r["success"], r["error_code"], r["description"])
}
