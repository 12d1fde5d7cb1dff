package sfu

import (
	"net/netip"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/pion/ice/v4"
	"github.com/pion/stun/v4"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// Fast checks (docs/sfu-internals.md "Fast checks", issue 43): a
// connected session's ICE connectivity checks (the peer's keepalives and
// consent checks, RFC 7675) are answered on the UDP port's own reader.
// pion's path for each was the UDP mux's goroutine, the candidate's, and a
// round of the agent's loop; at 500 subscribers checking every 2 s that
// was most of the ICE share of the node's profile.
//
// Only what pion's agent would answer the same way is answered here (RFC
// 8445 section 7.3): a Binding request on the selected pair (from its
// remote address, on its local socket, while the agent still has that
// pair selected), with the session's USERNAME "local:remote" ufrags, a
// MESSAGE-INTEGRITY under the local password and a FINGERPRINT (RFC
// 8489 sections 14.5 and 14.7), no USE-CANDIDATE (a nomination) and no
// role conflict (the role attribute of the agent's own role), and no
// other attribute the agent must understand. Everything else, a new or
// unknown ufrag or a wrong password among them, goes to pion as before
// (which drops a request whose integrity fails: no answer). The answer is
// pion's (a Binding success with XOR-MAPPED-ADDRESS, MESSAGE-INTEGRITY
// and FINGERPRINT), and the agent learns the pair is alive as from its
// own answer: the remote candidate's time of last reception, which its
// disconnection timer reads, is set to now.
//
// pion exports neither the agent of a transport nor that time: they are
// read by field name (as dtlsConn reads the DTLS connection); a pion
// without such fields leaves every check to pion
// (TestFastChecksKeepConnected fails on such a pion).

// checkResponder holds the sessions whose checks are answered here.
type checkResponder struct {
	mu      sync.RWMutex
	byUser  map[string]*checkPair // USERNAME "local ufrag:remote ufrag"
	bySess  map[*session]string   // the session's USERNAME in byUser
	answers atomic.Uint64         // checks answered here
}

// checkPair is a session's selected pair as the agent had it.
type checkPair struct {
	conn     *udpbatch.Conn
	remote   netip.AddrPort
	pwd      []byte             // the local ICE password: MESSAGE-INTEGRITY's key
	pair     *ice.CandidatePair // the agent's selected pair
	selected *atomic.Value      // the agent's selected pair, now
	control  *atomic.Bool       // the agent's role: controlling
	seen     *atomic.Int64      // the remote candidate's last reception (pion's monotonic nanoseconds)
	user     string             // the USERNAME of the agent's checks
	answers  atomic.Uint64      // checks answered here on this pair
}

func newCheckResponder() *checkResponder {
	return &checkResponder{byUser: map[string]*checkPair{}, bySess: map[*session]string{}}
}

// intercept is c's udpbatch.Intercept.
func (r *checkResponder) intercept(c *udpbatch.Conn) udpbatch.Intercept {
	var msg stun.Message // the reader's: the intercept runs one datagram at a time
	return func(b []byte, from netip.AddrPort) bool {
		return r.answer(c, b, from, &msg)
	}
}

// answer answers b if it is a check answered here (see above).
func (r *checkResponder) answer(c *udpbatch.Conn, b []byte, from netip.AddrPort, msg *stun.Message) bool {
	// A Binding request (0x0001) with the magic cookie, whole.
	if len(b) < 20 || b[0] != 0 || b[1] != 1 || int(b[2])<<8|int(b[3]) != len(b)-20 ||
		b[4] != 0x21 || b[5] != 0x12 || b[6] != 0xa4 || b[7] != 0x42 {
		return false
	}
	msg.Reset()
	msg.Raw = append(msg.Raw[:0], b...)
	if msg.Decode() != nil {
		return false
	}
	var user []byte
	controlling, controlled := false, false
	for _, a := range msg.Attributes {
		switch a.Type {
		case stun.AttrUsername:
			user = a.Value
		case stun.AttrICEControlling:
			controlling = true
		case stun.AttrICEControlled:
			controlled = true
		case stun.AttrPriority, stun.AttrMessageIntegrity, stun.AttrFingerprint:
		default:
			if a.Type.Required() {
				return false // USE-CANDIDATE, a nomination, anything unknown: pion
			}
		}
	}
	if user == nil || stun.Fingerprint.Check(msg) != nil {
		return false
	}
	r.mu.RLock()
	p := r.byUser[string(user)]
	r.mu.RUnlock()
	if p == nil || p.conn != c || p.remote != netip.AddrPortFrom(from.Addr().Unmap(), from.Port()) {
		return false
	}
	if cur, _ := p.selected.Load().(*ice.CandidatePair); cur != p.pair {
		return false // the agent chose another pair, or restarted
	}
	if ours := p.control.Load(); (ours && controlling) || (!ours && controlled) {
		return false // a role conflict (RFC 8445 section 7.3.1.1): pion
	}
	if stun.MessageIntegrity(p.pwd).Check(msg) != nil {
		return false // pion drops it
	}
	out, err := stun.Build(stun.NewTransactionIDSetter(msg.TransactionID), stun.BindingSuccess,
		&stun.XORMappedAddress{IP: p.remote.Addr().AsSlice(), Port: int(p.remote.Port())},
		stun.NewShortTermIntegrity(string(p.pwd)), stun.Fingerprint)
	if err != nil {
		return false
	}
	if !c.TryWriteToAddrPort(out.Raw, from) {
		return false // the send queue is full: pion answers, and the reader does not wait
	}
	p.pair.UpdateRequestReceived()
	p.pair.UpdateResponseSent()
	p.markSeen()
	p.answers.Add(1)
	r.answers.Add(1)
	return true
}

// markSeen sets the remote candidate's last reception to now. pion keeps
// it as nanoseconds since a reference time of its own; LastReceived gives
// the reference plus the stored value, so now is the stored value plus
// the time since LastReceived (monotonic, as pion's). Never backwards.
func (p *checkPair) markSeen() {
	for {
		old := p.seen.Load()
		if old == 0 {
			return // never received: the agent has not seen the pair alive
		}
		since := time.Since(p.pair.Remote.LastReceived())
		if since <= 0 || p.seen.CompareAndSwap(old, old+int64(since)) {
			return
		}
	}
}

// track (re)registers sess's selected pair, or removes it when there is
// none to answer for here (no pair, an ICE-TCP or relayed pair, a pion of
// another layout). It runs when the pair changes.
func (r *checkResponder) track(sess *session, socks []*udpbatch.Conn, publicIPs []string) {
	p := sess.checkPair(socks, publicIPs)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dropLocked(sess)
	select {
	case <-sess.done:
		return // ended meanwhile: untrack ran
	default:
	}
	if p != nil {
		r.byUser[p.user] = p
		r.bySess[sess] = p.user
	}
}

// untrack removes sess (its end, an ICE restart).
func (r *checkResponder) untrack(sess *session) {
	r.mu.Lock()
	r.dropLocked(sess)
	r.mu.Unlock()
}

// answeredFor is how many of sess's checks were answered here on its
// current pair, and whether that pair is tracked.
func (r *checkResponder) answeredFor(sess *session) (uint64, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p := r.byUser[r.bySess[sess]]
	if p == nil {
		return 0, false
	}
	return p.answers.Load(), true
}

func (r *checkResponder) dropLocked(sess *session) {
	if old, ok := r.bySess[sess]; ok {
		delete(r.byUser, old)
		delete(r.bySess, sess)
	}
}

// checkPair reads sess's selected pair and credentials from its ICE agent,
// or returns nil (see track).
func (sess *session) checkPair(socks []*udpbatch.Conn, publicIPs []string) *checkPair {
	if sess.pc == nil || sess.pc.SCTP() == nil || sess.pc.SCTP().Transport() == nil {
		return nil
	}
	a := iceAgentOf(sess.pc.SCTP().Transport().ICETransport())
	if a == nil {
		return nil
	}
	v := reflect.ValueOf(a).Elem()
	sf, cf := v.FieldByName("selectedPair"), v.FieldByName("isControlling")
	if !sf.IsValid() || !cf.IsValid() || sf.Type() != reflect.TypeFor[atomic.Value]() ||
		cf.Type() != reflect.TypeFor[atomic.Bool]() {
		return nil
	}
	selected := (*atomic.Value)(unsafe.Pointer(sf.UnsafeAddr()))
	pair, _ := selected.Load().(*ice.CandidatePair)
	if pair == nil || pair.Local == nil || pair.Remote == nil ||
		!pair.Local.NetworkType().IsUDP() || !pair.Remote.NetworkType().IsUDP() ||
		pair.Local.Type() == ice.CandidateTypeRelay {
		return nil
	}
	ufrag, pwd, err := a.GetLocalUserCredentials()
	if err != nil {
		return nil
	}
	rufrag, _, err := a.GetRemoteUserCredentials()
	if err != nil || ufrag == "" || pwd == "" || rufrag == "" {
		return nil
	}
	if cur, _ := selected.Load().(*ice.CandidatePair); cur != pair {
		return nil // changed meanwhile (credentials may be another pair's): the change tracks again
	}
	seen := lastReceivedOf(pair.Remote)
	la, err := netip.ParseAddr(pair.Local.Address())
	ra, err2 := netip.ParseAddr(pair.Remote.Address())
	if seen == nil || err != nil || err2 != nil {
		return nil
	}
	local := netip.AddrPortFrom(la.Unmap(), uint16(pair.Local.Port()))
	for _, c := range socks {
		w := directWriter{conn: c, public: publicAliases(socks, c, publicIPs)}
		if w.owns(local) {
			return &checkPair{user: ufrag + ":" + rufrag, conn: c, pwd: []byte(pwd),
				remote: netip.AddrPortFrom(ra.Unmap(), uint16(pair.Remote.Port())),
				pair:   pair, selected: selected, control: (*atomic.Bool)(unsafe.Pointer(cf.UnsafeAddr())), seen: seen}
		}
	}
	return nil
}

// iceAgentOf is t's ICE agent (its gatherer's), read under their locks by
// field name, or nil.
func iceAgentOf(t *webrtc.ICETransport) *ice.Agent {
	if t == nil {
		return nil
	}
	tv := reflect.ValueOf(t).Elem()
	tl, gf := tv.FieldByName("lock"), tv.FieldByName("gatherer")
	if !tl.IsValid() || !gf.IsValid() || tl.Type() != reflect.TypeFor[sync.RWMutex]() ||
		gf.Type() != reflect.TypeFor[*webrtc.ICEGatherer]() {
		return nil
	}
	mu := (*sync.RWMutex)(unsafe.Pointer(tl.UnsafeAddr()))
	mu.RLock()
	g := *(**webrtc.ICEGatherer)(unsafe.Pointer(gf.UnsafeAddr()))
	mu.RUnlock()
	if g == nil {
		return nil
	}
	gv := reflect.ValueOf(g).Elem()
	gl, af := gv.FieldByName("lock"), gv.FieldByName("agent")
	if !gl.IsValid() || !af.IsValid() || gl.Type() != reflect.TypeFor[sync.RWMutex]() ||
		af.Type() != reflect.TypeFor[*ice.Agent]() {
		return nil
	}
	gmu := (*sync.RWMutex)(unsafe.Pointer(gl.UnsafeAddr()))
	gmu.RLock()
	defer gmu.RUnlock()
	return *(**ice.Agent)(unsafe.Pointer(af.UnsafeAddr()))
}

// lastReceivedOf is candidate c's time of last reception as pion stores
// it, or nil.
func lastReceivedOf(c ice.Candidate) *atomic.Int64 {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("lastReceived")
	if !f.IsValid() || f.Type() != reflect.TypeFor[atomic.Int64]() || !f.CanAddr() {
		return nil
	}
	return (*atomic.Int64)(unsafe.Pointer(f.UnsafeAddr()))
}
