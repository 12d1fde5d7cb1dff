package sip_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/testserver"
)

// selfSigned is a certificate for 127.0.0.1 and the pool that trusts it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "confer test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert}, pool
}

var audioPort = regexp.MustCompile(`m=audio (\d+) `)

// SIP over TLS: a sipgo terminal REGISTERs over TLS with digest, dials
// into a conference over TLS (Confer's Contact names the TLS port and
// transport=tls; its RTP is bridged as usual), and is then called by its
// E.164 number over the connection of its registration (docs/sip.md
// "TLS").
func TestTLS(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	cfg := sipConfig()
	cfg.TLS, cfg.TLSAddr = &tls.Config{Certificates: []tls.Certificate{cert}}, "127.0.0.1:0"
	e := startEnv(t, cfg)
	ta := e.ua.TLSAddr()
	if ta == nil || ta.Port == 0 || ta.Port == e.ua.Addr().Port {
		t.Fatalf("TLS address %v (UDP %v)", ta, e.ua.Addr())
	}
	e.createAccount(t, "tlsroom", "5552001", "tls.pw.1")

	ua, err := sipgo.NewUA(sipgo.WithUserAgent("tls-terminal"), sipgo.WithUserAgenTLSConfig(&tls.Config{RootCAs: pool}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ua.Close() })
	cli, err := sipgo.NewClient(ua, sipgo.WithClientHostname("127.0.0.1"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sipgo.NewServer(ua)
	if err != nil {
		t.Fatal(err)
	}
	tlsParams := func() sip.HeaderParams { p := sip.NewParams(); p.Add("transport", "tls"); return p }
	confer := func(user string) sip.Uri {
		return sip.Uri{Scheme: "sip", User: user, Host: "127.0.0.1", Port: ta.Port, UriParams: tlsParams()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// REGISTER over TLS with digest.
	reg := sip.NewRequest(sip.REGISTER, sip.Uri{Scheme: "sip", Host: "127.0.0.1", Port: ta.Port, UriParams: tlsParams()})
	aor := sip.Uri{Scheme: "sip", User: "5552001", Host: "127.0.0.1"}
	from := sip.FromHeader{Address: aor, Params: sip.NewParams()}
	from.Params.Add("tag", sip.GenerateTagN(8))
	reg.AppendHeader(&from)
	reg.AppendHeader(&sip.ToHeader{Address: aor})
	ct := sip.ContactHeader{Address: sip.Uri{Scheme: "sip", User: "5552001", Host: "127.0.0.1", UriParams: tlsParams()}}
	reg.AppendHeader(&ct)
	reg.AppendHeader(sip.NewHeader("Expires", "600"))
	res, err := cli.Do(ctx, reg)
	if err != nil || res.StatusCode != 401 {
		t.Fatalf("REGISTER: %v %v", res, err)
	}
	res, err = cli.DoDigestAuth(ctx, reg, res, sipgo.DigestAuth{Username: "5552001", Password: "tls.pw.1"})
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("REGISTER with digest: %v %v", res, err)
	}
	if r, ok := e.ua.Registered(ctx, "5552001"); !ok || r.Transport != "TLS" {
		t.Fatalf("registration %+v %v", r, ok)
	}

	// Dial into a conference over TLS; RTP is bridged as usual.
	conf := e.conf(t, nil)
	rtpConn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer rtpConn.Close()
	sdp := "v=0\r\no=t 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio " +
		strconv.Itoa(rtpConn.LocalAddr().(*net.UDPAddr).Port) + " RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n"
	inv := sip.NewRequest(sip.INVITE, confer(conf))
	ifrom := sip.FromHeader{DisplayName: "TLS Room", Address: aor, Params: sip.NewParams()}
	ifrom.Params.Add("tag", sip.GenerateTagN(8))
	inv.AppendHeader(&ifrom)
	inv.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	inv.SetBody([]byte(sdp))
	dua := &sipgo.DialogUA{Client: cli, ContactHDR: ct}
	dcs, err := dua.WriteInvite(ctx, inv)
	if err != nil {
		t.Fatal(err)
	}
	if err := dcs.WaitAnswer(ctx, sipgo.AnswerOptions{}); err != nil {
		t.Fatalf("INVITE over TLS: %v", err)
	}
	if err := dcs.Ack(ctx); err != nil {
		t.Fatal(err)
	}
	c := dcs.InviteResponse.Contact()
	if c == nil || c.Address.Port != ta.Port || !strings.Contains(c.Address.String(), "transport=tls") {
		t.Fatalf("Contact of the 200 over TLS: %v", c)
	}
	waitFor(t, "the TLS caller online", func() bool { m := e.mtByAlias(t, conf, "TLS Room"); return m != nil && online(m) })
	m := audioPort.FindStringSubmatch(string(dcs.InviteResponse.Body()))
	if m == nil {
		t.Fatalf("no audio in the answer: %s", dcs.InviteResponse.Body())
	}
	dst, _ := net.ResolveUDPAddr("udp", "127.0.0.1:"+m[1])
	before := e.ua.Stats().RTPReceived
	for i := range 20 {
		p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 0, SequenceNumber: uint16(i), Timestamp: uint32(i * 160), SSRC: 0x7151}, Payload: make([]byte, 160)}
		b, _ := p.Marshal()
		_, _ = rtpConn.WriteTo(b, dst)
		time.Sleep(10 * time.Millisecond)
	}
	waitFor(t, "the caller's RTP", func() bool { return e.ua.Stats().RTPReceived >= before+20 })
	if err := dcs.Bye(ctx); err != nil {
		t.Fatalf("BYE over TLS: %v", err)
	}
	waitFor(t, "the TLS caller offline", func() bool { m := e.mtByAlias(t, conf, "TLS Room"); return m != nil && !online(m) })

	// Called by its E.164 number: the INVITE comes over the TLS connection
	// of the registration.
	invites := make(chan *sip.Request, 4)
	dsc := sipgo.NewDialogServerCache(cli, ct)
	srv.OnInvite(func(req *sip.Request, tx sip.ServerTransaction) {
		invites <- req
		d, err := dsc.ReadInvite(req, tx)
		if err != nil {
			return
		}
		_ = d.RespondSDP([]byte(sdp))
	})
	srv.OnAck(func(req *sip.Request, tx sip.ServerTransaction) { _ = dsc.ReadAck(req, tx) })
	byes := make(chan struct{}, 1)
	srv.OnBye(func(req *sip.Request, tx sip.ServerTransaction) {
		_ = dsc.ReadBye(req, tx)
		byes <- struct{}{}
	})
	mt := e.addMt(t, conf, "5552001", 5)
	var got *sip.Request
	select {
	case got = <-invites:
	case <-time.After(10 * time.Second):
		t.Fatal("no INVITE over TLS")
	}
	if got.Transport() != "TLS" {
		t.Fatalf("INVITE over %s", got.Transport())
	}
	if c := got.Contact(); c == nil || c.Address.Port != ta.Port || !strings.Contains(c.Address.String(), "transport=tls") {
		t.Fatalf("Contact of Confer's INVITE over TLS: %v", c)
	}
	waitFor(t, "the registered terminal online", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["mt_id"] == mt {
				return online(m)
			}
		}
		return false
	})
	body := testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})
	done := make(chan struct{})
	go func() { // the hang-up waits for the BYE's answer
		defer close(done)
		e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts", body)
	}()
	select {
	case <-byes:
	case <-time.After(10 * time.Second):
		t.Fatal("no BYE over TLS")
	}
	<-done
}

// SIPp over TLS (-t l1) needs a build with TLS; Debian's sip-tester has
// none, so that part is skipped with this message where it is missing.
func TestTLSSIPp(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	out, _ := exec.Command("sipp", "-v").CombinedOutput()
	if !strings.Contains(string(out), "TLS") {
		t.Skipf("this SIPp build (%s) has no TLS: SIPp over TLS skipped (TestTLS covers TLS with a sipgo terminal)", strings.TrimSpace(string(out)))
	}
	cert, pool := selfSigned(t)
	cfg := sipConfig()
	cfg.TLS, cfg.TLSAddr = &tls.Config{Certificates: []tls.Certificate{cert}}, "127.0.0.1:0"
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)
	// SIPp's own certificate and key (it loads them even as a client).
	dir := t.TempDir()
	keyDER, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certPEM, keyPEM := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certPEM, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600)
	_ = os.WriteFile(keyPEM, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	// The caller hangs up on the test's cue (over TLS, to SIPp's port)
	// once it is online: events, not a pause.
	s := startSIPp(t, scenario(t, "uac_dtmf.xml", map[string]string{"DIGITS": "", "TAIL": hangUpOnCue}), e.ua.TLSAddr().String(),
		"-s", conf, "-t", "l1", "-tls_cert", certPEM, "-tls_key", keyPEM)
	waitFor(t, "the TLS caller online", func() bool {
		m := e.caller(t, conf)
		return m != nil && online(m)
	})
	s.cueTLS(t, 1, pool)
	s.wait(t)
	waitFor(t, "the TLS caller offline after its BYE", func() bool {
		m := e.caller(t, conf)
		return m != nil && !online(m)
	})
}

// An IP account that asks for TLS (sips:, or ;transport=tls) is called on
// a TLS connection Confer opens, the terminal's certificate verified
// (Config.TLSRoots); the hang-up's BYE comes over it too.
func TestTLSRouteOut(t *testing.T) {
	t.Parallel()
	cert, pool := selfSigned(t)
	cfg := sipConfig()
	cfg.TLS, cfg.TLSAddr, cfg.TLSRoots = &tls.Config{Certificates: []tls.Certificate{cert}}, "127.0.0.1:0", pool
	e := startEnv(t, cfg)
	conf := e.conf(t, nil)

	// The terminal: a sipgo server on its own TLS port.
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ua, err := sipgo.NewUA(sipgo.WithUserAgent("tls-room"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ua.Close() })
	cli, _ := sipgo.NewClient(ua, sipgo.WithClientHostname("127.0.0.1"))
	srv, _ := sipgo.NewServer(ua)
	p := sip.NewParams()
	p.Add("transport", "tls")
	dsc := sipgo.NewDialogServerCache(cli, sip.ContactHeader{Address: sip.Uri{Scheme: "sip", User: "room", Host: "127.0.0.1", Port: port, UriParams: p}})
	invites := make(chan *sip.Request, 4)
	byes := make(chan struct{}, 4)
	srv.OnInvite(func(req *sip.Request, tx sip.ServerTransaction) {
		invites <- req
		if d, err := dsc.ReadInvite(req, tx); err == nil {
			_ = d.RespondSDP([]byte(rawSDP))
		}
	})
	srv.OnAck(func(req *sip.Request, tx sip.ServerTransaction) { _ = dsc.ReadAck(req, tx) })
	srv.OnBye(func(req *sip.Request, tx sip.ServerTransaction) {
		_ = dsc.ReadBye(req, tx)
		byes <- struct{}{}
	})
	go func() { _ = srv.ServeTLS(ln) }()
	t.Cleanup(func() { ln.Close() })

	for _, account := range []string{"sips:127.0.0.1:" + itoa(port), "127.0.0.1:" + itoa(port) + ";transport=tls"} {
		mt := e.addMt(t, conf, account, 7)
		var got *sip.Request
		select {
		case got = <-invites:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no INVITE", account)
		}
		if got.Transport() != "TLS" {
			t.Fatalf("%s: INVITE over %s", account, got.Transport())
		}
		if c := got.Contact(); c == nil || c.Address.Port != e.ua.TLSAddr().Port || !strings.Contains(c.Address.String(), "transport=tls") {
			t.Fatalf("%s: Contact %v", account, c)
		}
		waitFor(t, account+" online", func() bool {
			for _, m := range e.mts(t, conf) {
				if m["mt_id"] == mt {
					return online(m)
				}
			}
			return false
		})
		body := testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts", body)
		}()
		select {
		case <-byes:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no BYE", account)
		}
		<-done
	}

	// A node that does not trust the terminal's certificate (no
	// TLSRoots: the system's) does not call it: the handshake fails and
	// the terminal is offline, no INVITE sent.
	cfg2 := sipConfig()
	cfg2.TLS, cfg2.TLSAddr = &tls.Config{Certificates: []tls.Certificate{cert}}, "127.0.0.1:0"
	e2 := startEnv(t, cfg2)
	conf2 := e2.conf(t, nil)
	mt := e2.addMt(t, conf2, "sips:127.0.0.1:"+itoa(port), 7)
	waitFor(t, "the offline outcome", func() bool {
		state, o := e2.outcome(t, conf2, mt)
		return state == "idle" && o == int(media.Offline)
	})
	select {
	case <-invites:
		t.Fatal("an INVITE over an unverified connection")
	default:
	}
}
