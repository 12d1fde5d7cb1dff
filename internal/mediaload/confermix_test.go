package mediaload

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
)

// TestMixEndToEndFigures measures the mixing workload end to end, side by
// side in one run (docs/benchmarks.md "Mixed audio"): one room of 50
// participants, 4 of them talking (Opus tones) and 46 sending encoded
// silence, each receiving its mix, first through Janus's AudioBridge (50
// pion WebRTC participants, as TestAudioBridgeFigures) and then through a
// conferd process built from this tree (50 SIP calls on loopback offering
// Opus only, so that each call is a mixed endpoint hearing its N−1 mix in
// Opus). It reports each server process's CPU per mixed participant over
// the same span. Neither side's packets carry an RFC 6464 level: every
// participant is decoded, on both. Run with CONFER_MIX_BENCH=1; without
// Janus installed (or with CONFER_MIX_BENCH_JANUS=0) only Confer's side
// runs.
//
//	CONFER_MIX_BENCH=1 go test ./internal/mediaload -run TestMixEndToEndFigures -timeout 20m -v
func TestMixEndToEndFigures(t *testing.T) {
	if os.Getenv("CONFER_MIX_BENCH") == "" {
		t.Skip("a figure, not a test: CONFER_MIX_BENCH=1 runs it")
	}
	janus := -1.0
	if _, err := exec.LookPath("janus"); err != nil {
		t.Log("janus not found (Debian package janus): Confer's side only")
	} else if os.Getenv("CONFER_MIX_BENCH_JANUS") != "0" {
		janus = audioBridgeRun(t)
	}
	confer := conferMixRun(t)
	if janus >= 0 {
		t.Logf("CPU per mixed participant: Confer %.3f %% of a core, Janus AudioBridge %.3f %% (Confer/Janus %.2f)", confer, janus, confer/janus)
	}
}

// conferMixRun starts a conferd of this tree, calls one of its
// conferences 50 times over SIP and returns conferd's CPU per mixed
// participant, in percent of a core.
func conferMixRun(t *testing.T) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "conferd")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/conferd")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/conferd: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "c.db")
	for _, args := range [][]string{
		{"license", "import", "--db", db, "--create", "--key", "mix-key", "--secret", "mix-secret-0123456789"},
		{"account", "create", "--db", db, "--username", "mix", "--password", "Mix-pass-2026", "--admin"},
	} {
		if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("conferd %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	httpPort, sipPort := freePort(t, "tcp"), freePort(t, "udp")
	rtpLo := 30000 + 2*rand.IntN(10000)
	logf, err := os.Create(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "--addr", "127.0.0.1:"+strconv.Itoa(httpPort), "--db", db, "--max-ports", "1000",
		"--sip-addr", "127.0.0.1:"+strconv.Itoa(sipPort), "--sip-rtp-ports", fmt.Sprintf("%d-%d", rtpLo, rtpLo+400),
		"--sip-rate", "10000", "--rtc-udp-port", "0", "--rtc-tcp-port", "-1")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(httpPort)
	conf := conferConference(ctx, t, base)

	talk, silence := mixPackets(t)
	sipAddr := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: sipPort}
	calls := make([]*sipCall, mixParticipants)
	for i := range calls {
		c, err := dialSIP(ctx, sipAddr, conf, i)
		if err != nil {
			t.Fatalf("call %d: %v (conferd's log: %s)", i, err, filepath.Join(dir, "log"))
		}
		defer c.hangUp()
		calls[i] = c
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			for i, c := range calls {
				p := silence
				if i < mixTalkers {
					p = talk[i][k%len(talk[i])]
				}
				c.sendRTP(uint16(k), uint32(k)*960, p)
			}
		}
	}()
	time.Sleep(mixWarmup) // every call connected and mixed
	var rx0 int64
	for _, c := range calls {
		rx0 += c.received.Load()
	}
	c0, err := ProcCPU(cmd.Process.Pid, false)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(mixSpan)
	c1, _ := ProcCPU(cmd.Process.Pid, false)
	var rx1 int64
	hearing := 0
	for _, c := range calls {
		rx1 += c.received.Load()
		if c.received.Load() > 0 {
			hearing++
		}
	}
	close(stop)
	<-done
	pct := float64(c1-c0) / float64(mixSpan) * 100
	t.Logf("Confer (conferd, SIP on loopback), %d calls (%d receiving their mix, %.0f mixed packets a second in all of %d sent), %d talking: %.1f %% of a core, %.3f %% per mixed participant (load %s)",
		mixParticipants, hearing, float64(rx1-rx0)/mixSpan.Seconds(), 50*mixParticipants, mixTalkers, pct, pct/mixParticipants, LoadAvg())
	if hearing < mixParticipants {
		t.Errorf("%d of %d calls received their mix", hearing, mixParticipants)
	}
	return pct / mixParticipants
}

func freePort(t *testing.T, network string) int {
	if network == "udp" {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// conferConference logs in to a fresh conferd (scripts/media-bench.sh's
// way) and creates a conference; it returns its id.
func conferConference(ctx context.Context, t *testing.T, base string) string {
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	post := func(path string, form url.Values) map[string]any {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "POST", base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("API-Level", "3")
		res, err := hc.Do(req)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		defer res.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
			t.Fatalf("POST %s: %d, %v", path, res.StatusCode, err)
		}
		return m
	}
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) { // conferd starting
		res, err := http.Get(base + "/api/vc/version")
		if err == nil {
			res.Body.Close()
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("conferd did not answer: %v", err)
		}
	}
	tok, _ := post("/api/v1/system/token", url.Values{"oauth_consumer_key": {"mix-key"}, "oauth_consumer_secret": {"mix-secret-0123456789"}})["account_token"].(string)
	if tok == "" {
		t.Fatal("no account_token")
	}
	post("/api/v1/system/login", url.Values{"account_token": {tok}, "username": {"mix"}, "password": {"Mix-pass-2026"}})
	m := post("/api/v1/mc/confs", url.Values{"account_token": {tok},
		"params": {`{"create_type":1,"name":"mix","bitrate":1024,"max_join_mt":192,"duration":0}`}})
	id, _ := m["conf_id"].(string)
	if id == "" {
		t.Fatalf("creating the conference: %v", m)
	}
	return id
}

// sipCall is one SIP call into a conference over UDP, offering Opus only,
// with its RTP socket: it sends the packets it is given and counts the
// mixed packets it receives.
type sipCall struct {
	sig      *net.UDPConn
	media    *net.UDPConn
	peer     *net.UDPAddr // Confer's RTP address (its SDP answer)
	confer   *net.UDPAddr // its SIP address
	ssrc     uint32
	received atomic.Int64

	callID, fromTag, toTag, target, conf string
	cseq                                 int
}

func dialSIP(ctx context.Context, confer *net.UDPAddr, conf string, i int) (*sipCall, error) {
	sig, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	media, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		sig.Close()
		return nil, err
	}
	c := &sipCall{sig: sig, media: media, confer: confer, ssrc: rand.Uint32(), conf: conf, callID: fmt.Sprintf("mix-%d-%d", i, rand.IntN(1e9)),
		fromTag: strconv.Itoa(rand.IntN(1e9)), cseq: 1}
	if err := c.invite(ctx, confer, i); err != nil {
		c.close()
		return nil, err
	}
	go c.readSIP()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := media.Read(buf)
			if err != nil {
				return
			}
			var h rtp.Header
			if _, err := h.Unmarshal(buf[:n]); err == nil && h.PayloadType == 111 {
				c.received.Add(1)
			}
		}
	}()
	return c, nil
}

func (c *sipCall) local() string { return c.sig.LocalAddr().String() }

func (c *sipCall) invite(ctx context.Context, confer *net.UDPAddr, i int) error {
	mport := c.media.LocalAddr().(*net.UDPAddr).Port
	sdp := "v=0\r\no=mix 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio " + strconv.Itoa(mport) +
		" RTP/AVP 111\r\na=rtpmap:111 opus/48000/2\r\na=fmtp:111 useinbandfec=1\r\na=sendrecv\r\n"
	c.target = "sip:" + c.conf + "@" + confer.String()
	invite := "INVITE " + c.target + " SIP/2.0\r\nVia: SIP/2.0/UDP " + c.local() + ";branch=z9hG4bK" + strconv.Itoa(rand.IntN(1e9)) + ";rport\r\n" +
		"From: <sip:mix" + strconv.Itoa(i) + "@" + c.local() + ">;tag=" + c.fromTag + "\r\nTo: <" + c.target + ">\r\nCall-ID: " + c.callID +
		"\r\nCSeq: 1 INVITE\r\nContact: <sip:mix" + strconv.Itoa(i) + "@" + c.local() + ">\r\nMax-Forwards: 70\r\n" +
		"Content-Type: application/sdp\r\nContent-Length: " + strconv.Itoa(len(sdp)) + "\r\n\r\n" + sdp
	buf := make([]byte, 16384)
	for try := 0; try < 10; try++ { // UDP: retransmitted until a response (RFC 3261 timer A, simplified)
		if _, err := c.sig.WriteTo([]byte(invite), confer); err != nil {
			return err
		}
		deadline := time.Now().Add(2 * time.Second)
		for {
			_ = c.sig.SetReadDeadline(deadline)
			n, err := c.sig.Read(buf)
			if err != nil {
				break // retransmit
			}
			code, hdr, body := parseSIP(string(buf[:n]))
			if code < 200 {
				deadline = time.Now().Add(30 * time.Second) // ringing: wait for the final response
				continue
			}
			if code >= 300 {
				return fmt.Errorf("INVITE answered %d", code)
			}
			c.toTag = tagOf(hdr["to"])
			if ct := hdr["contact"]; ct != "" {
				c.target = strings.Trim(strings.SplitN(ct, ";", 2)[0], "<> ")
				if i := strings.IndexByte(c.target, '>'); i >= 0 {
					c.target = c.target[:i]
				}
			}
			if c.peer, err = sdpAudio(body); err != nil {
				return err
			}
			_ = c.sig.SetReadDeadline(time.Time{})
			return c.send("ACK", 1, confer)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return fmt.Errorf("no final response to the INVITE")
}

func (c *sipCall) send(method string, cseq int, to *net.UDPAddr) error {
	msg := method + " " + c.target + " SIP/2.0\r\nVia: SIP/2.0/UDP " + c.local() + ";branch=z9hG4bK" + strconv.Itoa(rand.IntN(1e9)) + ";rport\r\n" +
		"From: <sip:mix@" + c.local() + ">;tag=" + c.fromTag + "\r\nTo: <sip:" + c.conf + "@" + to.String() + ">;tag=" + c.toTag +
		"\r\nCall-ID: " + c.callID + "\r\nCSeq: " + strconv.Itoa(cseq) + " " + method + "\r\nMax-Forwards: 70\r\nContent-Length: 0\r\n\r\n"
	_, err := c.sig.WriteTo([]byte(msg), to)
	return err
}

// readSIP answers Confer's in-dialog requests (a session refresh, an
// OPTIONS) 200 without a body, and drops retransmitted responses.
func (c *sipCall) readSIP() {
	buf := make([]byte, 16384)
	for {
		n, from, err := c.sig.ReadFromUDP(buf)
		if err != nil {
			return
		}
		s := string(buf[:n])
		if strings.HasPrefix(s, "SIP/2.0 ") {
			continue
		}
		_, hdr, _ := parseSIP(s)
		var b strings.Builder
		b.WriteString("SIP/2.0 200 OK\r\n")
		for _, v := range strings.Split(hdr["via*"], "\x00") {
			b.WriteString("Via: " + v + "\r\n")
		}
		b.WriteString("From: " + hdr["from"] + "\r\nTo: " + hdr["to"] + "\r\nCall-ID: " + hdr["call-id"] + "\r\nCSeq: " + hdr["cseq"] + "\r\nContent-Length: 0\r\n\r\n")
		_, _ = c.sig.WriteToUDP([]byte(b.String()), from)
	}
}

func (c *sipCall) sendRTP(seq uint16, ts uint32, payload []byte) {
	p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: ts, SSRC: c.ssrc}, Payload: payload}
	b, err := p.Marshal()
	if err == nil {
		_, _ = c.media.WriteToUDP(b, c.peer)
	}
}

func (c *sipCall) hangUp() {
	c.cseq++
	_ = c.send("BYE", c.cseq, c.confer)
	c.close()
}

func (c *sipCall) close() {
	c.sig.Close()
	c.media.Close()
}

// parseSIP splits a SIP message: the status code of a response (0 for a
// request), the headers by lower-case name (compact forms expanded; every
// Via under "via*" too) and the body.
func parseSIP(s string) (code int, hdr map[string]string, body string) {
	head, body, _ := strings.Cut(s, "\r\n\r\n")
	sc := bufio.NewScanner(strings.NewReader(head))
	hdr = map[string]string{}
	vias := []string{}
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if f := strings.Fields(line); len(f) > 1 && f[0] == "SIP/2.0" {
				code, _ = strconv.Atoi(f[1])
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "v":
			k = "via"
		case "f":
			k = "from"
		case "t":
			k = "to"
		case "i":
			k = "call-id"
		case "m":
			k = "contact"
		}
		if k == "via" {
			vias = append(vias, v)
		}
		if _, ok := hdr[k]; !ok {
			hdr[k] = v
		}
	}
	hdr["via*"] = strings.Join(vias, "\x00")
	return code, hdr, body
}

func tagOf(v string) string {
	for _, p := range strings.Split(v, ";") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(p), "tag="); ok {
			return t
		}
	}
	return ""
}

// sdpAudio is the RTP address of an SDP's audio line.
func sdpAudio(sdp string) (*net.UDPAddr, error) {
	var ip net.IP
	port := 0
	for _, line := range strings.Split(sdp, "\n") {
		line = strings.TrimSpace(line)
		if a, ok := strings.CutPrefix(line, "c=IN IP4 "); ok && ip == nil {
			ip = net.ParseIP(a)
		}
		if m, ok := strings.CutPrefix(line, "m=audio "); ok {
			port, _ = strconv.Atoi(strings.Fields(m)[0])
		}
	}
	if ip == nil || port == 0 {
		return nil, fmt.Errorf("no audio address in the answer:\n%s", sdp)
	}
	return &net.UDPAddr{IP: ip, Port: port}, nil
}
