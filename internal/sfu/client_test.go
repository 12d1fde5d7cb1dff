package sfu

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
)

// client is a pion peer of a test: a publisher or a subscriber.
type client struct {
	rg       *testRig
	pc       *webrtc.PeerConnection
	location string
	mtID     string
	token    string

	audio, video *webrtc.TrackLocalStaticRTP
	layers       []*webrtc.TrackLocalStaticRTP
	midID, ridID uint8
	levelID      uint8
	keyNow       chan struct{}
	nacked       atomicSet // sequence numbers the SFU asked again
	mime         string    // video codec published
	stop         chan struct{}

	mu   sync.Mutex
	recv map[string]int // "audio/<id>" or "video/<id>/<layer>" -> packets
	seqs map[string][]uint16
	tick chan struct{}
}

func (c *client) count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.recv[key]
}

func (c *client) total(prefix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.recv {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}

// connect posts the client's offer to path and applies the answer.
func (c *client) connect(path string, want int) {
	t := c.rg.t
	t.Helper()
	offer, err := c.pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(c.pc)
	if err := c.pc.SetLocalDescription(offer); err != nil {
		t.Fatal(err)
	}
	<-gathered
	code, loc, body := c.rg.post(path, c.token, c.pc.LocalDescription().SDP)
	if code != want {
		t.Fatalf("POST %s = %d %q, want %d", path, code, body, want)
	}
	if code != http.StatusCreated {
		return
	}
	c.location = loc
	if err := c.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: body}); err != nil {
		t.Fatal(err)
	}
}

func (rg *testRig) newClient(token string) *client {
	pc, err := clientAPI(rg.t).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		rg.t.Fatal(err)
	}
	c := &client{rg: rg, pc: pc, token: token, recv: map[string]int{}, seqs: map[string][]uint16{},
		tick: make(chan struct{}, 1), keyNow: make(chan struct{}, 1), stop: make(chan struct{})}
	rg.t.Cleanup(func() {
		close(c.stop)
		_ = pc.Close()
	})
	return c
}

// publish connects a WHIP publisher whose packets carry id; simulcast adds
// three VP8 layers q, h, f instead of one.
func (rg *testRig) publish(conf string, id byte, simulcast bool, query string) *client {
	rg.t.Helper()
	c := rg.newClient("pub")
	var err error
	c.audio, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "pub")
	if err != nil {
		rg.t.Fatal(err)
	}
	as, err := c.pc.AddTrack(c.audio)
	if err != nil {
		rg.t.Fatal(err)
	}
	go drainRTCP(as, nil, nil)
	c.mime = webrtc.MimeTypeVP8
	if rg.h264 {
		c.mime = webrtc.MimeTypeH264
	}
	vcap := webrtc.RTPCodecCapability{MimeType: c.mime, ClockRate: 90000}
	if simulcast {
		for _, rid := range []string{"q", "h", "f"} {
			tr, err := webrtc.NewTrackLocalStaticRTP(vcap, "video", "pub", webrtc.WithRTPStreamID(rid))
			if err != nil {
				rg.t.Fatal(err)
			}
			c.layers = append(c.layers, tr)
		}
		vs, err := c.pc.AddTrack(c.layers[0])
		if err != nil {
			rg.t.Fatal(err)
		}
		for _, l := range c.layers[1:] {
			if err := vs.AddEncoding(l); err != nil {
				rg.t.Fatal(err)
			}
		}
		for _, h := range vs.GetParameters().HeaderExtensions {
			switch h.URI {
			case sdp.SDESMidURI:
				c.midID = uint8(h.ID)
			case sdp.SDESRTPStreamIDURI:
				c.ridID = uint8(h.ID)
			}
		}
		// Each encoding has its own RTCP reader (a PLI names one layer).
		for _, l := range c.layers {
			rid := l.RID()
			go drainRTCPFrom(func() ([]rtcp.Packet, error) { p, _, err := vs.ReadSimulcastRTCP(rid); return p, err }, c.keyNow, &c.nacked)
		}
	} else {
		c.video, err = webrtc.NewTrackLocalStaticRTP(vcap, "video", "pub")
		if err != nil {
			rg.t.Fatal(err)
		}
		vs, err := c.pc.AddTrack(c.video)
		if err != nil {
			rg.t.Fatal(err)
		}
		go drainRTCP(vs, c.keyNow, &c.nacked)
	}
	for _, h := range as.GetParameters().HeaderExtensions {
		if h.URI == AudioLevelURI {
			c.levelID = uint8(h.ID)
		}
	}
	c.connect(fmt.Sprintf("/rtc/whip/%s%s", conf, query), http.StatusCreated)
	c.mtID = rg.lastMt()
	return c
}

func (rg *testRig) lastMt() string {
	rg.ev.mu.Lock()
	defer rg.ev.mu.Unlock()
	return strconv.Itoa(rg.ev.next)
}

// drainRTCP reads a sender's RTCP (so interceptors run) and signals a PLI.
func drainRTCP(s *webrtc.RTPSender, pli chan struct{}, nacked *atomicSet) {
	drainRTCPFrom(func() ([]rtcp.Packet, error) { p, _, err := s.ReadRTCP(); return p, err }, pli, nacked)
}

func drainRTCPFrom(read func() ([]rtcp.Packet, error), pli chan struct{}, nacked *atomicSet) {
	for {
		pkts, err := read()
		if err != nil {
			return
		}
		for _, p := range pkts {
			if _, ok := p.(*rtcp.PictureLossIndication); ok && pli != nil {
				select {
				case pli <- struct{}{}:
				default:
				}
			}
			if n, ok := p.(*rtcp.TransportLayerNack); ok && nacked != nil {
				for _, pair := range n.Nacks {
					for _, seq := range pair.PacketList() {
						nacked.add(seq)
					}
				}
			}
		}
	}
}

// frame builds a video payload of the client's codec marked like vp8's.
func (c *client) frame(id, layer byte, key bool) []byte {
	if c.mime == webrtc.MimeTypeH264 {
		p := []byte{0x41, 0x9a, 0, 0, 0, id, layer, 0}
		if key {
			p[0] = 0x65 // IDR slice (RFC 6184 section 5.3)
		}
		return p
	}
	return vp8(id, layer, key)
}

// vp8 builds a VP8 payload (RFC 7741 descriptor, S=1) marked with the
// publisher id and layer; key sets the frame header's P bit to 0.
func vp8(id byte, layer byte, key bool) []byte {
	p := []byte{0x10, 0x01, 0x9d, 0x01, 0x2a, id, layer, 0, 0, 0}
	if key {
		p[1] = 0x00
	}
	return p
}

// run sends audio and video until the test ends: a packet of each every
// 5 ms, a key frame on each PLI; level is the RFC 6464 level sent.
// Layers in hold get no key frame until released.
type sendOpts struct {
	skipSeq   uint16 // a video sequence number never sent (a loss)
	lossEvery uint16 // every lossEvery-th video packet is not sent (steady loss); 0 none
	level     uint8
	noKeyFor  map[int]bool
	stopped   map[int]bool // layers no longer sent
	pliOnly   bool         // key frames only when asked (as browsers do)
	mu        sync.Mutex
}

func (o *sendOpts) skip(seq uint16) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return (o.skipSeq != 0 && seq == o.skipSeq) || (o.lossEvery != 0 && seq%o.lossEvery == 0)
}

// atomicSet is a set of sequence numbers shared between goroutines.
type atomicSet struct {
	mu sync.Mutex
	m  map[uint16]bool
}

func (s *atomicSet) add(v uint16) {
	s.mu.Lock()
	if s.m == nil {
		s.m = map[uint16]bool{}
	}
	s.m[v] = true
	s.mu.Unlock()
}

func (s *atomicSet) has(v uint16) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[v]
}

func (o *sendOpts) setLevel(l uint8) {
	o.mu.Lock()
	o.level = l
	o.mu.Unlock()
}

func (o *sendOpts) lvl() uint8 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.level
}

func (o *sendOpts) held(l int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.noKeyFor[l]
}

func (o *sendOpts) off(l int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.stopped[l]
}

func (c *client) run(id byte, o *sendOpts) {
	go func() {
		var seq uint16
		var ts uint32
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-c.stop:
				return
			case <-tk.C:
			}
			seq++
			ts += 450
			skip := o.skip(seq)
			ap := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts * 48 / 90}, Payload: []byte{id, 0xfc, 0xff}}
			if c.levelID != 0 {
				_ = ap.SetExtension(c.levelID, []byte{o.lvl()})
			}
			_ = c.audio.WriteRTP(ap)
			key := i%100 == 0 && !o.pliOnly
			select {
			case <-c.keyNow:
				key = true
			default:
			}
			if c.video != nil && !skip {
				_ = c.video.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts, Marker: true}, Payload: c.frame(id, 0, key)})
			}
			for l, tr := range c.layers {
				if o.off(l) {
					continue
				}
				k := key && !o.held(l)
				p := &rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts, Marker: true}, Payload: c.frame(id, byte(l), k)}
				_ = p.SetExtension(c.midID, []byte("1"))
				_ = p.SetExtension(c.ridID, []byte(tr.RID()))
				_ = tr.WriteRTP(p)
			}
		}
	}()
}

// subscribe connects a WHEP subscriber counting what it receives.
// subscribe receives as a participant that only watches (a join page
// without camera: kind=browser), a terminal the controls reach.
func (rg *testRig) subscribe(conf, query, token string) *client {
	rg.t.Helper()
	if query == "" {
		query = "?kind=browser"
	} else if !strings.Contains(query, "kind=") && !strings.Contains(query, "viewer=") && !strings.Contains(query, "preview=") {
		query += "&kind=browser"
	}
	return rg.receive(conf, query, token, true)
}

// viewer receives as a plain WHEP viewer (a player): no participant.
func (rg *testRig) viewer(conf, query, token string) *client {
	rg.t.Helper()
	return rg.receive(conf, query, token, false)
}

func (rg *testRig) receive(conf, query, token string, participant bool) *client {
	rg.t.Helper()
	c := rg.newClient(token)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := c.pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			rg.t.Fatal(err)
		}
	}
	c.pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := t.ReadRTP()
			if err != nil {
				return
			}
			var key string
			if t.Kind() == webrtc.RTPCodecTypeAudio && len(p.Payload) > 0 {
				key = fmt.Sprintf("audio/%d", p.Payload[0])
			} else if len(p.Payload) >= 7 {
				key = fmt.Sprintf("video/%d/%d", p.Payload[5], p.Payload[6])
			}
			c.mu.Lock()
			c.recv[key]++
			c.seqs[t.Kind().String()] = append(c.seqs[t.Kind().String()], p.SequenceNumber)
			c.mu.Unlock()
		}
	})
	c.connect(fmt.Sprintf("/rtc/whep/%s%s", conf, query), http.StatusCreated)
	if participant {
		c.mtID = rg.lastMt()
	}
	return c
}

// waitFor polls cond until it holds, until go test's -timeout (not a
// budget of its own, which a loaded machine overruns).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if browsertest.Expired(t) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// flowing waits until key grows by n packets.
func (c *client) flowing(t testing.TB, key string, n int) {
	t.Helper()
	start := c.total(key)
	waitFor(t, fmt.Sprintf("%d more packets of %s", n, key), func() bool { return c.total(key) >= start+n })
}

// stopped checks that c's key no longer grows while ref's refKey keeps
// flowing: refKey advances 50 packets (anything in flight lands), then key
// must stay put while refKey advances 100 more.
func stopped(t testing.TB, c *client, key string, ref *client, refKey string) {
	t.Helper()
	ref.flowing(t, refKey, 50)
	before := c.total(key)
	ref.flowing(t, refKey, 100)
	if after := c.total(key); after != before {
		t.Fatalf("%s still arriving: %d -> %d packets while %s flowed", key, before, after, refKey)
	}
}

// watchVia connects a WHEP subscriber on a PeerConnection the test built
// (a transport of its own), waits for 30 video packets and returns the
// candidate pair they came over.
func (rg *testRig) watchVia(pc *webrtc.PeerConnection, path string) *webrtc.ICECandidatePair {
	rg.t.Helper()
	c := rg.newClient("sub")
	_ = c.pc.Close()
	c.pc = pc
	rg.t.Cleanup(func() { _ = pc.Close() })
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeVideo, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		rg.t.Fatal(err)
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			c.mu.Lock()
			c.recv["video"]++
			c.mu.Unlock()
		}
	})
	c.connect(path, http.StatusCreated)
	c.flowing(rg.t, "video", 30)
	pair, err := pc.SCTP().Transport().ICETransport().GetSelectedCandidatePair()
	if err != nil || pair == nil {
		rg.t.Fatalf("selected pair: %v %v", pair, err)
	}
	return pair
}
