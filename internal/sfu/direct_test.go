package sfu

import (
	"bytes"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/pion/dtls/v3"
	"github.com/pion/rtp"
	"github.com/pion/srtp/v3"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// A WHEP subscriber's audio goes the direct path (direct.go) once its
// connection is up, in each SRTP profile pion negotiates, and the
// subscriber's pion decrypts every packet; with NoDirectPath or without
// batched I/O it stays on pion's writer and arrives the same.
func TestDirectPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		mutate  func(*Config)
		direct  bool
		profile dtls.SRTPProtectionProfile
	}{
		{"gcm", nil, true, dtls.SRTP_AEAD_AES_128_GCM},
		{"gcm256", nil, true, dtls.SRTP_AEAD_AES_256_GCM},
		{"aes-cm", nil, true, dtls.SRTP_AES128_CM_HMAC_SHA1_80},
		{"no-direct", func(c *Config) { c.NoDirectPath = true }, false, dtls.SRTP_AEAD_AES_128_GCM},
		{"plain", func(c *Config) { c.PlainUDP = true }, false, dtls.SRTP_AEAD_AES_128_GCM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rg := newRig(t, tc.mutate)
			a := rg.publish("c1", idA, false, "")
			var got atomic.Int64
			rg.quietSubscribeWith("c1", "?mt_id="+a.mtID, &got, tc.profile)
			_, dw, isDirect := settledSubscriber(t, rg)
			if isDirect != tc.direct {
				t.Fatalf("direct path %v, want %v", isDirect, tc.direct)
			}
			// No audio level negotiated: no header to encrypt, so an AEAD
			// profile seals with the SFU's own AES-GCM.
			if wantGCM := tc.profile != dtls.SRTP_AES128_CM_HMAC_SHA1_80; isDirect && (dw.gcm != nil) != wantGCM {
				t.Fatalf("own AES-GCM %v, want %v", dw.gcm != nil, wantGCM)
			}
			var seq uint16
			waitFor(t, "100 packets decrypted by the subscriber", func() bool {
				if got.Load() >= 100 {
					return true
				}
				seq++
				_ = a.audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960},
					Payload: []byte{idA, 0xfc, 0xff}})
				return false
			})
		})
	}
}

// The direct path's own AES-GCM (gcmSealer) seals every packet exactly as
// pion's SRTP context does, for both key sizes, across a roll-over of the
// sequence numbers and for a packet that arrives late from before it.
func TestGCMSealerMatchesPion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		profile srtp.ProtectionProfile
		keyLen  int
	}{{srtp.ProtectionProfileAeadAes128Gcm, 16}, {srtp.ProtectionProfileAeadAes256Gcm, 32}} {
		key, salt := make([]byte, tc.keyLen), make([]byte, 12)
		for i := range key {
			key[i] = byte(3*i + 1)
		}
		for i := range salt {
			salt[i] = byte(7*i + 5)
		}
		ref, err := srtp.CreateContext(key, salt, tc.profile)
		if err != nil {
			t.Fatal(err)
		}
		g, err := newGCMSealer(key, salt)
		if err != nil {
			t.Fatal(err)
		}
		seqs := []uint16{65530, 65531, 65533, 65535, 0, 1, 65534, 2, 3, 40000, 40001}
		for i, seq := range seqs {
			h := rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: seq, Timestamp: uint32(i) * 960, SSRC: 0x01020304, Marker: i == 0}
			payload := []byte{byte(i), 0xfc, 0xff, 0x10, byte(seq)}
			plain, err := (&rtp.Packet{Header: h, Payload: payload}).Marshal()
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.EncryptRTP(nil, plain, nil)
			if err != nil {
				t.Fatal(err)
			}
			hdr := make([]byte, h.MarshalSize(), 1500)
			if _, err := h.MarshalTo(hdr); err != nil {
				t.Fatal(err)
			}
			if got := g.seal(hdr, h.SSRC, seq, payload); !bytes.Equal(got, want) {
				t.Fatalf("%v, packet %d (seq %d): sealed\n%x, pion's\n%x", tc.profile, i, seq, got, want)
			}
		}
		if roc, _ := ref.ROC(0x01020304); g.roc != roc || roc != 1 {
			t.Fatalf("roll-over count %d, pion's %d, want 1", g.roc, roc)
		}
	}
}

// Behind a 1:1 NAT the pair's local candidate names the public address:
// the port's one socket on an address other than loopback answers for
// it; with none or two such sockets, none does (pion's writer stays).
func TestDirectPathPublicAddress(t *testing.T) {
	t.Parallel()
	var ip net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			ip = n.IP
			break
		}
	}
	if ip == nil {
		t.Skip("no IPv4 address other than loopback here")
	}
	lo, err := udpbatch.Listen("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Close()
	eth, err := udpbatch.Listen("udp4", &net.UDPAddr{IP: ip})
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	public := []string{"192.0.2.7"}
	port := eth.LocalAddr().(*net.UDPAddr).AddrPort().Port()
	w := &directWriter{conn: eth, public: publicAliases([]*udpbatch.Conn{lo, eth}, eth, public)}
	if !w.owns(netip.MustParseAddrPort("192.0.2.7:" + strconv.Itoa(int(port)))) {
		t.Error("the one non-loopback socket does not answer for the public address")
	}
	if w.owns(netip.MustParseAddrPort("192.0.2.8:" + strconv.Itoa(int(port)))) {
		t.Error("it answers for an address that is not the NAT's")
	}
	if w.owns(netip.MustParseAddrPort("192.0.2.7:" + strconv.Itoa(int(port)+1))) {
		t.Error("it answers for another port")
	}
	if a := publicAliases([]*udpbatch.Conn{lo, eth}, lo, public); a != nil {
		t.Errorf("the loopback socket answers for %v", a)
	}
	if a := publicAliases([]*udpbatch.Conn{lo, eth, eth}, eth, public); a != nil {
		t.Errorf("one of two candidate sockets answers for %v", a)
	}
}

// A subscriber whose pair leaves the batched port after the audio's
// sequence numbers rolled over goes on hearing it: the direct path hands
// pion's SRTP context the roll-over count (directWriter.handOff), and the
// subscriber's pion authenticates and decrypts what pion's writer sends
// from then on, in both of the direct path's sealers. (Before, the audio
// was dropped from the roll-over on: pion's context would have started at
// a count of 0.)
func TestDirectPathHandOffReachesPion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		profile dtls.SRTPProtectionProfile
	}{{"gcm", dtls.SRTP_AEAD_AES_128_GCM}, {"aes-cm", dtls.SRTP_AES128_CM_HMAC_SHA1_80}} {
		t.Run(tc.name, func(t *testing.T) {
			rg := newRig(t, nil)
			a := rg.publish("c1", idA, false, "")
			var got atomic.Int64
			rg.quietSubscribeWith("c1", "?mt_id="+a.mtID, &got, tc.profile)
			d, dw, isDirect := settledSubscriber(t, rg)
			if !isDirect {
				t.Fatal("the audio is not on the direct path")
			}
			if ctx, _ := pionLocalContext(d.sess.senders[0].Transport()); ctx == nil {
				t.Fatal("pion's local SRTP context is not reachable (pion's layout changed?)")
			}
			seq := uint16(65450)
			send := func() {
				seq++
				_ = a.audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 960},
					Payload: []byte{idA, 0xfc, 0xff}})
			}
			waitFor(t, "the subscriber's sequence numbers rolled over on the direct path", func() bool {
				d.wmu.Lock()
				roc := dw.tracker().roc
				d.wmu.Unlock()
				if roc >= 1 && got.Load() >= 20 {
					return true
				}
				send()
				return false
			})
			// The pair leaves the batched port (as an ICE restart onto a
			// TCP pair would make it): pion's writer takes over.
			dw.to.Store(nil)
			before := got.Load()
			waitFor(t, "50 packets through pion's writer decrypted by the subscriber", func() bool {
				if got.Load() >= before+50 {
					return true
				}
				send()
				return false
			})
			d.wmu.Lock()
			fell := dw.fell
			d.wmu.Unlock()
			if !fell {
				t.Fatal("the writer did not fall back to pion's")
			}
		})
	}
}

// settledSubscriber waits for the WHEP subscriber's audio track to have
// its writer, and says whether that is the direct path's.
func settledSubscriber(t *testing.T, rg *testRig) (*downTrack, *directWriter, bool) {
	t.Helper()
	var d *downTrack
	waitFor(t, "the subscriber's audio track settled", func() bool {
		rg.sfu.mu.Lock()
		defer rg.sfu.mu.Unlock()
		for _, x := range rg.sfu.sessions {
			if x.whep && len(x.downs) > 0 {
				x.downs[0].wmu.Lock()
				settled := !x.downs[0].directWanted && x.downs[0].ws != nil
				x.downs[0].wmu.Unlock()
				if settled {
					d = x.downs[0]
				}
			}
		}
		return d != nil
	})
	d.wmu.Lock()
	dw, isDirect := d.ws.(*directWriter)
	d.wmu.Unlock()
	return d, dw, isDirect
}
