package sfu

import (
	"sync/atomic"
	"testing"

	"github.com/pion/dtls/v3"
	"github.com/pion/rtp"
)

// A WHEP subscriber's audio goes the direct path (direct.go) once its
// connection is up, in each SRTP profile pion negotiates, and the
// subscriber's pion decrypts every packet; with NoDirectPath or without
// batched I/O it stays on pion's writer and arrives the same.
func TestDirectPath(t *testing.T) {
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
			_, isDirect := d.ws.(*directWriter)
			d.wmu.Unlock()
			if isDirect != tc.direct {
				t.Fatalf("direct path %v, want %v", isDirect, tc.direct)
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
