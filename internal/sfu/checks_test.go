package sfu

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/rtp"
	"github.com/pion/stun/v4"
	ptransport "github.com/pion/transport/v5"
	"github.com/pion/transport/v5/stdnet"
	"github.com/pion/webrtc/v4"
)

// checkNet is a pion client's network that can refuse to answer the
// SFU's checks (its Binding success responses are dropped) and records
// the STUN responses it receives by transaction ID.
type checkNet struct {
	ptransport.Net
	mute      atomic.Bool  // drop the client's Binding success responses
	muted     atomic.Int64 // responses dropped
	mu        sync.Mutex
	conns     []*checkConn
	responses sync.Map // transaction ID: *stun.Message
}

type checkConn struct {
	ptransport.UDPConn
	n *checkNet
}

func (n *checkNet) ListenUDP(network string, laddr *net.UDPAddr) (ptransport.UDPConn, error) {
	c, err := n.Net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	cc := &checkConn{UDPConn: c, n: n}
	n.mu.Lock()
	n.conns = append(n.conns, cc)
	n.mu.Unlock()
	return cc, nil
}

func (c *checkConn) WriteTo(b []byte, to net.Addr) (int, error) {
	if c.n.mute.Load() && len(b) >= 20 && b[0] == 0x01 && b[1] == 0x01 && stun.IsMessage(b) {
		c.n.muted.Add(1)
		return len(b), nil
	}
	return c.UDPConn.WriteTo(b, to)
}

func (c *checkConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, from, err := c.UDPConn.ReadFrom(b)
	if err == nil && n >= 20 && (b[0] == 0x01 && (b[1] == 0x01 || b[1] == 0x11)) && stun.IsMessage(b[:n]) {
		m := &stun.Message{Raw: append([]byte(nil), b[:n]...)}
		if m.Decode() == nil {
			c.n.responses.Store(m.TransactionID, m)
		}
	}
	return n, from, err
}

// response is the response received to transaction id, or nil.
func (n *checkNet) response(id [stun.TransactionIDSize]byte) *stun.Message {
	if m, ok := n.responses.Load(id); ok {
		return m.(*stun.Message)
	}
	return nil
}

// checkClient subscribes to a's audio with a pion client on n, checking
// every keepalive (and answering nothing but what n lets through).
func (rg *testRig) checkClient(a *client, n *checkNet, keepalive time.Duration) *client {
	rg.t.Helper()
	return rg.checkClientCounting(a, n, keepalive, nil)
}

// checkClientCounting is checkClient counting the audio packets the
// client receives in got (nil: none read).
func (rg *testRig) checkClientCounting(a *client, n *checkNet, keepalive time.Duration, got *atomic.Int64) *client {
	rg.t.Helper()
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		rg.t.Fatal(err)
	}
	sn, err := stdnet.NewNet()
	if err != nil {
		rg.t.Fatal(err)
	}
	n.Net = sn
	var se webrtc.SettingEngine
	se.SetNet(n)
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	// pion's agent runs its loop at the least of the three, and checks
	// the selected pair on every round once connected: a long keepalive
	// needs timeouts as long, or the client checks every second anyway.
	se.SetICETimeouts(max(time.Second, keepalive), max(time.Second, keepalive), keepalive)
	// No interceptors: the client sends no RTCP, so its checks are the
	// only thing the SFU hears from it once connected.
	pc, err := webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithSettingEngine(se),
		webrtc.WithInterceptorRegistry(&interceptor.Registry{})).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		rg.t.Fatal(err)
	}
	c := &client{rg: rg, pc: pc, token: "sub", stop: make(chan struct{})}
	rg.t.Cleanup(func() { _ = pc.Close() })
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio,
		webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		rg.t.Fatal(err)
	}
	if got != nil {
		pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
			buf := make([]byte, 1500)
			for {
				if _, _, err := t.Read(buf); err != nil {
					return
				}
				got.Add(1)
			}
		})
	}
	c.connect(fmt.Sprintf("/rtc/whep/c1?mt_id=%s", a.mtID), http.StatusCreated)
	return c
}

// sessionOf is the SFU's session of client c (by its ICE ufrag).
func (rg *testRig) sessionOf(c *client) *session {
	ufrag := sdpAttr(c.pc.LocalDescription().SDP, "ice-ufrag")
	var found *session
	waitFor(rg.t, "the client's session", func() bool {
		rg.sfu.mu.Lock()
		defer rg.sfu.mu.Unlock()
		for _, s := range rg.sfu.sessions {
			if rd := s.pc.RemoteDescription(); rd != nil && sdpAttr(rd.SDP, "ice-ufrag") == ufrag {
				found = s
				return true
			}
		}
		return false
	})
	return found
}

// A subscriber that never answers the SFU's own checks and sends nothing
// else stays connected, on both sides, through 60 checks at 100 ms (about
// three times the SFU's DisconnectedTimeout, 2 s here: a loaded machine's
// pause of a second does not count as silence) answered only on the
// port's reader: the SFU's agent learns the pair is alive from them, and
// the client from their answers.
func TestFastChecksKeepConnected(t *testing.T) {
	rg := newRig(t, func(c *Config) { c.DisconnectedTimeout, c.FailedTimeout = 2*time.Second, 2*time.Second })
	if rg.sfu.tr.batch.checker() == nil {
		t.Skip("no batched UDP I/O on this system: every check goes to pion")
	}
	a := rg.publish("c1", idA, false, "")
	n := &checkNet{}
	c := rg.checkClient(a, n, 100*time.Millisecond)
	sess := rg.sessionOf(c)
	var left atomic.Value // the first ICE state other than connected after tracking, on either side
	waitFor(t, "the session's pair answered on the reader", func() bool {
		k, ok := rg.sfu.tr.batch.checker().answeredFor(sess)
		return ok && k > 0
	})
	n.mute.Store(true) // from now on the SFU's own checks go unanswered
	note := func(side string) func(webrtc.ICEConnectionState) {
		return func(st webrtc.ICEConnectionState) {
			if st != webrtc.ICEConnectionStateConnected && st != webrtc.ICEConnectionStateCompleted {
				left.CompareAndSwap(nil, side+" "+st.String())
			}
		}
	}
	sess.pc.OnICEConnectionStateChange(note("SFU"))
	c.pc.OnICEConnectionStateChange(note("client"))
	if st := sess.pc.ICEConnectionState(); st != webrtc.ICEConnectionStateConnected {
		t.Fatalf("SFU's ICE state %v, want connected", st)
	}
	mutedBefore := n.muted.Load()
	waitFor(t, "60 checks answered on the reader", func() bool {
		k, _ := rg.sfu.tr.batch.checker().answeredFor(sess)
		return k >= 60 || left.Load() != nil
	})
	if l := left.Load(); l != nil {
		t.Fatalf("left connected: %v", l)
	}
	if n.muted.Load() == mutedBefore {
		t.Fatal("the SFU sent no check of its own meanwhile (none went unanswered)")
	}
	if st := sess.pc.ICEConnectionState(); st != webrtc.ICEConnectionStateConnected {
		t.Fatalf("SFU's ICE state %v, want connected", st)
	}
	select {
	case <-sess.done:
		t.Fatal("the session ended")
	default:
	}
}

// What pion's agent must decide is left to it: a request with a wrong
// password gets no answer (pion drops it), one with an unknown ufrag
// neither, a nomination (USE-CANDIDATE) is answered by pion, not on the
// reader; a well-formed check is answered on the reader with pion's
// answer (XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY under the SFU's password,
// FINGERPRINT); and a fresh join still works.
func TestFastChecksLeavePionItsCases(t *testing.T) {
	rg := newRig(t, nil)
	if rg.sfu.tr.batch.checker() == nil {
		t.Skip("no batched UDP I/O on this system: every check goes to pion")
	}
	a := rg.publish("c1", idA, false, "")
	n := &checkNet{}
	c := rg.checkClient(a, n, time.Hour) // the client's own keepalives do not interfere
	sess := rg.sessionOf(c)
	checks := rg.sfu.tr.batch.checker()
	waitFor(t, "the session's pair tracked", func() bool {
		_, ok := checks.answeredFor(sess)
		return ok
	})
	pair, err := c.pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil {
		t.Fatalf("client's selected pair: %v, %v", pair, err)
	}
	to := &net.UDPAddr{IP: net.ParseIP(pair.Remote.Address), Port: int(pair.Remote.Port)}
	var conn *checkConn
	n.mu.Lock()
	for _, x := range n.conns {
		if x.LocalAddr().(*net.UDPAddr).Port == int(pair.Local.Port) {
			conn = x
		}
	}
	n.mu.Unlock()
	if conn == nil {
		t.Fatal("no socket of the client's selected pair")
	}
	local, remote := c.pc.LocalDescription().SDP, c.pc.RemoteDescription().SDP
	myUfrag, sfuUfrag, sfuPwd := sdpAttr(local, "ice-ufrag"), sdpAttr(remote, "ice-ufrag"), sdpAttr(remote, "ice-pwd")
	send := func(user, pwd string, extra ...stun.Setter) [stun.TransactionIDSize]byte {
		t.Helper()
		setters := append([]stun.Setter{stun.TransactionID, stun.BindingRequest, stun.NewUsername(user),
			ice.AttrControlling(7), ice.PriorityAttr(1)}, extra...)
		setters = append(setters, stun.NewShortTermIntegrity(pwd), stun.Fingerprint)
		m, err := stun.Build(setters...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.UDPConn.WriteTo(m.Raw, to); err != nil {
			t.Fatal(err)
		}
		return m.TransactionID
	}
	user := sfuUfrag + ":" + myUfrag

	before, _ := checks.answeredFor(sess)
	good := send(user, sfuPwd)
	waitFor(t, "the answer to a well-formed check", func() bool { return n.response(good) != nil })
	ans := n.response(good)
	if ans.Type != stun.BindingSuccess {
		t.Fatalf("answer %v, want a Binding success", ans.Type)
	}
	if err := stun.NewShortTermIntegrity(sfuPwd).Check(ans); err != nil {
		t.Fatalf("answer's MESSAGE-INTEGRITY: %v", err)
	}
	if err := stun.Fingerprint.Check(ans); err != nil {
		t.Fatalf("answer's FINGERPRINT: %v", err)
	}
	var xa stun.XORMappedAddress
	if err := xa.GetFrom(ans); err != nil || !xa.IP.Equal(net.ParseIP(pair.Local.Address)) || xa.Port != int(pair.Local.Port) {
		t.Fatalf("XOR-MAPPED-ADDRESS %v (%v), want %s:%d", xa, err, pair.Local.Address, pair.Local.Port)
	}
	if k, _ := checks.answeredFor(sess); k != before+1 {
		t.Fatalf("answered on the reader %d, want %d", k, before+1)
	}

	// In order on the one socket: the reader sees them in turn, and pion's
	// agent handles what it is given in turn, so the nomination's answer
	// comes after pion dealt with the others.
	unknown := send("nobody:"+myUfrag, sfuPwd)
	wrong := send(user, "not-the-password-of-this-session")
	nominate := send(user, sfuPwd, ice.UseCandidate())
	waitFor(t, "pion's answer to the nomination", func() bool { return n.response(nominate) != nil })
	if m := n.response(nominate); m.Type != stun.BindingSuccess || stun.NewShortTermIntegrity(sfuPwd).Check(m) != nil {
		t.Fatalf("nomination answered %v", m.Type)
	}
	if k, _ := checks.answeredFor(sess); k != before+1 {
		t.Fatalf("answered on the reader %d, want %d (the nomination, the wrong password and the unknown ufrag are pion's)", k, before+1)
	}
	if m := n.response(wrong); m != nil {
		t.Fatalf("a check with a wrong password answered %v", m.Type)
	}
	if m := n.response(unknown); m != nil {
		t.Fatalf("a check with an unknown ufrag answered %v", m.Type)
	}

	var got atomic.Int64
	rg.quietSubscribe("c1", "?mt_id="+a.mtID, &got)
	var seq uint16
	waitFor(t, "a fresh subscriber's audio", func() bool {
		seq++
		_ = a.audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960},
			Payload: []byte{idA, 0xfc, 0xff}})
		return got.Load() >= 10
	})
	if st := sess.pc.ICEConnectionState(); st != webrtc.ICEConnectionStateConnected {
		t.Fatalf("SFU's ICE state %v, want connected", st)
	}
}
