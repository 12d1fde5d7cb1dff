package sip

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/srtp/v3"
)

// SDES-SRTP (RFC 4568 keys in the SDP, RFC 3711 SRTP; docs/sip-media.md
// "SRTP"): an m-line with the profile RTP/SAVP (or RTP/SAVPF) and
// a=crypto lines is answered with the same profile and a key of Confer's
// for the first crypto suite it speaks; its RTP and RTCP are then
// encrypted both ways, each m-line with its own keys. Config.SRTP says
// what else is accepted.

// SRTP policies (Config.SRTP, conferd --sip-srtp).
const (
	// SRTPOptional answers SRTP with SRTP and plain RTP with plain RTP;
	// Confer's own offers are plain RTP (the default).
	SRTPOptional = "optional"
	// SRTPRequired refuses plain RTP m-lines (488 when none is left) and
	// offers SRTP only.
	SRTPRequired = "required"
	// SRTPOff refuses SRTP m-lines and offers plain RTP.
	SRTPOff = "off"
)

// ErrSRTPPolicy is a policy that is none of the three.
var ErrSRTPPolicy = errors.New("sip: the SRTP policy is off, optional or required")

// cryptoSuites are the suites Confer speaks (RFC 4568 section 6.2), in
// the order it offers them.
var cryptoSuites = []struct {
	name    string
	profile srtp.ProtectionProfile
}{
	{"AES_CM_128_HMAC_SHA1_80", srtp.ProtectionProfileAes128CmHmacSha1_80},
	{"AES_CM_128_HMAC_SHA1_32", srtp.ProtectionProfileAes128CmHmacSha1_32},
}

// keyLen is the master key and salt of the AES_CM_128 suites.
const keyLen = 16 + 14

// sdes is one a=crypto attribute: its tag, suite and master key||salt.
type sdes struct {
	tag   int
	suite string
	key   []byte
}

func suiteProfile(name string) (srtp.ProtectionProfile, bool) {
	for _, s := range cryptoSuites {
		if strings.EqualFold(s.name, name) {
			return s.profile, true
		}
	}
	return 0, false
}

// parseCrypto reads "TAG SUITE inline:KEY[|lifetime][|mki] [params]";
// false for a suite Confer does not speak, a key it cannot use, or
// session parameters (RFC 4568 section 6.3: none is supported).
func parseCrypto(v string) (sdes, bool) {
	f := strings.Fields(v)
	if len(f) != 3 || !strings.HasPrefix(f[2], "inline:") {
		return sdes{}, false
	}
	tag, err := strconv.Atoi(f[0])
	if err != nil || tag < 0 || tag > 999999999 {
		return sdes{}, false
	}
	if _, ok := suiteProfile(f[1]); !ok {
		return sdes{}, false
	}
	b64, rest, _ := strings.Cut(strings.TrimPrefix(f[2], "inline:"), "|")
	if strings.Contains(rest, ":") { // an MKI: not supported
		return sdes{}, false
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		key, err = base64.RawStdEncoding.DecodeString(b64)
	}
	if err != nil || len(key) != keyLen {
		return sdes{}, false
	}
	return sdes{tag: tag, suite: strings.ToUpper(f[1]), key: key}, true
}

// attr is the a=crypto value of k.
func (k sdes) attr() string {
	return fmt.Sprintf("%d %s inline:%s", k.tag, k.suite, base64.StdEncoding.EncodeToString(k.key))
}

// pickCrypto is the first of an m-line's crypto lines Confer can use (RFC
// 4568 section 7.1.1: the offerer's preference), nil when none.
func pickCrypto(md *sdp.MediaDescription) *sdes {
	for _, a := range md.Attributes {
		if a.Key != "crypto" {
			continue
		}
		if k, ok := parseCrypto(a.Value); ok {
			return &k
		}
	}
	return nil
}

// applySRTP refuses the m-lines the policy does not accept: an SRTP line
// without a crypto line Confer can use, or with the policy off; a plain
// line when SRTP is required. What is left decides (488 when no audio
// or video is).
func (m *Media) applySRTP(policy string) {
	ok := func(savp bool, sec *sdes) bool {
		if savp {
			return policy != SRTPOff && sec != nil
		}
		return policy != SRTPRequired
	}
	if !ok(m.savp.audio, m.AudioSec) {
		m.Audio, m.DTMF = nil, nil
	}
	if !ok(m.savp.video, m.VideoSec) {
		m.Video = nil
	}
	if !ok(m.savp.content, m.ContentSec) {
		m.Content = nil
	}
}

// readSDP reads a peer's offer or answer under the SRTP policy
// (Config.SRTP): errNoCodec when neither audio nor video is left.
func (u *UA) readSDP(body []byte) (Media, error) {
	m, err := parseSDP(body)
	if err != nil {
		return m, err
	}
	m.applySRTP(u.cfg.SRTP)
	if m.Audio == nil && m.Video == nil {
		return m, errNoCodec
	}
	return m, nil
}

// setCrypto keys the leg's streams with the peer's crypto lines.
func (l *leg) setCrypto(peer Media) {
	l.audio.setCrypto(peer.AudioSec)
	l.video.setCrypto(peer.VideoSec)
	l.content.setCrypto(peer.ContentSec)
}

// newKey is a fresh master key and salt.
func newKey() []byte {
	k := make([]byte, keyLen)
	_, _ = rand.Read(k)
	return k
}

// secure tells whether an m-line's profile is SRTP.
func secure(proto string) bool { return strings.Contains(strings.ToUpper(proto), "SAVP") }

// srtpSession is a stream's SRTP contexts: Confer's key encrypts what it
// sends, the peer's decrypts what it receives. The readers own the
// decrypting contexts; the encrypting ones are shared by the senders.
type srtpSession struct {
	peer                 sdes
	mu                   sync.Mutex
	outRTP, outRTCP      *srtp.Context
	inRTP, inRTCP        *srtp.Context
	rtpHdr               rtp.Header
	rtcpHdr, rtcpHdrSend rtcp.Header
}

func newSRTPSession(local []byte, peer sdes) (*srtpSession, error) {
	prof, _ := suiteProfile(peer.suite)
	s := &srtpSession{peer: peer}
	var err error
	mk := func(key []byte) *srtp.Context {
		if err != nil {
			return nil
		}
		var c *srtp.Context
		c, err = srtp.CreateContext(key[:16], key[16:], prof)
		return c
	}
	s.outRTP, s.outRTCP = mk(local), mk(local)
	s.inRTP, s.inRTCP = mk(peer.key), mk(peer.key)
	return s, err
}

func (s *srtpSession) encryptRTP(b []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.outRTP.EncryptRTP(nil, b, nil)
}

func (s *srtpSession) encryptRTCP(b []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.outRTCP.EncryptRTCP(nil, b, &s.rtcpHdrSend)
}

// decryptRTP and decryptRTCP are called by the stream's readers only.
func (s *srtpSession) decryptRTP(b []byte) ([]byte, error) {
	return s.inRTP.DecryptRTP(nil, b, &s.rtpHdr)
}

func (s *srtpSession) decryptRTCP(b []byte) ([]byte, error) {
	return s.inRTCP.DecryptRTCP(nil, b, &s.rtcpHdr)
}

// setCrypto keys a stream with the peer's crypto line (nil: plain RTP);
// the same key again changes nothing (a session refresh).
func (s *stream) setCrypto(peer *sdes) {
	if s == nil {
		return
	}
	if peer == nil {
		s.sec.Store(nil)
		return
	}
	if cur := s.sec.Load(); cur != nil && cur.peer.suite == peer.suite && string(cur.peer.key) == string(peer.key) {
		return
	}
	sess, err := newSRTPSession(s.key, *peer)
	if err != nil {
		return
	}
	s.sec.Store(sess)
}

// cryptoAttr is the a=crypto Confer answers a peer's with (its tag and
// suite, Confer's key), or offers ("" for a plain stream).
func (s *stream) cryptoAttr(peer *sdes) string {
	if s == nil || peer == nil {
		return ""
	}
	return sdes{tag: peer.tag, suite: peer.suite, key: s.key}.attr()
}

// offerCrypto is the a=crypto of Confer's SRTP offer on s.
func (s *stream) offerCrypto() string {
	if s == nil {
		return ""
	}
	return sdes{tag: 1, suite: cryptoSuites[0].name, key: s.key}.attr()
}
