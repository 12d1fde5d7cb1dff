package sfu

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/rtp"
	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"
)

// restartClientICE restarts c's ICE as a WHEP client does (RFC 9725
// section 4.4): an offer with new credentials, its ufrag, password and
// candidates PATCHed to the session, the answer's applied to the SFU's
// last description. It returns when the client has the answer.
func (rg *testRig) restartClientICE(c *client) {
	t := rg.t
	t.Helper()
	offer, err := c.pc.CreateOffer(&webrtc.OfferOptions{ICERestart: true})
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(c.pc)
	if err := c.pc.SetLocalDescription(offer); err != nil {
		t.Fatal(err)
	}
	<-gathered
	local := c.pc.LocalDescription().SDP
	var b strings.Builder
	b.WriteString("a=ice-ufrag:" + sdpAttr(local, "ice-ufrag") + "\r\na=ice-pwd:" + sdpAttr(local, "ice-pwd") + "\r\n")
	b.WriteString("m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n")
	for _, l := range strings.Split(local, "\r\n") {
		if strings.HasPrefix(l, "a=candidate:") {
			b.WriteString(l + "\r\n")
		}
	}
	req, _ := http.NewRequest(http.MethodPatch, rg.srv.URL+c.location, strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "application/trickle-ice-sdpfrag")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("If-Match", "*")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("PATCH ICE restart = %d %q, want 200", resp.StatusCode, body)
	}
	old := c.pc.RemoteDescription().SDP
	newUfrag, newPwd := sdpAttr(string(body), "ice-ufrag"), sdpAttr(string(body), "ice-pwd")
	if newUfrag == "" || newUfrag == sdpAttr(old, "ice-ufrag") || newPwd == sdpAttr(old, "ice-pwd") {
		t.Fatalf("restart answer ufrag %q, old %q (or the password unchanged)", newUfrag, sdpAttr(old, "ice-ufrag"))
	}
	ans := strings.ReplaceAll(old, "a=ice-ufrag:"+sdpAttr(old, "ice-ufrag"), "a=ice-ufrag:"+newUfrag)
	ans = strings.ReplaceAll(ans, "a=ice-pwd:"+sdpAttr(old, "ice-pwd"), "a=ice-pwd:"+newPwd)
	var lines []string
	for _, l := range strings.Split(ans, "\r\n") {
		if !strings.HasPrefix(l, "a=candidate:") && !strings.HasPrefix(l, "a=end-of-candidates") {
			lines = append(lines, l)
		}
		if strings.HasPrefix(l, "a=mid:") {
			for _, c := range strings.Split(string(body), "\r\n") {
				if strings.HasPrefix(c, "a=candidate:") {
					lines = append(lines, c)
				}
			}
		}
	}
	if err := c.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: strings.Join(lines, "\r\n")}); err != nil {
		t.Fatal(err)
	}
}

// checkSender sends hand-made checks from the socket of the client's
// selected pair to the SFU's side of it.
type checkSender struct {
	t    *testing.T
	conn *checkConn
	to   *net.UDPAddr
}

func newCheckSender(t *testing.T, c *client, n *checkNet) *checkSender {
	t.Helper()
	pair, err := c.pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil {
		t.Fatalf("client's selected pair: %v, %v", pair, err)
	}
	s := &checkSender{t: t, to: &net.UDPAddr{IP: net.ParseIP(pair.Remote.Address), Port: int(pair.Remote.Port)}}
	n.mu.Lock()
	for _, x := range n.conns {
		if x.LocalAddr().(*net.UDPAddr).Port == int(pair.Local.Port) {
			s.conn = x
		}
	}
	n.mu.Unlock()
	if s.conn == nil {
		t.Fatal("no socket of the client's selected pair")
	}
	return s
}

// send sends a Binding request as the controlling client sends its
// checks, and returns its transaction ID.
func (s *checkSender) send(user, pwd string, extra ...stun.Setter) [stun.TransactionIDSize]byte {
	s.t.Helper()
	setters := append([]stun.Setter{stun.TransactionID, stun.BindingRequest, stun.NewUsername(user),
		ice.AttrControlling(7), ice.PriorityAttr(1)}, extra...)
	setters = append(setters, stun.NewShortTermIntegrity(pwd), stun.Fingerprint)
	m, err := stun.Build(setters...)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.conn.UDPConn.WriteTo(m.Raw, s.to); err != nil {
		s.t.Fatal(err)
	}
	return m.TransactionID
}

// trackedUser is the USERNAME under which sess's checks are answered on
// the reader ("" if none).
func (r *checkResponder) trackedUser(sess *session) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.bySess[sess]
}

// An ICE restart of a connected subscriber (new ufrag and password on
// both sides, RFC 8445 section 9) with fast checks on: the session
// connects again, its new pair is tracked under the new credentials and
// its checks are answered on the reader again, media flows after, and
// neither a check under the old credentials nor one under the new ufrags
// with the old password is answered, on the reader or by pion.
func TestFastChecksAfterICERestart(t *testing.T) {
	rg := newRig(t, func(c *Config) { c.DisconnectedTimeout, c.FailedTimeout = 2*time.Second, 2*time.Second })
	checks := rg.sfu.tr.batch.checker()
	if checks == nil {
		t.Skip("no batched UDP I/O on this system: every check goes to pion")
	}
	a := rg.publish("c1", idA, false, "")
	n := &checkNet{}
	var got atomic.Int64
	c := rg.checkClientCounting(a, n, 100*time.Millisecond, &got)
	sess := rg.sessionOf(c)
	var seq uint16
	sendAudio := func() {
		seq++
		_ = a.audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960},
			Payload: []byte{idA, 0xfc, 0xff}})
	}
	flowing := func(what string, k int64) {
		t.Helper()
		from := got.Load()
		waitFor(t, what, func() bool {
			sendAudio()
			return got.Load() >= from+k
		})
	}
	flowing("audio before the restart", 10)
	waitFor(t, "the first pair's checks answered on the reader", func() bool {
		k, ok := checks.answeredFor(sess)
		return ok && k > 0
	})
	oldUser := checks.trackedUser(sess)
	oldSFUUfrag, oldSFUPwd := sdpAttr(c.pc.RemoteDescription().SDP, "ice-ufrag"), sdpAttr(c.pc.RemoteDescription().SDP, "ice-pwd")
	oldMine := sdpAttr(c.pc.LocalDescription().SDP, "ice-ufrag")
	if oldUser != oldSFUUfrag+":"+oldMine {
		t.Fatalf("tracked as %q, want %q", oldUser, oldSFUUfrag+":"+oldMine)
	}

	rg.restartClientICE(c)
	sfuUfrag, sfuPwd := sdpAttr(c.pc.RemoteDescription().SDP, "ice-ufrag"), sdpAttr(c.pc.RemoteDescription().SDP, "ice-pwd")
	mine := sdpAttr(c.pc.LocalDescription().SDP, "ice-ufrag")
	user := sfuUfrag + ":" + mine
	waitFor(t, "the new pair tracked under the new credentials", func() bool {
		return checks.trackedUser(sess) == user
	})
	waitFor(t, "the new pair's checks answered on the reader", func() bool {
		k, ok := checks.answeredFor(sess)
		return ok && k > 0
	})
	waitFor(t, "both sides connected again", func() bool {
		return sess.pc.ICEConnectionState() == webrtc.ICEConnectionStateConnected &&
			c.pc.ICEConnectionState() == webrtc.ICEConnectionStateConnected
	})
	var left atomic.Value // the first ICE state other than connected from now on, on either side
	note := func(side string) func(webrtc.ICEConnectionState) {
		return func(st webrtc.ICEConnectionState) {
			if st != webrtc.ICEConnectionStateConnected && st != webrtc.ICEConnectionStateCompleted {
				left.CompareAndSwap(nil, side+" "+st.String())
			}
		}
	}
	sess.pc.OnICEConnectionStateChange(note("SFU"))
	c.pc.OnICEConnectionStateChange(note("client"))
	flowing("audio after the restart", 50)

	// The old credentials, and the new ufrags with the old password, in
	// order before a nomination under the new ones on the same socket:
	// the reader sees them first, and pion answers the nomination after
	// dealing with them.
	s := newCheckSender(t, c, n)
	stale := s.send(oldUser, oldSFUPwd)
	mixed := s.send(user, oldSFUPwd)
	good := s.send(user, sfuPwd)
	nominate := s.send(user, sfuPwd, ice.UseCandidate())
	waitFor(t, "pion's answer to the nomination", func() bool { return n.response(nominate) != nil })
	waitFor(t, "the answer to a check under the new credentials", func() bool { return n.response(good) != nil })
	if m := n.response(good); m.Type != stun.BindingSuccess || stun.NewShortTermIntegrity(sfuPwd).Check(m) != nil {
		t.Fatalf("a check under the new credentials answered %v, or not under the new password", m.Type)
	}
	if m := n.response(stale); m != nil {
		t.Fatalf("a check under the old credentials answered %v", m.Type)
	}
	if m := n.response(mixed); m != nil {
		t.Fatalf("a check under the new ufrags and the old password answered %v", m.Type)
	}
	flowing("audio after the hand-made checks", 50)
	if l := left.Load(); l != nil {
		t.Fatalf("left connected after the restart: %v", l)
	}
	select {
	case <-sess.done:
		t.Fatal("the session ended")
	default:
	}
}
