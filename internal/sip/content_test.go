package sip_test

import (
	"fmt"
	"net"
	"net/http"
	"path"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/testserver"
)

// contentTerminal is a raw SIP video terminal with a content m-line
// (a=content:slides, RFC 4796) that calls into a conference.
type contentTerminal struct {
	t                     *testing.T
	d                     *dialog
	conf                  string
	audio, video, content *net.UDPConn
	confer                map[string]int // Confer's ports by m-line: audio, video, content
	cseq                  int
	sending               atomic.Bool
	stream                *h264Stream
	got                   *h264Check // H.264 received on the content m-line
}

func listenUDP(t *testing.T) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func port(c *net.UDPConn) int { return c.LocalAddr().(*net.UDPAddr).Port }

func newContentTerminal(t *testing.T, e *sipEnv, conf string) *contentTerminal {
	t.Helper()
	c, err := net.Dial("udp", e.addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ct := &contentTerminal{t: t, d: &dialog{t: t, c: c}, conf: conf, audio: listenUDP(t), video: listenUDP(t), content: listenUDP(t),
		stream: newH264Stream(10)}
	ct.got = newH264Check(ct.stream)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, err := ct.content.Read(buf)
			if err != nil {
				return
			}
			var p rtp.Packet
			if p.Unmarshal(append([]byte(nil), buf[:n]...)) == nil {
				ct.got.add(&p)
			}
		}
	}()
	return ct
}

// sdp is the terminal's offer; contentLine is its content m-line.
func (ct *contentTerminal) sdp(contentLine string) string {
	return fmt.Sprintf("v=0\no=raw 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\n"+
		"m=audio %d RTP/AVP 0\na=rtpmap:0 PCMU/8000\n"+
		"m=video %d RTP/AVP 96\na=rtpmap:96 H264/90000\na=fmtp:96 profile-level-id=42e01f;packetization-mode=1\na=content:main\n"+
		"%s", port(ct.audio), port(ct.video), contentLine)
}

func (ct *contentTerminal) slides(dir string) string {
	return fmt.Sprintf("m=video %d RTP/AVP 97\na=rtpmap:97 H264/90000\na=fmtp:97 profile-level-id=42e01f;packetization-mode=1\na=content:slides\na=%s\n",
		port(ct.content), dir)
}

// invite sends an INVITE (or re-INVITE) with the content line, ACKs the
// 200 and reads Confer's answer: its ports and content attributes.
func (ct *contentTerminal) invite(contentLine string) (contentAttrs []string) {
	t := ct.t
	t.Helper()
	ct.cseq++
	ct.d.send(ct.d.request("INVITE", ct.conf, ct.cseq, ct.sdp(contentLine)))
	if code := ct.d.final("INVITE"); code != 200 {
		t.Fatalf("INVITE = %d", code)
	}
	ct.d.send(ct.d.request("ACK", ct.conf, ct.cseq, ""))
	_, body, _ := strings.Cut(ct.d.last, "\r\n\r\n")
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(body); err != nil {
		t.Fatalf("Confer's answer: %v\n%s", err, body)
	}
	if len(sd.MediaDescriptions) != 3 {
		t.Fatalf("Confer's answer has %d m-lines, the offer 3:\n%s", len(sd.MediaDescriptions), body)
	}
	ct.confer = map[string]int{}
	for i, role := range []string{"audio", "video", "content"} {
		md := sd.MediaDescriptions[i]
		ct.confer[role] = md.MediaName.Port.Value
		if role == "content" {
			for _, a := range md.Attributes {
				contentAttrs = append(contentAttrs, a.String())
			}
		}
	}
	return contentAttrs
}

// present sends H.264 on the content m-line (30 frames a second, a key
// frame every 10) while sending is set, until the test ends.
func (ct *contentTerminal) present() {
	to := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: ct.confer["content"]}
	pz := ct.stream.packetizer(97, 0xc0111e17)
	stop := make(chan struct{})
	ct.t.Cleanup(func() { close(stop) })
	go func() {
		tk := time.NewTicker(time.Second / 30)
		defer tk.Stop()
		for i := 0; ; {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			if !ct.sending.Load() {
				continue
			}
			for _, p := range pz.Packetize(ct.stream.frame(i), 3000) {
				b, _ := p.Marshal()
				_, _ = ct.content.WriteToUDP(b, to)
			}
			i++
		}
	}()
}

func (ct *contentTerminal) bye() {
	ct.cseq++
	ct.d.send(ct.d.request("BYE", ct.conf, ct.cseq, ""))
	if code := ct.d.final("BYE"); code != 200 {
		ct.t.Fatalf("BYE = %d", code)
	}
}

// dual is the conference's dual stream source (GET .../dualstream).
func (e *sipEnv) dual(t *testing.T, conf string) string {
	t.Helper()
	return fmt.Sprint(testserver.MustOK(t, e.api.Do("GET", "/api/v1/vc/confs/"+conf+"/dualstream", nil))["mt_id"])
}

func (e *sipEnv) callerMt(t *testing.T, conf, alias string) string {
	t.Helper()
	var mt string
	waitFor(t, alias+" online", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["alias"] == alias && online(m) {
				mt = fmt.Sprint(m["mt_id"])
				return true
			}
		}
		return false
	})
	return mt
}

// contentPackets waits until Confer received n more packets from the
// terminals (its content among them).
func (e *sipEnv) morePackets(t *testing.T, n uint64) {
	t.Helper()
	rx := e.ua.Stats().RTPReceived
	waitFor(t, fmt.Sprintf("%d more packets from the terminal", n), func() bool { return e.ua.Stats().RTPReceived >= rx+n })
}

// h264Viewer is a WHEP subscriber (url with its query) counting the H.264
// it receives.
func h264Viewer(t *testing.T, url, token string, s *h264Stream) (*h264Check, *atomic.Value, *atomic.Uint32) {
	t.Helper()
	check := newH264Check(s)
	var mime atomic.Value
	var pt atomic.Uint32
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
		pt.Store(uint32(tr.PayloadType()))
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			check.add(p)
		}
	})
	if code := whepOffer(t, pc, url, token); code != http.StatusCreated {
		t.Fatalf("WHEP POST %s = %d", url, code)
	}
	return check, &mime, &pt
}

// A terminal's content m-line is the conference's dual stream under
// dual_mode, both ways and without transcoding (issue 26, docs/sip-media.md
// "Content"): refused while it is not the speaker (dual_mode 0); then
// its H.264 becomes the dual stream (GET .../dualstream names it, a WHEP
// ?dual=1 viewer receives it intact), ends when it stops sending, and
// DELETE .../dualstream stops forwarding it; a browser's H.264 screen
// share reaches the terminal's content port, until a re-INVITE sets the
// m-line to port 0.
func TestContentDualStream(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	ct := newContentTerminal(t, e, conf)
	attrs := ct.invite(ct.slides("sendrecv"))
	if ct.confer["content"] == 0 || !strings.Contains(strings.Join(attrs, " "), "content:slides") {
		t.Fatalf("content m-line answered with port %d, attributes %v", ct.confer["content"], attrs)
	}
	mt := e.callerMt(t, conf, "Raw")
	ct.present()

	// dual_mode 0: only the speaker may send the dual stream.
	ct.sending.Store(true)
	e.morePackets(t, 60)
	if got := e.dual(t, conf); got != "" {
		t.Fatalf("dual stream %q while the terminal is not the speaker", got)
	}
	ct.sending.Store(false)
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	time.Sleep(4 * time.Second) // a refused terminal asks again after a pause of its content (3 s)

	ct.sending.Store(true)
	waitFor(t, "the terminal's content as the dual stream", func() bool { return e.dual(t, conf) == mt })
	// The terminal's dual flag is written after the conference's source
	// (vc's mediaDualStarted): waited for, not read at once.
	waitFor(t, "the presenting terminal's dual 1", func() bool {
		for _, m := range e.mts(t, conf) {
			if fmt.Sprint(m["mt_id"]) == mt {
				return fmt.Sprint(m["dual"]) == "1"
			}
		}
		return false
	})
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	viewer, mime, vpt := h264Viewer(t, tok["whep_url"].(string)+"?dual=1", tok["token"].(string), ct.stream)
	waitFor(t, "the content at the ?dual=1 viewer", func() bool {
		_, idr, _, _, p, _ := viewer.intact()
		return idr >= 3 && p >= 40
	})
	if m, _ := mime.Load().(string); !strings.EqualFold(m, webrtc.MimeTypeH264) {
		t.Errorf("the dual viewer's codec %q, want H264", m)
	}
	viewer.verify(t, "?dual=1 viewer of the terminal's content", uint8(vpt.Load()))

	// The terminal stops sending: the dual stream ends.
	ct.sending.Store(false)
	waitFor(t, "the dual stream's end after the content stopped", func() bool { return e.dual(t, conf) == "" })

	// It presents again; the API's DELETE stops forwarding it.
	ct.sending.Store(true)
	waitFor(t, "the terminal presenting again", func() bool { return e.dual(t, conf) == mt })
	n0, _, _, _, _, _ := viewer.intact()
	waitFor(t, "the content at the viewer again", func() bool { n, _, _, _, _, _ := viewer.intact(); return n > n0+20 })
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/dualstream", testserver.Params(t, map[string]any{"mt_id": mt})))
	if got := e.dual(t, conf); got != "" {
		t.Fatalf("dual stream %q after DELETE", got)
	}
	e.morePackets(t, 20) // in flight
	before, _, _, _, _, _ := viewer.intact()
	e.morePackets(t, 80)
	if after, _, _, _, _, _ := viewer.intact(); after != before {
		t.Fatalf("the terminal's content still forwarded after DELETE .../dualstream: %d -> %d packets", before, after)
	}
	if got := e.dual(t, conf); got != "" {
		t.Fatalf("the terminal took the dual stream back without a pause: %q", got)
	}
	ct.sending.Store(false)

	// A browser shares its screen in H.264: the terminal's content m-line
	// receives it in its own payload type.
	pub := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "browser", "role": "publish"})))
	cam := newPC(t)
	audio, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "cam")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cam.AddTrack(audio); err != nil {
		t.Fatal(err)
	}
	r := rtcOffer(t, cam, pub["whip_url"].(string), pub["token"].(string))
	browserMt := e.callerMt(t, conf, "browser")
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": browserMt})))
	share := newPC(t)
	screen, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
		SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}, "screen", "share")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := share.AddTrack(screen); err != nil {
		t.Fatal(err)
	}
	if rr := rtcOffer(t, share, pub["whip_url"].(string)+"?dual=1&viewer="+path.Base(r), pub["token"].(string)); rr == "" {
		t.Fatal("no screen share session")
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		pz := ct.stream.packetizer(0, 0)
		tk := time.NewTicker(time.Second / 30)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			for _, p := range pz.Packetize(ct.stream.frame(i), 3000) {
				_ = screen.WriteRTP(p)
			}
		}
	}()
	waitFor(t, "the browser's share as the dual stream", func() bool { return e.dual(t, conf) == browserMt })
	waitFor(t, "the browser's share at the terminal's content port", func() bool {
		_, idr, _, _, p, _ := ct.got.intact()
		return idr >= 3 && p >= 40
	})
	ct.got.verify(t, "the terminal's content m-line", 97)

	// A re-INVITE sets the content m-line to port 0: nothing more is sent
	// to it (the ?dual=1 viewer still receives the share).
	ct.invite("m=video 0 RTP/AVP 97\n")
	if ct.confer["content"] != 0 {
		t.Fatalf("a content m-line refused by a re-INVITE answered with port %d", ct.confer["content"])
	}
	// Packets sent before the answer may still be on their way: the count
	// starts once the viewer has 30 more packets of the share, which the
	// node forwards after them (an event, where a fixed 200 ms was too
	// short a wait on a loaded machine).
	n0, _, _, _, _, _ = viewer.intact()
	waitFor(t, "the share at the viewer after the re-INVITE", func() bool { n, _, _, _, _, _ := viewer.intact(); return n > n0+30 })
	before, _, _, _, _, _ = ct.got.intact()
	n1, _, _, _, _, _ := viewer.intact()
	waitFor(t, "the share at the viewer", func() bool { n, _, _, _, _, _ := viewer.intact(); return n > n1+60 })
	if after, _, _, _, _, _ := ct.got.intact(); after != before {
		t.Fatalf("the share still sent to a content m-line with port 0: %d -> %d packets", before, after)
	}
	ct.bye()
}

// A terminal presenting ends the dual stream with a re-INVITE that makes
// its content m-line recvonly, presents again when it is sendrecv again,
// and its BYE ends the dual stream.
func TestContentEndsWithReinviteAndBye(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	ct := newContentTerminal(t, e, conf)
	ct.invite(ct.slides("sendrecv"))
	mt := e.callerMt(t, conf, "Raw")
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	ct.present()
	ct.sending.Store(true)
	waitFor(t, "the terminal presenting", func() bool { return e.dual(t, conf) == mt })
	attrs := ct.invite(ct.slides("recvonly"))
	if !strings.Contains(strings.Join(attrs, " "), "sendonly") {
		t.Errorf("a recvonly content m-line answered with %v, want sendonly", attrs)
	}
	// (a share the engine was granting as the re-INVITE came ends once granted)
	waitFor(t, "the dual stream's end after the re-INVITE made the content recvonly", func() bool { return e.dual(t, conf) == "" })
	ct.invite(ct.slides("sendrecv"))
	waitFor(t, "the terminal presenting after sendrecv", func() bool { return e.dual(t, conf) == mt })
	ct.bye()
	waitFor(t, "the dual stream's end with the BYE", func() bool { return e.dual(t, conf) == "" })
}

// rtcOffer posts a WHIP offer and returns the session's Location.
func rtcOffer(t *testing.T, pc *webrtc.PeerConnection, url, token string) string {
	t.Helper()
	r := rtctestOffer(t, pc, url, token)
	if r.Status != http.StatusCreated {
		t.Fatalf("WHIP POST %s = %d %s", url, r.Status, r.Body)
	}
	return r.Location
}
