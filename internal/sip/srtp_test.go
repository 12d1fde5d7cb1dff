package sip_test

import (
	"encoding/base64"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"

	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/testserver"
)

// savpSDP is an SRTP-only PCMU offer (RFC 4568) on port with key.
func savpSDP(port int, key []byte) string {
	return fmt.Sprintf("v=0\no=srtp 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio %d RTP/SAVP 0\na=rtpmap:0 PCMU/8000\n"+
		"a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:%s\na=sendrecv\n", port, base64.StdEncoding.EncodeToString(key))
}

var cryptoLine = regexp.MustCompile(`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:([A-Za-z0-9+/=]+)`)

func srtpContext(t *testing.T, key []byte) *srtp.Context {
	t.Helper()
	c, err := srtp.CreateContext(key[:16], key[16:], srtp.ProtectionProfileAes128CmHmacSha1_80)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sendRTP sends PCMU packets from c to port every 20 ms until stop,
// through enc when set (SRTP); sent counts them.
func sendRTP(c *net.UDPConn, port int, ssrc uint32, enc *srtp.Context, sent *atomic.Int64, stop chan struct{}) {
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}
	pkt := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 0, SSRC: ssrc}, Payload: make([]byte, 160)}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		pkt.SequenceNumber, pkt.Timestamp = uint16(i), uint32(160*i)
		b, _ := pkt.Marshal()
		if enc != nil {
			b, _ = enc.EncryptRTP(nil, b, nil)
		}
		if _, err := c.WriteToUDP(b, to); err == nil {
			sent.Add(1)
		}
	}
}

// An SRTP-only terminal (RTP/SAVP with a=crypto, RFC 4568) is answered
// RTP/SAVP with a key of Confer's: its SRTP is decrypted into the
// conference, and it receives a plain RTP speaker's audio encrypted with
// Confer's key (issue 39 item 3).
func TestSRTPCaller(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })

	key := make([]byte, 30)
	for i := range key {
		key[i] = byte(i + 1)
	}
	b, bMedia := newPeer(t, e.addr()), listenUDP(t)
	res := b.callWith(conf, savpSDP(port(bMedia), key))
	if res.code() != 200 {
		t.Fatalf("SRTP INVITE: %s", res.first)
	}
	m := cryptoLine.FindStringSubmatch(res.body)
	if !strings.Contains(res.body, "RTP/SAVP") || m == nil {
		t.Fatalf("the answer is not SRTP:\n%s", res.body)
	}
	conferKey, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil || len(conferKey) != 30 {
		t.Fatalf("Confer's key %q: %v", m[1], err)
	}
	conferB, _ := strconv.Atoi(audioPort.FindStringSubmatch(res.body)[1])
	var sentB atomic.Int64
	go sendRTP(bMedia, conferB, 0xb0b, srtpContext(t, key), &sentB, stop)
	waitFor(t, "B's SRTP decrypted", func() bool { return e.ua.Stats().RTPReceived >= 10 })

	// A plain speaker's audio reaches B as SRTP under Confer's key.
	dec := srtpContext(t, conferKey)
	var decrypted atomic.Int64
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := bMedia.Read(buf)
			if err != nil {
				return
			}
			var h rtp.Header
			if out, err := dec.DecryptRTP(nil, buf[:n], &h); err == nil && len(out) > 12 && h.SSRC != 0 {
				decrypted.Add(1)
			}
		}
	}()
	a, aMedia := newPeer(t, e.addr()), listenUDP(t)
	resA := a.callWith(conf, audioSDP(port(aMedia), "sendrecv"))
	if resA.code() != 200 || strings.Contains(resA.body, "SAVP") {
		t.Fatalf("plain INVITE: %s\n%s", resA.first, resA.body)
	}
	conferA, _ := strconv.Atoi(audioPort.FindStringSubmatch(resA.body)[1])
	var sentA atomic.Int64
	go sendRTP(aMedia, conferA, 0xa11ce, nil, &sentA, stop)
	var mtA string
	waitFor(t, "A online", func() bool {
		for _, x := range e.mts(t, conf) {
			if online(x) && fmt.Sprint(x["mt_id"]) != "" && x["alias"] == "peer" {
				mtA = fmt.Sprint(x["mt_id"])
			}
		}
		return mtA != ""
	})
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mtA})))
	waitFor(t, "A's audio at B, decrypted with Confer's key", func() bool { return decrypted.Load() >= 10 })
	a.do("BYE", "", "")
	b.do("BYE", "", "")
}

// The policy: required refuses plain RTP (488) and takes SRTP; off
// refuses SRTP (488).
func TestSRTPPolicy(t *testing.T) {
	t.Parallel()
	key := make([]byte, 30)
	for _, tc := range []struct {
		policy      string
		savp, plain int
	}{
		{sip.SRTPRequired, 200, 488},
		{sip.SRTPOff, 488, 200},
	} {
		cfg := sipConfig()
		cfg.SRTP = tc.policy
		e := startEnv(t, cfg)
		conf := e.conf(t, nil)
		p := newPeer(t, e.addr())
		if got := p.callWith(conf, savpSDP(9, key)).code(); got != tc.savp {
			t.Errorf("%s: SRTP offer %d, want %d", tc.policy, got, tc.savp)
		}
		q := newPeer(t, e.addr())
		if got := q.callWith(conf, audioSDP(9, "sendrecv")).code(); got != tc.plain {
			t.Errorf("%s: plain offer %d, want %d", tc.policy, got, tc.plain)
		}
	}
}

// With SRTP required, Confer's own offer is RTP/SAVP with a key on every
// m-line; a terminal that answers SRTP is online.
func TestSRTPCallOut(t *testing.T) {
	t.Parallel()
	cfg := sipConfig()
	cfg.SRTP = sip.SRTPRequired
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	mt := e.addMt(t, conf, p.local, 7)
	inv := p.request("INVITE")
	if strings.Count(inv.body, "RTP/SAVP") != 3 || strings.Count(inv.body, "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:") != 3 {
		t.Fatalf("Confer's offer is not SRTP on every m-line:\n%s", inv.body)
	}
	p.answer(inv)
	key := make([]byte, 30)
	answer := savpSDP(9, key) + "m=video 0 RTP/SAVP 96\nm=video 0 RTP/SAVP 96\n"
	p.respond(inv, 200, "OK", "", answer)
	e.waitOnline(t, conf, mt, "the SRTP terminal online")
}
