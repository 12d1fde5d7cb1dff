package sfu

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pion/dtls/v3"
	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// The direct path of a subscriber's audio (docs/sfu-internals.md "The
// direct path", issue 43): a WHEP subscriber's audio down track encrypts
// its packets with an SRTP context of its own, made from the connection's
// DTLS keys as pion makes its own (RFC 5764 section 4.2), and queues them
// on the ICE port's batched socket for the selected candidate pair's
// remote address. pion's write path for a packet (its interceptor chain,
// the SRTP session's lock and stream lookup, the DTLS/SRTP demultiplexer,
// the ICE connection's checks and its UDP mux's address lookup) was most
// of what a forwarded packet cost above the system call.
//
// pion keeps everything else: ICE (checks, consent, the pair's choice),
// DTLS, SRTCP (sender reports, the subscriber's RTCP) and the video, which
// keeps its NACK responder and transport-wide sequence numbers. An SSRC is
// encrypted by one context at a time: the audio track writes nothing
// through pion before the direct path is ready (pion drops what is
// written before SRTP starts, so nothing is lost that pion would have
// sent), and when the pair leaves the batched port (an ICE-TCP or relayed
// pair after a restart) it falls back to pion's writer for good, first
// handing pion's context, which has not seen the SSRC, the roll-over
// count of the packet it falls back on (handOff): pion's context then
// continues the packets' index where the direct path left it instead of
// starting again at a roll-over count of 0, which would reuse an index
// (RFC 3711 section 9.1) and which the subscriber, expecting the higher
// count, would fail to authenticate. Only if pion's context cannot be
// reached (a pion of another layout) and the sequence numbers have rolled
// over is the audio dropped instead.

var errNoDirectPath = errors.New("sfu: no direct path")

// directWriter is a down track's RTPWriter on the direct path; it is used
// under the track's wmu (one write at a time). It seals with gcm (AES-GCM,
// RFC 7714, the standard library's assembly on the track's buffers) when
// the profile is an AEAD one and no header is to be encrypted (Cryptex
// with an extension), else with pion's context.
type directWriter struct {
	ctx      *srtp.Context
	gcm      *gcmSealer
	ssrc     uint32
	conn     *udpbatch.Conn
	to       atomic.Pointer[netip.AddrPort] // nil: the pair is not on the batched port
	public   []netip.Addr                   // the 1:1 NAT's addresses conn answers for (publicAliases)
	fallback RTPWriter                      // pion's writer
	// handOff gives pion's context for the SSRC the roll-over count
	// before the first packet it encrypts (nil or false: not reachable).
	handOff func(ssrc, roc uint32) bool
	fell    bool
	idx     rocTracker // the packets' roll-over count when ctx seals (gcm has its own)
	plain   []byte
	sealed  []byte
	scratch rtp.Header
}

// WriteRTP implements RTPWriter.
func (w *directWriter) WriteRTP(h *rtp.Header, payload []byte) (int, error) {
	to := w.to.Load()
	if w.fell {
		return w.fallback.WriteRTP(h, payload)
	}
	if to == nil {
		if w.fallback == nil {
			return 0, errNoDirectPath
		}
		// This packet's roll-over count, as the direct path would have
		// sealed it with, goes to pion's context (see above).
		roc := w.tracker().rollover(h.SequenceNumber)
		if (w.handOff == nil || !w.handOff(w.ssrc, roc)) && roc != 0 {
			return 0, errNoDirectPath // dropped: see above
		}
		w.fell = true
		return w.fallback.WriteRTP(h, payload)
	}
	n := h.MarshalSize() + len(payload)
	var out []byte
	if w.gcm != nil {
		if cap(w.sealed) < n+gcmTagLen {
			w.sealed = make([]byte, 0, n+gcmTagLen+udpbatch.MaxDatagram)
		}
		b := w.sealed[:n]
		hn, err := h.MarshalTo(b)
		if err != nil {
			return 0, err
		}
		out = w.gcm.seal(b[:hn], h.SSRC, h.SequenceNumber, payload)
	} else {
		if cap(w.plain) < n {
			w.plain = make([]byte, n, max(n, udpbatch.MaxDatagram))
		}
		b := w.plain[:n]
		hn, err := h.MarshalTo(b)
		if err != nil {
			return 0, err
		}
		copy(b[hn:], payload)
		w.idx.rollover(h.SequenceNumber)
		if out, err = w.ctx.EncryptRTP(w.sealed[:0], b, &w.scratch); err != nil {
			return 0, err
		}
		w.sealed = out[:0]
	}
	if _, err := w.conn.WriteToAddrPort(out, *to); err != nil {
		return 0, err
	}
	return n, nil
}

// tracker is the roll-over count of the packets the writer sealed.
func (w *directWriter) tracker() *rocTracker {
	if w.gcm != nil {
		return &w.gcm.rocTracker
	}
	return &w.idx
}

// pionHandOff returns the handOff of a writer whose fallback is pion's
// writer on transport t: it sets the roll-over count of an SSRC in the
// local context of t's SRTP session (srtp.Context.SetROC: the next packet
// it encrypts gets that count and its own sequence number as its index).
// pion exports neither the session of a transport nor the context of a
// session; they are read by field name, as dtlsConn reads the DTLS
// connection, and a layout without such fields gives false
// (TestDirectPathHandOffReachesPion fails on such a pion).
func pionHandOff(t *webrtc.DTLSTransport) func(ssrc, roc uint32) bool {
	return func(ssrc, roc uint32) bool {
		ctx, mu := pionLocalContext(t)
		if ctx == nil {
			return false
		}
		mu.Lock()
		ctx.SetROC(ssrc, roc)
		mu.Unlock()
		return true
	}
}

// pionLocalContext is the local (sending) SRTP context of transport t's
// SRTP session and the lock pion holds around its use, or nil.
func pionLocalContext(t *webrtc.DTLSTransport) (*srtp.Context, *sync.Mutex) {
	if t == nil {
		return nil, nil
	}
	f := reflect.ValueOf(t).Elem().FieldByName("srtpSession")
	if !f.IsValid() || f.Type() != reflect.TypeFor[atomic.Value]() {
		return nil, nil
	}
	sess, _ := (*atomic.Value)(unsafe.Pointer(f.UnsafeAddr())).Load().(*srtp.SessionSRTP)
	if sess == nil {
		return nil, nil
	}
	v := reflect.ValueOf(sess).Elem()
	cf, mf := v.FieldByName("localContext"), v.FieldByName("localContextMutex")
	if !cf.IsValid() || !mf.IsValid() || cf.Type() != reflect.TypeFor[*srtp.Context]() ||
		mf.Type() != reflect.TypeFor[sync.Mutex]() {
		return nil, nil
	}
	ctx := *(**srtp.Context)(unsafe.Pointer(cf.UnsafeAddr()))
	if ctx == nil {
		return nil, nil
	}
	return ctx, (*sync.Mutex)(unsafe.Pointer(mf.UnsafeAddr()))
}

// gcmTagLen is AES-GCM's authentication tag's length in SRTP (RFC 7714
// section 12).
const gcmTagLen = 16

// gcmSealer is SRTP's AEAD_AES_128_GCM or AEAD_AES_256_GCM for one SSRC
// (RFC 7714): the session key and salt derived from the master key and
// salt (RFC 3711 section 4.3, AES-CM's PRF), the 12-octet IV of section
// 8.1, the header as associated data.
type gcmSealer struct {
	aead cipher.AEAD
	salt [12]byte
	iv   [12]byte
	rocTracker
}

// rocTracker follows an SSRC's roll-over count of the sequence numbers
// (RFC 3711 section 3.3.1).
type rocTracker struct {
	roc     uint32
	last    uint16
	started bool
}

func newGCMSealer(masterKey, masterSalt []byte) (*gcmSealer, error) {
	if len(masterSalt) != 12 {
		return nil, errNoDirectPath
	}
	key, err := srtpKDF(0x00, masterKey, masterSalt, len(masterKey)) // SRTP encryption key
	if err != nil {
		return nil, err
	}
	salt, err := srtpKDF(0x02, masterKey, masterSalt, len(masterSalt)) // SRTP salting key
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	g := &gcmSealer{aead: aead}
	copy(g.salt[:], salt)
	return g, nil
}

// seal appends to hdr (the marshalled header, with room after it) the
// payload encrypted and its tag, and returns the datagram.
func (g *gcmSealer) seal(hdr []byte, ssrc uint32, seq uint16, payload []byte) []byte {
	roc := g.rollover(seq)
	iv := &g.iv // a field, not a local: the AEAD's interface would move a local to the heap
	*iv = [12]byte{}
	binary.BigEndian.PutUint32(iv[2:], ssrc)
	binary.BigEndian.PutUint32(iv[6:], roc)
	binary.BigEndian.PutUint16(iv[10:], seq)
	for i := range iv {
		iv[i] ^= g.salt[i]
	}
	return g.aead.Seal(hdr, iv[:], payload, hdr)
}

// rollover is the roll-over count of seq (RFC 3711 section 3.3.1, as
// pion's context guesses it): a sequence number ahead of the last one,
// past 65535, counts a roll-over; one behind it, from before the last
// roll-over, has the count before.
func (g *rocTracker) rollover(seq uint16) uint32 {
	switch {
	case !g.started:
		g.started, g.last = true, seq
	case int16(seq-g.last) > 0:
		if seq < g.last {
			g.roc++
		}
		g.last = seq
	case seq > g.last && g.roc > 0:
		return g.roc - 1
	}
	return g.roc
}

// srtpKDF is SRTP's key derivation with a key derivation rate of 0 (RFC
// 3711 section 4.3.1 and appendix B.3): AES-CM under the master key of
// the master salt XOR the label.
func srtpKDF(label byte, masterKey, masterSalt []byte, n int) ([]byte, error) {
	block, err := aes.NewCipher(masterKey)
	if err != nil {
		return nil, err
	}
	var in [16]byte
	copy(in[:], masterSalt)
	in[7] ^= label
	out := make([]byte, (n+15)/16*16)
	for i := 0; i*16 < n; i++ {
		binary.BigEndian.PutUint16(in[14:], uint16(i))
		block.Encrypt(out[i*16:], in[:])
	}
	return out[:n], nil
}

// setPair points the writer at the remote address of pair, if its local
// end is one of the batched port's sockets (else the writer falls back or
// drops, WriteRTP).
func (w *directWriter) setPair(pair *webrtc.ICECandidatePair) {
	if pair == nil || pair.Local == nil || pair.Remote == nil ||
		pair.Local.Protocol != webrtc.ICEProtocolUDP || pair.Remote.Protocol != webrtc.ICEProtocolUDP {
		w.to.Store(nil)
		return
	}
	ra, err := netip.ParseAddr(pair.Remote.Address)
	la, err2 := netip.ParseAddr(pair.Local.Address)
	if err != nil || err2 != nil || !w.owns(netip.AddrPortFrom(la, pair.Local.Port)) {
		w.to.Store(nil)
		return
	}
	to := netip.AddrPortFrom(ra.Unmap(), pair.Remote.Port)
	w.to.Store(&to)
}

// owns reports whether w.conn is the socket of local address a (its port,
// and its address unless it listens on all, or one of w.public).
func (w *directWriter) owns(a netip.AddrPort) bool {
	la, ok := socketAddr(w.conn)
	if !ok || la.Port() != a.Port() {
		return false
	}
	if la.Addr().IsUnspecified() || la.Addr() == a.Addr().Unmap() {
		return true
	}
	for _, p := range w.public {
		if p == a.Addr().Unmap() {
			return true
		}
	}
	return false
}

func socketAddr(c *udpbatch.Conn) (netip.AddrPort, bool) {
	a, err := netip.ParseAddrPort(c.LocalAddr().String())
	if err != nil {
		return a, false
	}
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port()), true
}

// publicAliases are the 1:1 NAT's public addresses (Config.PublicIPs)
// that a socket of socks answers for: behind such a NAT the selected
// pair's local candidate names the public address, not the socket's.
// Only the port's one socket on an address other than loopback answers
// for them; with several (several interfaces) which one pion sends from
// is not known here, and the audio stays on pion's writer.
func publicAliases(socks []*udpbatch.Conn, c *udpbatch.Conn, publicIPs []string) []netip.Addr {
	if len(publicIPs) == 0 {
		return nil
	}
	var only *udpbatch.Conn
	for _, x := range socks {
		if a, ok := socketAddr(x); ok && !a.Addr().IsLoopback() {
			if only != nil {
				return nil
			}
			only = x
		}
	}
	if only != c {
		return nil
	}
	var out []netip.Addr
	for _, s := range publicIPs {
		if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, a.Unmap())
		}
	}
	return out
}

// startDirect moves a connected WHEP session's audio down tracks onto the
// direct path, or onto pion's writer when it cannot be had (an ICE-TCP
// pair, keys that cannot be read), and has any connected session's
// checks answered on the port's reader (checks.go).
func (sess *session) startDirect() {
	var ws []*directWriter
	for i, d := range sess.downs {
		if !d.directWanted {
			continue
		}
		w, err := sess.directWriter(sess.senders[i], d)
		d.wmu.Lock()
		d.mu.Lock()
		d.directWanted = false
		if err == nil && d.bound {
			w.fallback = d.pionWS
			w.handOff = pionHandOff(sess.senders[i].Transport())
			d.direct = w
			d.ws = w
			ws = append(ws, w)
		} else {
			d.ws = d.pionWS
		}
		d.mu.Unlock()
		d.wmu.Unlock()
	}
	checks, fast := sess.sfu.tr.batch.checker(), sess.sfu.tr.batch.rtcpReader()
	if len(ws) == 0 && checks == nil && fast == nil {
		return
	}
	// The pair may change (an ICE restart, the controlling agent's
	// renomination): the writers follow it, and so do the fast checks
	// (checks.go).
	ice := sess.pc.SCTP().Transport().ICETransport()
	follow := func(p *webrtc.ICECandidatePair) {
		for _, w := range ws {
			w.setPair(p)
		}
		if checks != nil {
			go checks.track(sess, sess.sfu.tr.batch.sockets(), sess.sfu.cfg.PublicIPs)
		}
		if fast != nil {
			go fast.track(sess, sess.sfu.tr.batch.sockets(), sess.sfu.cfg.PublicIPs)
		}
	}
	ice.OnSelectedCandidatePairChange(follow)
	if p, err := ice.GetSelectedCandidatePair(); err == nil {
		follow(p) // a change between the writers' making and the handler's setting
	}
}

// directWriter builds d's writer on the direct path.
func (sess *session) directWriter(snd *webrtc.RTPSender, d *downTrack) (*directWriter, error) {
	b := sess.sfu.tr.batch
	if b == nil || snd == nil || sess.pc == nil {
		return nil, errNoDirectPath
	}
	dt := snd.Transport()
	cfg, profile, cryptex, err := sess.srtpKeys(dt)
	if err != nil {
		return nil, err
	}
	// RFC 9335: the header extensions are encrypted too when the
	// connection's outbound mode says so, as pion's own context does.
	var opts []srtp.ContextOption
	if cryptex == srtp.CryptexModeEnabled || cryptex == srtp.CryptexModeRequired {
		opts = append(opts, srtp.Cryptex(cryptex))
	}
	ctx, err := srtp.CreateContext(cfg.Keys.LocalMasterKey, cfg.Keys.LocalMasterSalt, profile, opts...)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	ssrc, levelID := d.ssrc, d.levelID
	d.mu.Unlock()
	ice := dt.ICETransport()
	pair, err := ice.GetSelectedCandidatePair()
	if err != nil || pair == nil {
		return nil, errNoDirectPath
	}
	var gcm *gcmSealer
	if (profile == srtp.ProtectionProfileAeadAes128Gcm || profile == srtp.ProtectionProfileAeadAes256Gcm) &&
		(len(opts) == 0 || levelID == 0) { // no header to encrypt (Cryptex)
		if gcm, err = newGCMSealer(cfg.Keys.LocalMasterKey, cfg.Keys.LocalMasterSalt); err != nil {
			return nil, err
		}
	}
	socks := b.sockets()
	for _, c := range socks {
		w := &directWriter{ctx: ctx, gcm: gcm, ssrc: ssrc, conn: c, sealed: make([]byte, 0, udpbatch.MaxDatagram),
			public: publicAliases(socks, c, sess.sfu.cfg.PublicIPs)}
		w.setPair(pair)
		if w.to.Load() != nil {
			return w, nil
		}
	}
	return nil, errNoDirectPath
}

// srtpKeys are the SRTP keys of connected transport dt, as pion derives
// its own from the DTLS connection (RFC 5764 section 4.2), with the
// profile and the outbound Cryptex mode (RFC 9335).
func (sess *session) srtpKeys(dt *webrtc.DTLSTransport) (srtp.Config, srtp.ProtectionProfile, srtp.CryptexMode, error) {
	var cfg srtp.Config
	if dt == nil || dt.State() != webrtc.DTLSTransportStateConnected {
		return cfg, 0, 0, errNoDirectPath
	}
	conn, cryptex := dtlsConn(dt)
	if conn == nil {
		return cfg, 0, 0, errNoDirectPath
	}
	sp, ok := conn.SelectedSRTPProtectionProfile()
	if !ok {
		return cfg, 0, 0, errNoDirectPath
	}
	profile, ok := srtpProfiles[sp]
	if !ok {
		return cfg, 0, 0, errNoDirectPath
	}
	state, ok := conn.ConnectionState()
	if !ok {
		return cfg, 0, 0, errNoDirectPath
	}
	local := sess.pc.CurrentLocalDescription()
	if local == nil || !strings.Contains(local.SDP, "a=setup:") {
		return cfg, 0, 0, errNoDirectPath
	}
	// The answer's setup role is the DTLS role (RFC 5763 section 5):
	// active is the client.
	isClient := strings.Contains(local.SDP, "a=setup:active")
	cfg.Profile = profile
	if err := cfg.ExtractSessionKeysFromDTLS(&state, isClient); err != nil {
		return cfg, 0, 0, err
	}
	return cfg, profile, cryptex, nil
}

// srtpProfiles maps DTLS-SRTP's profiles (RFC 5764 section 4.1.2) to
// pion's SRTP ones, as pion's DTLS transport does.
var srtpProfiles = map[dtls.SRTPProtectionProfile]srtp.ProtectionProfile{
	dtls.SRTP_AEAD_AES_128_GCM:       srtp.ProtectionProfileAeadAes128Gcm,
	dtls.SRTP_AEAD_AES_256_GCM:       srtp.ProtectionProfileAeadAes256Gcm,
	dtls.SRTP_AES128_CM_HMAC_SHA1_80: srtp.ProtectionProfileAes128CmHmacSha1_80,
	dtls.SRTP_NULL_HMAC_SHA1_80:      srtp.ProtectionProfileNullHmacSha1_80,
}

// dtlsConn is the DTLS connection of a connected transport and its
// outbound Cryptex mode (RFC 9335). pion's DTLSTransport exports neither
// (its SRTP keys come from the connection: RFC 5764 section 4.2, the same
// exporter); they are read under the transport's lock, by field name, and
// a layout without such fields gives nil (the track stays on pion's
// writer; TestDirectPath fails on such a pion).
func dtlsConn(t *webrtc.DTLSTransport) (*dtls.Conn, srtp.CryptexMode) {
	v := reflect.ValueOf(t).Elem()
	lf, cf, xf := v.FieldByName("lock"), v.FieldByName("conn"), v.FieldByName("localCryptexMode")
	if !lf.IsValid() || !cf.IsValid() || !xf.IsValid() || lf.Type() != reflect.TypeFor[sync.RWMutex]() ||
		cf.Type() != reflect.TypeFor[*dtls.Conn]() || xf.Type() != reflect.TypeFor[srtp.CryptexMode]() {
		return nil, 0
	}
	mu := (*sync.RWMutex)(unsafe.Pointer(lf.UnsafeAddr()))
	mu.RLock()
	defer mu.RUnlock()
	return *(**dtls.Conn)(unsafe.Pointer(cf.UnsafeAddr())), *(*srtp.CryptexMode)(unsafe.Pointer(xf.UnsafeAddr()))
}
