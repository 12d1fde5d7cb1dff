package sip_test

import (
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/testserver"
)

// videoSDP is an offer of PCMU and the given video m-line's formats.
func videoSDP(audioPort, videoPort int, video string) string {
	return fmt.Sprintf("v=0\no=raw 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\n"+
		"m=audio %d RTP/AVP 0\na=rtpmap:0 PCMU/8000\nm=video %d RTP/AVP %s", audioPort, videoPort, video)
}

var videoLine = regexp.MustCompile(`(?s)m=video (\d+) RTP/AVP (\d+)\r\n(.*)`)

// vp8Frame is a tiny VP8 payload (RFC 7741 descriptor, S set): a key
// frame of 320x240 (RFC 6386 section 9.1) or an inter frame.
func vp8Frame(key bool) []byte {
	if key {
		return []byte{0x10, 0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xf0, 0x00, 0, 0, 0, 0, 0}
	}
	return []byte{0x10, 0x01, 0x02, 0x00, 0, 0, 0, 0}
}

// sendVP8 sends VP8 frames (a key frame every 10) with payload type pt
// to addr until the test ends.
func sendVP8(t *testing.T, write func([]byte), pt uint8) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tk := time.NewTicker(time.Second / 30)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: pt, SequenceNumber: uint16(i), Timestamp: uint32(i) * 3000,
				SSRC: 0x7b8, Marker: true}, Payload: vp8Frame(i%10 == 0)}
			b, _ := p.Marshal()
			write(b)
		}
	}()
}

// A terminal that offers VP8 only is answered VP8 (issue 39 item 8, not
// m=video 0): a WHEP viewer of the terminal receives its VP8, and a
// browser's VP8 camera reaches the terminal's video port in the
// terminal's payload type.
func TestVP8Terminal(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p, aMedia, vMedia := newPeer(t, e.addr()), listenUDP(t), listenUDP(t)
	res := p.callWith(conf, videoSDP(port(aMedia), port(vMedia), "100\na=rtpmap:100 VP8/90000\na=fmtp:100 max-fr=30;max-fs=3600\n"))
	if res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	m := videoLine.FindStringSubmatch(res.body)
	if m == nil || m[1] == "0" || m[2] != "100" || !strings.Contains(m[3], "a=rtpmap:100 VP8/90000") || strings.Contains(m[3], "max-fs") {
		t.Fatalf("VP8 offer answered:\n%s", res.body)
	}
	conferVideo, _ := strconv.Atoi(m[1])
	mt := e.callerMt(t, conf, "peer")

	// The terminal's VP8 reaches a viewer.
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: conferVideo}
	sendVP8(t, func(b []byte) { _, _ = vMedia.WriteToUDP(b, to) }, 100)
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	var mime atomic.Value
	var keys atomic.Int64
	pc := newPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		if tr.Kind() != webrtc.RTPCodecTypeVideo {
			return
		}
		mime.Store(tr.Codec().MimeType)
		for {
			pkt, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if string(pkt.Payload) == string(vp8Frame(true)) {
				keys.Add(1)
			}
		}
	})
	if code := whepOffer(t, pc, tok["whep_url"].(string)+"?mt_id="+mt, tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the terminal's VP8 key frames at the viewer", func() bool { return keys.Load() >= 3 })
	if got, _ := mime.Load().(string); !strings.EqualFold(got, webrtc.MimeTypeVP8) {
		t.Errorf("viewer's codec %q, want VP8", got)
	}

	// A browser's VP8 camera reaches the terminal, in its payload type.
	var fromBrowser atomic.Int64
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := vMedia.Read(buf)
			if err != nil {
				return
			}
			var pkt rtp.Packet
			if pkt.Unmarshal(buf[:n]) == nil && pkt.PayloadType == 100 && string(pkt.Payload) == string(vp8Frame(true)) {
				fromBrowser.Add(1)
			}
		}
	}()
	pub := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "browser", "role": "publish"})))
	cam := newPC(t)
	track, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000}, "video", "cam")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cam.AddTrack(track); err != nil {
		t.Fatal(err)
	}
	rtcOffer(t, cam, pub["whip_url"].(string), pub["token"].(string))
	browserMt := e.callerMt(t, conf, "browser")
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": browserMt})))
	sendVP8(t, func(b []byte) {
		var pkt rtp.Packet
		if pkt.Unmarshal(b) == nil {
			_ = track.WriteRTP(&pkt)
		}
	}, 96)
	waitFor(t, "the browser's VP8 key frames at the terminal", func() bool { return fromBrowser.Load() >= 3 })
	p.do("BYE", "", "")
}

// Of a terminal's H.264 payload types Confer answers the constrained
// baseline one in packetization mode 1 (what browsers decode and send),
// with its profile-level-id and nothing more of its fmtp (RFC 6184
// section 8.2.2; issue 39 item 8); H.264 comes before VP8.
func TestH264ProfileAnswered(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p, aMedia, vMedia := newPeer(t, e.addr()), listenUDP(t), listenUDP(t)
	offer := "100 101 102 103\n" +
		"a=rtpmap:100 H264/90000\na=fmtp:100 profile-level-id=640028;packetization-mode=1;sprop-parameter-sets=Z2QAKKzZQHgCJ+XARAAAAwBAAAAPI8YMZYA=,aOvjyyLA\n" +
		"a=rtpmap:101 H264/90000\na=fmtp:101 profile-level-id=42e00d;packetization-mode=1;max-mbps=11880\n" +
		"a=rtpmap:102 H264/90000\na=fmtp:102 profile-level-id=42e01f;packetization-mode=1;max-mbps=245760;max-fs=8192\n" +
		"a=rtpmap:103 H264/90000\na=fmtp:103 profile-level-id=42e01f\n" +
		"a=rtpmap:104 VP8/90000\n"
	offer = strings.Replace(offer, "100 101 102 103\n", "100 101 102 103 104\n", 1)
	res := p.callWith(conf, videoSDP(port(aMedia), port(vMedia), offer))
	if res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	m := videoLine.FindStringSubmatch(res.body)
	if m == nil || m[2] != "102" || !strings.Contains(m[3], "a=fmtp:102 profile-level-id=42e01f;packetization-mode=1\r\n") {
		t.Fatalf("answer to H.264 High, constrained baseline 1.3 and 3.1, mode 0 and VP8:\n%s", res.body)
	}
	if strings.Contains(res.body, "max-mbps") || strings.Contains(res.body, "sprop") {
		t.Fatalf("the terminal's fmtp copied into the answer:\n%s", res.body)
	}
	p.do("BYE", "", "")

	// A terminal with High profile only is answered High (a High decoder
	// decodes what Confer forwards).
	p2, a2, v2 := newPeer(t, e.addr()), listenUDP(t), listenUDP(t)
	res = p2.callWith(conf, videoSDP(port(a2), port(v2),
		"98\na=rtpmap:98 H264/90000\na=fmtp:98 profile-level-id=640028;packetization-mode=1;max-br=5000\n"))
	if m := videoLine.FindStringSubmatch(res.body); m == nil || m[2] != "98" || !strings.Contains(m[3], "a=fmtp:98 profile-level-id=640028;packetization-mode=1\r\n") {
		t.Fatalf("High profile answered:\n%s", res.body)
	}
	p2.do("BYE", "", "")
}

// A terminal's TMMBR on its video (RFC 5104) is answered with TMMBN
// naming the request, and the answer offers ccm tmmbr on the main video
// (issue 39 item 8; what it caps: sfu TestLocalVideoCap).
func TestTMMBRAnswered(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p, aMedia := newPeer(t, e.addr()), listenUDP(t)
	vRTP, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer vRTP.Close()
	res := p.callWith(conf, videoSDP(port(aMedia), port(vRTP),
		"97\nb=TIAS:512000\na=rtpmap:97 H264/90000\na=fmtp:97 profile-level-id=42e01f;packetization-mode=1\na=rtcp-fb:97 ccm tmmbr\n"))
	m := videoLine.FindStringSubmatch(res.body)
	if res.code() != 200 || m == nil || !strings.Contains(m[3], "a=rtcp-fb:97 ccm tmmbr") {
		t.Fatalf("INVITE: %s\n%s", res.first, res.body)
	}
	conferVideo, _ := strconv.Atoi(m[1])
	e.callerMt(t, conf, "peer")
	// The terminal's RTCP from its RTP port + 1; Confer answers there.
	vRTCP, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port(vRTP) + 1})
	if err != nil {
		t.Skipf("the RTCP port after the test's RTP port is taken: %v", err)
	}
	defer vRTCP.Close()
	v := uint32(2)<<26 | uint32(75000)<<9 | 40 // 300 kb/s
	tmmbr := []byte{0x80 | 3, 205, 0, 4, 0, 0, 0x7b, 0x8, 0, 0, 0, 0, 0, 0, 0x7b, 0x8,
		byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: conferVideo + 1}
	got := make(chan []byte, 16)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := vRTCP.Read(buf)
			if err != nil {
				return
			}
			got <- append([]byte(nil), buf[:n]...)
		}
	}()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-got:
			for len(b) >= 4 {
				n := (int(b[2])<<8|int(b[3]))*4 + 4
				if n > len(b) {
					break
				}
				if b[1] == 205 && b[0]&0x1f == 4 && n == 20 && string(b[12:20]) == string(tmmbr[12:20]) {
					p.do("BYE", "", "")
					return
				}
				b = b[n:]
			}
		case <-tick.C:
			_, _ = vRTCP.WriteToUDP(tmmbr, to) // RTCP is unreliable: sent until answered
		case <-deadline:
			t.Fatal("no TMMBN answered the TMMBR")
		}
	}
}
