package sfu

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
)

// A subscriber gets sender reports (RFC 3550 section 6.4.1) of what it
// receives, from the SFU's one report loop (reports.go): the down track's
// SSRC, its packet and payload octet counts, an NTP time of the SFU's
// clock and an RTP time on the track's timeline.
func TestSenderReports(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 30})

	c := rg.newClient("sub")
	if _, err := c.pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	var ssrc, got atomic.Uint32
	reports := make(chan *rtcp.SenderReport, 16)
	c.pc.OnTrack(func(tr *webrtc.TrackRemote, r *webrtc.RTPReceiver) {
		ssrc.Store(uint32(tr.SSRC()))
		go func() {
			for {
				pkts, _, err := r.ReadRTCP()
				if err != nil {
					return
				}
				for _, p := range pkts {
					if sr, ok := p.(*rtcp.SenderReport); ok {
						select {
						case reports <- sr:
						default:
						}
					}
				}
			}
		}()
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			got.Add(1)
		}
	})
	c.connect(fmt.Sprintf("/rtc/whep/c1?mt_id=%s", a.mtID), http.StatusCreated)

	var sr *rtcp.SenderReport
	waitFor(t, "a sender report after some packets", func() bool {
		select {
		case sr = <-reports:
			return sr.PacketCount > 0
		default:
			return false
		}
	})
	if sr.SSRC != ssrc.Load() {
		t.Errorf("sender report of SSRC %d, the track's is %d", sr.SSRC, ssrc.Load())
	}
	// The publisher's packets carry 3 bytes of payload each.
	if sr.OctetCount != 3*sr.PacketCount {
		t.Errorf("sender report counts %d octets in %d packets, want %d", sr.OctetCount, sr.PacketCount, 3*sr.PacketCount)
	}
	if now := ntpTime(time.Now()); sr.NTPTime > now || sr.NTPTime < now-(3600<<32) {
		t.Errorf("sender report's NTP time %#x, now is %#x", sr.NTPTime, now)
	}
	// The next report counts more and its RTP time moved on.
	next := sr
	waitFor(t, "a later sender report", func() bool {
		select {
		case next = <-reports:
			return next.PacketCount > sr.PacketCount
		default:
			return false
		}
	})
	if d := int32(next.RTPTime - sr.RTPTime); d <= 0 {
		t.Errorf("RTP time went from %d to %d", sr.RTPTime, next.RTPTime)
	}
	if next.NTPTime <= sr.NTPTime {
		t.Errorf("NTP time went from %#x to %#x", sr.NTPTime, next.NTPTime)
	}
}

func TestNTPTime(t *testing.T) {
	t.Parallel()
	// 2026-01-01 00:00:00.5 UTC: 3976214400 seconds after 1900, half a second.
	at := time.Date(2026, 1, 1, 0, 0, 0, 500_000_000, time.UTC)
	if got, want := ntpTime(at), uint64(3976214400)<<32|1<<31; got != want {
		t.Errorf("ntpTime = %#x, want %#x", got, want)
	}
}
