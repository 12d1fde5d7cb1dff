// Command confer-load drives a running conferd with a mix of API calls and
// reports throughput, latency percentiles and errors (docs/benchmarks.md).
//
//	confer-load --url http://127.0.0.1:8080 --key K --secret S --user admin --password P \
//	    --confs 100 --mts 4 --mix list=1 --list-count 20 -c 16 --duration 20s --bare
//
// It logs in, prepares a scenario (N conferences × M terminals called by IP
// address, which the simulated backend answers), waits until the terminals
// are online, then runs the mix with C concurrent workers for a duration or
// a count. --bare runs the same load against an in-process net/http handler
// that returns a body of the size of the first list reply, and prints the
// ratio of the two throughputs; with --bare-process that handler runs in a
// process of its own (this binary again), as a server measured with wrk
// does. --print-session prints the session and the scenario, for a load
// from wrk (scripts/api-ab.sh WRK=1, WRK=speaker).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/sdk"
)

type options struct {
	url, key, secret, user, password string
	confs, mts, maxJoin              int
	reuse, end                       bool
	mix                              string
	conc, prepConc                   int
	duration                         time.Duration
	count                            int
	listCount, addBatch              int
	bare, bareProcess, raw           bool
	printSession                     bool
	waitOnline                       time.Duration
	ipPrefix                         string
	capped                           bool // --duration bounds a --count run too (always when set explicitly)
}

func main() {
	if f := os.Getenv(bareEnv); f != "" { // the child of --bare-process
		if err := serveBare(f); err != nil {
			fmt.Fprintln(os.Stderr, "confer-load:", err)
			os.Exit(1)
		}
		return
	}
	var o options
	fs := flag.NewFlagSet("confer-load", flag.ExitOnError)
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "conferd base URL (loopback only)")
	fs.StringVar(&o.key, "key", os.Getenv("CONFER_KEY"), "license key, oauth_consumer_key (env CONFER_KEY)")
	fs.StringVar(&o.secret, "secret", os.Getenv("CONFER_SECRET"), "license secret (env CONFER_SECRET)")
	fs.StringVar(&o.user, "user", "admin", "account to log in as")
	fs.StringVar(&o.password, "password", os.Getenv("CONFER_PASSWORD"), "account password (env CONFER_PASSWORD)")
	fs.IntVar(&o.confs, "confs", 100, "running conferences in the scenario (N)")
	fs.IntVar(&o.mts, "mts", 4, "terminals per conference, called by IP address (M)")
	fs.IntVar(&o.maxJoin, "max-join-mt", 8, "max_join_mt of the conferences created: 8, 32, 64 or 192")
	fs.BoolVar(&o.reuse, "reuse", true, "use the running conferences already there (creating only the missing ones)")
	fs.BoolVar(&o.end, "end", false, "end the scenario's conferences when done")
	fs.StringVar(&o.mix, "mix", "list=1", "weighted mix of operations: list, speaker, add, login (a new session: token, login, first list; e.g. list=8,speaker=2)")
	fs.IntVar(&o.conc, "c", 16, "concurrent connections (workers)")
	fs.IntVar(&o.prepConc, "prepare-c", 4, "concurrent conference creations while preparing the scenario")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to run; with --count, an upper bound when given (else 10m)")
	fs.IntVar(&o.count, "count", 0, "number of requests to send in all (0: run for --duration)")
	fs.IntVar(&o.listCount, "list-count", 20, "count= of GET /api/v1/vc/confs")
	fs.IntVar(&o.addBatch, "add-batch", 10, "terminals per batch addition (POST /api/v1/vc/confs/{id}/mts)")
	fs.BoolVar(&o.raw, "raw", false, "send the load (not the login operation) with a hand-written HTTP/1.1 client over kept-alive connections, as wrk does, instead of net/http's (less of the shared CPU for the load generator)")
	fs.BoolVar(&o.bare, "bare", false, "also run the load against a bare in-process net/http handler returning a body of the list reply's size, and print the ratio")
	fs.BoolVar(&o.bareProcess, "bare-process", false, "with --bare, run the bare handler in a process of its own (this binary again), as a server measured with wrk runs, rather than in the load generator's")
	fs.BoolVar(&o.printSession, "print-session", false, "print the session's account_token and SSO_COOKIE_KEY, and each conference's id and terminals (for a load from wrk: scripts/api-ab.sh WRK=1)")
	fs.DurationVar(&o.waitOnline, "wait-online", 60*time.Second, "how long to wait for the scenario's terminals to come online")
	fs.StringVar(&o.ipPrefix, "ip-prefix", "10.77", "first two octets of the terminals' IP addresses (a terminal is online in one conference at a time: a run beside another's unended scenario needs its own)")
	fs.Parse(os.Args[1:])
	o.capped = o.count == 0
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "duration" {
			o.capped = true
		}
	})
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "confer-load:", err)
		os.Exit(1)
	}
}

// out receives the report (a test replaces it).
var out io.Writer = os.Stdout

type scenario struct {
	token, cookie string
	confs         []string   // conf_ids
	mtIDs         [][]string // per conference
	added         []atomic.Int64
}

func run(o options) error {
	u, err := url.Parse(o.url)
	if err != nil {
		return err
	}
	if h := u.Hostname(); h != "127.0.0.1" && h != "localhost" && h != "::1" {
		return fmt.Errorf("--url must be a loopback address, not %q", h)
	}
	if o.duration > 10*time.Minute {
		return errors.New("--duration is capped at 10m")
	}
	mix, err := parseMix(o.mix)
	if err != nil {
		return err
	}
	ctx := context.Background()
	tr := &http.Transport{MaxIdleConns: o.conc * 2, MaxIdleConnsPerHost: o.conc * 2, MaxConnsPerHost: o.conc,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second}).DialContext}
	hc := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	c, err := sdk.New(o.url, sdk.WithLicense(o.key, o.secret), sdk.WithAccount(o.user, o.password), sdk.WithHTTPClient(hc))
	if err != nil {
		return err
	}
	if _, err := c.Login(ctx); err != nil {
		return fmt.Errorf("login: %w", err)
	}
	sc := &scenario{}
	sc.token, sc.cookie = c.Session()
	t0 := time.Now()
	if err := prepare(ctx, c, o, sc); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	fmt.Fprintf(out, "scenario: %d conferences x %d terminals ready in %v\n", len(sc.confs), o.mts, time.Since(t0).Round(time.Millisecond))
	if o.printSession {
		sc.printSession()
	}
	if o.end {
		defer func() {
			for _, id := range sc.confs {
				_, _ = c.MCConfsDelete(ctx, id)
			}
		}()
	}

	base := strings.TrimRight(o.url, "/")
	var sample []byte
	if mix["list"] > 0 || o.bare {
		// One list reply: its size is the bare handler's body size.
		resp, err := hc.Do(sc.request(base, "list", 0, o))
		if err != nil {
			return err
		}
		sample, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Fprintf(out, "list reply: %d bytes\n", len(sample))
	}
	fmt.Fprintf(out, "load: mix %s, %d workers, %s, %s client\n", o.mix, o.conc, limitString(o), clientName(o))
	sendTo := func(addr string, hc *http.Client) func(*http.Request) ([]byte, error) {
		if o.raw {
			return newRawClient(addr, o.conc).do
		}
		return func(req *http.Request) ([]byte, error) { return send(hc, req) }
	}
	do := sendTo(u.Host, hc)
	cpu0 := cpuTime()
	res := drive(o, mix, func(op string, i int) ([]byte, error) {
		if op == "login" {
			return sc.session(hc, base, o)
		}
		return do(sc.request(base, op, i, o))
	}, sc.ok)
	res.print("confer")
	res.printCPU(cpuTime() - cpu0)
	if o.bare {
		if len(sample) == 0 {
			return errors.New("--bare needs a list reply sample")
		}
		bs, err := startBare(sample, o.bareProcess)
		if err != nil {
			return err
		}
		defer bs.stop()
		bbase := "http://" + bs.addr
		btr := &http.Transport{MaxIdleConns: o.conc * 2, MaxIdleConnsPerHost: o.conc * 2, MaxConnsPerHost: o.conc}
		bhc := &http.Client{Transport: btr, Timeout: 30 * time.Second}
		bdo := sendTo(bs.addr, bhc)
		cpu0 := cpuTime()
		var bcpu0 time.Duration
		if bs.cpu != nil {
			bcpu0 = bs.cpu()
		}
		bres := drive(o, map[string]int{"list": 1}, func(op string, i int) ([]byte, error) { return bdo(sc.request(bbase, "list", i, o)) },
			func(string, []byte) bool { return true })
		bres.print("bare")
		bres.printCPU(cpuTime() - cpu0)
		if n, _ := bres.total(); n > 0 && bs.cpu != nil {
			fmt.Fprintf(out, "  bare handler (a process of its own) cpu: %.0f us a request\n", float64((bs.cpu()-bcpu0).Microseconds())/float64(n))
		}
		if bres.rps() > 0 {
			fmt.Fprintf(out, "ratio confer/bare: %.2f\n", res.rps()/bres.rps())
		}
	}
	return nil
}

func clientName(o options) string {
	if o.raw {
		return "raw"
	}
	return "net/http"
}

// printCPU reports the load generator's CPU a request (with --bare, the
// bare handler's is in it too).
func (r *result) printCPU(cpu time.Duration) {
	if n, _ := r.total(); n > 0 && cpu > 0 {
		fmt.Fprintf(out, "  client cpu: %.0f us a request\n", float64(cpu.Microseconds())/float64(n))
	}
}

func limitString(o options) string {
	if o.count > 0 {
		return fmt.Sprintf("%d requests", o.count)
	}
	return o.duration.String()
}

func parseMix(s string) (map[string]int, error) {
	m := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		w := 1
		if ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("--mix: bad weight in %q", part)
			}
			w = n
		}
		switch k {
		case "list", "speaker", "add", "login":
			m[k] += w
		default:
			return nil, fmt.Errorf("--mix: unknown operation %q (list, speaker, add, login)", k)
		}
	}
	return m, nil
}

// prepare makes N running conferences of M terminals and waits until the
// terminals are online.
func prepare(ctx context.Context, c *sdk.Client, o options, sc *scenario) error {
	if o.reuse {
		all := 0
		l, err := c.VCConfsList(ctx, &sdk.VCConfsListRequest{Count: &all})
		if err != nil {
			return err
		}
		for _, cf := range l.Confs {
			if len(sc.confs) < o.confs {
				sc.confs = append(sc.confs, cf.ConfID)
			}
		}
	}
	if err := create(ctx, c, o, sc); err != nil {
		return err
	}
	sc.mtIDs = make([][]string, len(sc.confs))
	sc.added = make([]atomic.Int64, len(sc.confs))
	deadline := time.Now().Add(o.waitOnline)
	for i, id := range sc.confs {
		for {
			l, err := c.VCConfsMtsList(ctx, id)
			if err != nil {
				return fmt.Errorf("terminals of %s: %w", id, err)
			}
			var online []string
			for _, mt := range l.Mts {
				if mt.Online == 1 {
					online = append(online, mt.MtID)
				}
			}
			if len(online) >= o.mts || time.Now().After(deadline) {
				if len(online) == 0 && needsSpeaker(o.mix) {
					return fmt.Errorf("conference %s has no online terminal after %v", id, o.waitOnline)
				}
				sc.mtIDs[i] = online
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	return nil
}

// create makes the missing conferences with --prepare-c concurrent
// creations; each conference invites its M terminals at creation.
func create(ctx context.Context, c *sdk.Client, o options, sc *scenario) error {
	first := len(sc.confs)
	ids := make([]string, o.confs-first)
	next := atomic.Int64{}
	next.Store(int64(first))
	errc := make(chan error, max(o.prepConc, 1))
	var wg sync.WaitGroup
	for w := 0; w < max(o.prepConc, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= o.confs {
					return
				}
				req := &sdk.MCConfsCreateRequest{Name: sdk.String(fmt.Sprintf("load %d", i)), Duration: sdk.Int(0),
					Bitrate: sdk.Int(2048), CallMode: sdk.Int(2), MaxJoinMt: sdk.Int(o.maxJoin)}
				for j := 0; j < o.mts; j++ {
					req.InviteMembers = append(req.InviteMembers, sdk.MCConfsCreateRequestInviteMember{
						Name: fmt.Sprintf("mt %d.%d", i, j), Account: mtAddress(o, i, j), AccountType: 7})
				}
				r, err := c.MCConfsCreate(ctx, req)
				if err != nil {
					errc <- fmt.Errorf("conference %d: %w", i, err)
					next.Store(int64(o.confs)) // stop the other workers
					return
				}
				ids[i-first] = r.ConfID
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errc:
		return err
	default:
	}
	sc.confs = append(sc.confs, ids...)
	return nil
}

// mtAddress is the IP address of terminal j of conference i: distinct for
// up to 64,000 terminals (250 per third octet).
func mtAddress(o options, i, j int) string {
	n := i*o.mts + j
	return fmt.Sprintf("%s.%d.%d", o.ipPrefix, n/250, 1+n%250)
}

func needsSpeaker(mix string) bool { return strings.Contains(mix, "speaker") }

var mtSeq atomic.Int64

// printSession prints the session and the scenario for a load from
// another client (scripts/api-ab.sh WRK=1): the account_token, the
// SSO_COOKIE_KEY, then a line per conference, its id and its terminals'.
func (sc *scenario) printSession() {
	fmt.Fprintf(out, "account_token: %s\nSSO_COOKIE_KEY: %s\n", sc.token, sc.cookie)
	for k, id := range sc.confs {
		fmt.Fprintf(out, "conf: %s %s\n", id, strings.Join(sc.mtIDs[k], " "))
	}
}

// request builds the i-th request of operation op.
func (sc *scenario) request(base, op string, i int, o options) *http.Request {
	var req *http.Request
	switch op {
	case "list":
		req, _ = http.NewRequest("GET", base+"/api/v1/vc/confs?count="+strconv.Itoa(o.listCount)+"&account_token="+url.QueryEscape(sc.token), nil)
	case "speaker":
		k := i % len(sc.confs)
		ids := sc.mtIDs[k]
		mt := ""
		if len(ids) > 0 {
			mt = ids[(i/len(sc.confs))%len(ids)]
		}
		body := url.Values{"account_token": {sc.token}, "params": {`{"mt_id":"` + mt + `"}`}}.Encode()
		req, _ = http.NewRequest("PUT", base+"/api/v1/vc/confs/"+sc.confs[k]+"/speaker", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case "add":
		k := i % len(sc.confs)
		var b strings.Builder
		b.WriteString(`{"mts":[`)
		for j := 0; j < o.addBatch; j++ {
			n := mtSeq.Add(1)
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"account":"10.%d.%d.%d","account_type":7,"bitrate":2048,"protocol":0}`, 200+(n>>16)%50, (n>>8)&255, n&255)
		}
		b.WriteString(`]}`)
		body := url.Values{"account_token": {sc.token}, "params": {b.String()}}.Encode()
		req, _ = http.NewRequest("POST", base+"/api/v1/vc/confs/"+sc.confs[k]+"/mts", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: sc.cookie})
	return req
}

// session is the login operation: a new session as a client makes it,
// POST /api/v1/system/token with the license's key and secret, POST
// /api/v1/system/login with the account's password, then the first
// authenticated call, GET /api/v1/vc/confs (reference 03 "token获取",
// "登陆"). It returns the last reply, or the failing step's.
func (sc *scenario) session(hc *http.Client, base string, o options) ([]byte, error) {
	form := func(path string, v url.Values) *http.Request {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return req
	}
	body, err := send(hc, form("/api/v1/system/token", url.Values{"oauth_consumer_key": {o.key}, "oauth_consumer_secret": {o.secret}}))
	if err != nil {
		return body, err
	}
	var tok struct {
		Token string `json:"account_token"`
	}
	if json.Unmarshal(body, &tok) != nil || tok.Token == "" {
		return body, fmt.Errorf("token: %.200s", body)
	}
	resp, err := hc.Do(form("/api/v1/system/login", url.Values{"account_token": {tok.Token}, "username": {o.user}, "password": {o.password}}))
	if err != nil {
		return nil, err
	}
	body, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	cookie := ""
	for _, c := range resp.Cookies() {
		if c.Name == "SSO_COOKIE_KEY" {
			cookie = c.Value
		}
	}
	if err != nil || cookie == "" || !sc.ok("login", body) {
		return body, fmt.Errorf("login: %v %.200s", err, body)
	}
	req, _ := http.NewRequest("GET", base+"/api/v1/vc/confs?count="+strconv.Itoa(o.listCount)+"&account_token="+url.QueryEscape(tok.Token), nil)
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
	return send(hc, req)
}

// ok tells whether a reply is a success envelope.
func (sc *scenario) ok(op string, body []byte) bool {
	return strings.Contains(string(body[:min(len(body), 64)]), `"success":1`)
}

type result struct {
	op      map[string]*opStats
	elapsed time.Duration
}

type opStats struct {
	lat    []time.Duration
	errs   int
	sample string
}

func (r *result) total() (n, errs int) {
	for _, s := range r.op {
		n += len(s.lat)
		errs += s.errs
	}
	return
}

func (r *result) rps() float64 {
	n, _ := r.total()
	return float64(n) / r.elapsed.Seconds()
}

func (r *result) print(name string) {
	n, errs := r.total()
	fmt.Fprintf(out, "%s: %d requests in %v: %.0f req/s, %d errors\n", name, n, r.elapsed.Round(time.Millisecond), r.rps(), errs)
	ops := make([]string, 0, len(r.op))
	for k := range r.op {
		ops = append(ops, k)
	}
	sort.Strings(ops)
	for _, k := range ops {
		s := r.op[k]
		l := s.lat
		if len(l) == 0 {
			continue
		}
		sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
		p := func(q float64) time.Duration { return l[min(len(l)-1, int(q*float64(len(l))))] }
		fmt.Fprintf(out, "  %-8s n=%d %.0f/s errors=%d p50=%v p90=%v p99=%v max=%v\n", k, len(l), float64(len(l))/r.elapsed.Seconds(), s.errs,
			p(0.50).Round(time.Microsecond), p(0.90).Round(time.Microsecond), p(0.99).Round(time.Microsecond), l[len(l)-1].Round(time.Microsecond))
		if s.sample != "" {
			fmt.Fprintf(out, "    first error: %s\n", s.sample)
		}
	}
}

// send sends one request and returns the body of its reply, an error for
// a failed exchange or an HTTP status other than 200.
func send(hc *http.Client, req *http.Request) ([]byte, error) {
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return body, err
}

// drive runs the mix with o.conc workers until o.count operations or
// o.duration; do performs the i-th operation op and returns the body of
// its last reply.
func drive(o options, mix map[string]int, do func(op string, i int) ([]byte, error), ok func(op string, body []byte) bool) *result {
	var wheel []string
	for _, k := range []string{"list", "speaker", "add", "login"} {
		for j := 0; j < mix[k]; j++ {
			wheel = append(wheel, k)
		}
	}
	var next atomic.Int64
	limit := o.duration
	if !o.capped {
		limit = 10 * time.Minute
	}
	deadline := time.Now().Add(limit)
	per := make([]map[string]*opStats, o.conc)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < o.conc; w++ {
		per[w] = map[string]*opStats{}
		wg.Add(1)
		go func(st map[string]*opStats) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if o.count > 0 && i >= o.count || time.Now().After(deadline) {
					return
				}
				op := wheel[i%len(wheel)]
				s := st[op]
				if s == nil {
					s = &opStats{}
					st[op] = s
				}
				t := time.Now()
				body, err := do(op, i/len(wheel))
				s.lat = append(s.lat, time.Since(t))
				if err != nil || !ok(op, body) {
					s.errs++
					if s.sample == "" {
						if err != nil {
							s.sample = err.Error()
						} else {
							s.sample = string(body[:min(len(body), 200)])
						}
					}
				}
			}
		}(per[w])
	}
	wg.Wait()
	res := &result{op: map[string]*opStats{}, elapsed: time.Since(start)}
	for _, st := range per {
		for k, s := range st {
			a := res.op[k]
			if a == nil {
				a = &opStats{}
				res.op[k] = a
			}
			a.lat = append(a.lat, s.lat...)
			a.errs += s.errs
			if a.sample == "" {
				a.sample = s.sample
			}
		}
	}
	return res
}
