package sip_test

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/g711"
	"github.com/confer-platform/confer/internal/audio/tone"
	"github.com/confer-platform/confer/internal/testserver"
)

// rtpEar is a G.711 terminal's RTP socket: it decodes the PCMU it
// receives (8 kHz) and sends a tone of its own.
type rtpEar struct {
	c   net.PacketConn
	mu  sync.Mutex
	pcm []int16
	n   int
}

func newRTPEar(t *testing.T) *rtpEar {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	e := &rtpEar{c: c}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, _, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			var p rtp.Packet
			if p.Unmarshal(buf[:n]) != nil || p.PayloadType != 0 {
				continue
			}
			e.mu.Lock()
			e.pcm = g711.DecodeUlaw(e.pcm, p.Payload)
			if len(e.pcm) > 32000 {
				e.pcm = append(e.pcm[:0], e.pcm[len(e.pcm)-8000:]...)
			}
			e.n++
			e.mu.Unlock()
		}
	}()
	return e
}

func (e *rtpEar) port() int { return e.c.LocalAddr().(*net.UDPAddr).Port }

// hears: the last half second holds each wanted tone (above 1500) and
// none of the others (below 300).
func (e *rtpEar) hears(want map[float64]bool) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.pcm) < 4000 {
		return false
	}
	tail := e.pcm[len(e.pcm)-4000:]
	for f, in := range want {
		l := tone.Level(tail, f, 8000)
		if in && l < 1500 || !in && l > 300 {
			return false
		}
	}
	return true
}

// speak sends a PCMU tone to addr every 20 ms until the test ends.
func (e *rtpEar) speak(t *testing.T, addr *net.UDPAddr, freq float64) {
	stop, done := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			p := rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 0, SequenceNumber: uint16(i), Timestamp: uint32(i) * 160, SSRC: 4242},
				Payload: g711.EncodeUlaw(nil, tone.Sine(freq, 6000, 8000, i*160, 160))}
			b, _ := p.Marshal()
			_, _ = e.c.WriteTo(b, addr)
		}
	}()
}

// publishTone publishes an Opus tone through WHIP until the test ends and
// returns the publisher's name.
func publishTone(t *testing.T, e *sipEnv, conf, name string, freq float64) {
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": name, "role": "publish"})))
	pc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.AddTrack(tr); err != nil {
		t.Fatal(err)
	}
	if code := whepOffer(t, pc, tok["whip_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d", code)
	}
	enc, err := audio.NewEncoder("opus")
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop); <-done; enc.Close() })
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			p, _ := enc.Encode(nil, tone.Sine(freq, 6000, audio.Rate, i*audio.Frame, audio.Frame))
			_ = tr.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i), Timestamp: uint32(i) * 960}, Payload: p})
		}
	}()
}

// mediaAddr is the audio address of an SDP (c= and the audio m= port).
func mediaAddr(t *testing.T, sdp string) *net.UDPAddr {
	t.Helper()
	var ip string
	port := 0
	for _, l := range strings.Split(strings.ReplaceAll(sdp, "\r\n", "\n"), "\n") {
		if v, ok := strings.CutPrefix(l, "c=IN IP4 "); ok && ip == "" {
			ip = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(l, "m=audio "); ok {
			port, _ = strconv.Atoi(strings.Fields(v)[0])
		}
	}
	if ip == "" || port == 0 {
		t.Fatalf("no audio address in the answer:\n%s", sdp)
	}
	return &net.UDPAddr{IP: net.ParseIP(ip), Port: port}
}

// TestG711TerminalHearsTheMix: three WebRTC publishers send Opus tones
// (440, 660, 880 Hz); a G.711 terminal that calls in afterwards and sends
// its own tone (330 Hz) hears the three and not itself (N−1); a mute
// takes a tone out.
func TestG711TerminalHearsTheMix(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	for i, f := range []float64{440, 660, 880} {
		publishTone(t, e, conf, "pub"+strconv.Itoa(i), f)
	}
	var pubs map[string]string
	waitFor(t, "the three publishers online", func() bool {
		pubs = map[string]string{}
		for _, m := range e.mts(t, conf) {
			if a, _ := m["alias"].(string); strings.HasPrefix(a, "pub") && online(m) {
				pubs[a] = m["mt_id"].(string)
			}
		}
		return len(pubs) == 3
	})

	ear := newRTPEar(t)
	p := newPeer(t, e.addr())
	p.target, p.remoteURI = "sip:"+conf+"@127.0.0.1", "sip:"+conf+"@127.0.0.1"
	sdp := "v=0\no=ear 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio " + strconv.Itoa(ear.port()) +
		" RTP/AVP 0\na=rtpmap:0 PCMU/8000\na=sendrecv\n"
	n := p.send("INVITE", "", sdp)
	res := p.final("INVITE", n)
	if res.code() != 200 {
		t.Fatalf("INVITE = %d", res.code())
	}
	p.remoteTag, p.target = tag(res.get("to", "t")), uriOf(res.get("contact", "m"))
	p.send("ACK", "", "", n)
	ear.speak(t, mediaAddr(t, res.body), 330)

	waitFor(t, "the terminal hearing 440, 660 and 880 Hz and not its own 330 Hz", func() bool {
		return ear.hears(map[float64]bool{440: true, 660: true, 880: true, 330: false})
	})

	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/mts/"+pubs["pub1"]+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	waitFor(t, "the terminal no longer hearing the muted 660 Hz", func() bool {
		return ear.hears(map[float64]bool{440: true, 660: false, 880: true, 330: false})
	})
	p.do("BYE", "", "")
}
