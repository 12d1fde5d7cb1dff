package sip_test

import (
	"encoding/binary"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/testserver"
)

// listenPair listens on an RTP port and the RTCP port after it.
func listenPair(t *testing.T) (rtpc, rtcpc *net.UDPConn) {
	t.Helper()
	for range 50 {
		a := listenUDP(t)
		b, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port(a) + 1})
		if err == nil {
			t.Cleanup(func() { b.Close() })
			return a, b
		}
		a.Close()
	}
	t.Fatal("no free RTP/RTCP port pair")
	return nil, nil
}

// rtcpTMMBR collects the bitrates of the TMMBRs (RFC 5104 section
// 4.2.1) and whether a TMMBN came, of what conn receives.
type rtcpTMMBR struct {
	least, last atomic.Int64 // bits a second
	tmmbn       atomic.Bool
}

func watchTMMBR(conn *net.UDPConn) *rtcpTMMBR {
	w := &rtcpTMMBR{}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			for b := buf[:n]; len(b) >= 4; {
				l := (int(binary.BigEndian.Uint16(b[2:4])) + 1) * 4
				if l > len(b) {
					break
				}
				if b[1] == 205 && l == 20 {
					switch b[0] & 0x1f {
					case 3:
						v := binary.BigEndian.Uint32(b[16:20])
						bps := int64(uint64((v>>9)&0x1ffff) << (v >> 26))
						w.last.Store(bps)
						if old := w.least.Load(); old == 0 || bps < old {
							w.least.Store(bps)
						}
					case 4:
						w.tmmbn.Store(true)
					}
				}
				b = b[l:]
			}
		}
	}()
	return w
}

// A receiver's bandwidth cap reaches the sender of a source of one
// layer (issue 39 item 8; docs/sip-media.md "Bandwidth"): a SIP terminal
// that declares b=AS:256 makes a WebRTC publisher's video receive a REMB
// at or under 256 kb/s while the terminal sees it; a SIP terminal's
// video it sees instead receives a TMMBR of the same; a TMMBR of the
// receiving terminal is answered with TMMBN and lowers the sender's
// TMMBR; once nobody capped sees the WebRTC publisher, its REMB lifts.
func TestBandwidthCapReachesPublisher(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)

	// The capped receiver: VP8, b=AS:256, TMMBR both ways.
	recv := newPeer(t, e.addr())
	recv.localURI = "sip:capped@" + recv.local
	rAudio := listenUDP(t)
	rVideo, rRTCP := listenPair(t)
	res := recv.callWith(conf, videoSDP(port(rAudio), port(rVideo),
		"100\nb=AS:256\na=rtpmap:100 VP8/90000\na=rtcp-fb:100 ccm tmmbr\n"))
	m := videoLine.FindStringSubmatch(res.body)
	if res.code() != 200 || m == nil || m[1] == "0" {
		t.Fatalf("INVITE: %s\n%s", res.first, res.body)
	}
	recvVideo, _ := strconv.Atoi(m[1])
	e.callerMt(t, conf, "capped")

	// A WebRTC publisher without simulcast, made the speaker.
	pub := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "browser", "role": "publish"})))
	cam := newPC(t)
	track, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, "video", "cam")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := cam.AddTrack(track)
	if err != nil {
		t.Fatal(err)
	}
	var remb, rembLast atomic.Int64 // the least and the last REMB, bits a second
	go func() {
		for {
			pkts, _, err := sender.ReadRTCP()
			if err != nil {
				return
			}
			for _, p := range pkts {
				if r, ok := p.(*rtcp.ReceiverEstimatedMaximumBitrate); ok {
					rembLast.Store(int64(r.Bitrate))
					if old := remb.Load(); old == 0 || int64(r.Bitrate) < old {
						remb.Store(int64(r.Bitrate))
					}
				}
			}
		}
	}()
	rtcOffer(t, cam, pub["whip_url"].(string), pub["token"].(string))
	browserMt := e.callerMt(t, conf, "browser")
	sendVP8(t, func(b []byte) {
		var pkt rtp.Packet
		if pkt.Unmarshal(b) == nil {
			_ = track.WriteRTP(&pkt)
		}
	}, 96)
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": browserMt})))
	waitFor(t, "a REMB of at most 256 kb/s at the WebRTC publisher", func() bool {
		b := remb.Load()
		return b > 0 && b <= 256000
	})

	// A SIP terminal's VP8 (offering TMMBR), made the speaker.
	src := newPeer(t, e.addr())
	src.localURI = "sip:sender@" + src.local
	sAudio := listenUDP(t)
	sVideo, sRTCP := listenPair(t)
	tm := watchTMMBR(sRTCP)
	res = src.callWith(conf, videoSDP(port(sAudio), port(sVideo),
		"100\na=rtpmap:100 VP8/90000\na=rtcp-fb:100 ccm tmmbr\n"))
	m = videoLine.FindStringSubmatch(res.body)
	if res.code() != 200 || m == nil || m[1] == "0" {
		t.Fatalf("INVITE: %s\n%s", res.first, res.body)
	}
	srcVideo, _ := strconv.Atoi(m[1])
	srcMt := e.callerMt(t, conf, "sender")
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: srcVideo}
	sendVP8(t, func(b []byte) { _, _ = sVideo.WriteToUDP(b, to) }, 100)
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": srcMt})))
	waitFor(t, "a TMMBR of at most 256 kb/s at the SIP sender", func() bool {
		b := tm.last.Load()
		return b > 0 && b <= 256000
	})
	waitFor(t, "the WebRTC publisher's REMB lifted", func() bool { return rembLast.Load() > 256000 })

	// The receiver's own TMMBR of 200 kb/s: answered TMMBN, passed on.
	rw := watchTMMBR(rRTCP)
	v := uint32(1)<<26 | uint32(100000)<<9 | 40
	req := []byte{0x80 | 3, 205, 0, 4, 0, 0, 0x0c, 0x0d, 0, 0, 0, 0, 0, 0, 0x0c, 0x0d,
		byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	rto := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: recvVideo + 1}
	waitFor(t, "a TMMBN to the receiver and a TMMBR of 200 kb/s at the sender", func() bool {
		if !rw.tmmbn.Load() {
			_, _ = rRTCP.WriteToUDP(req, rto) // RTCP is unreliable: sent until answered
			return false
		}
		return tm.last.Load() == 200000
	})
	recv.do("BYE", "", "")
	src.do("BYE", "", "")
}
