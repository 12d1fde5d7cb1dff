package sfu

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/lossy"
)

// testAuth knows tokens "pub", "sub", "both" (role = name) for the
// conferences in confs.
type testAuth struct {
	mu    sync.Mutex
	confs map[string]int // conf -> max participants
}

func (a *testAuth) Authorize(ctx context.Context, confID, token string) (Grant, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	limit, ok := a.confs[confID]
	role := map[string]Role{"pub": RolePublish, "sub": RoleSubscribe, "both": RoleBoth, "wall": RoleSubscribe}[token]
	r := RequestFromContext(ctx)
	if c, err := r.Cookie("confer_session"); token == "" && err == nil && c.Value == "ok" {
		role = RoleBoth // a logged-in user
	}
	if confID == "locked" && role != "" && r.Header.Get("X-Confer-Password") != "pw" {
		return Grant{}, ErrPasswordRequired
	}
	switch {
	case role == "":
		return Grant{}, ErrUnauthorized
	case !ok:
		return Grant{}, ErrNotFound
	}
	if token == "wall" { // a TV wall channel (vc's Watch): watches and hears the mix
		return Grant{ConfID: confID, Role: RoleSubscribe, Name: "viewer", Watch: true, Tag: "wall:1", MixedAudio: true}, nil
	}
	return Grant{ConfID: confID, Role: role, Name: "user-" + token, Title: "Conference " + confID, MaxParticipants: limit}, nil
}

type leftEvent struct {
	mtID string
	lost bool
}

// testEvents numbers participants 1, 2, ... and records what it hears; a
// participant that joins again with the same Rejoin key gets its number
// back, as the engine gives a rejoining client its terminal.
type testEvents struct {
	mu      sync.Mutex
	next    int
	joined  []Participant
	mts     []string          // the mt_id given to each of joined
	byKey   map[string]string // Rejoin key -> mt_id
	left    []leftEvent
	levels  map[string]uint8
	changed chan struct{}
	// dual stream: the shares started and stopped (mt ids), and whether
	// DualStarted refuses (vc's dual_mode)
	dualStarted, dualStopped []string
	refuseDual               bool
}

func newTestEvents() *testEvents {
	return &testEvents{changed: make(chan struct{}, 1), levels: map[string]uint8{}}
}

func (e *testEvents) Joined(_ context.Context, _ string, p Participant) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	mt := e.byKey[p.Rejoin]
	if mt == "" {
		e.next++
		mt = strconv.Itoa(e.next)
	}
	if p.Rejoin != "" {
		if e.byKey == nil {
			e.byKey = map[string]string{}
		}
		e.byKey[p.Rejoin] = mt
	}
	e.joined = append(e.joined, p)
	e.mts = append(e.mts, mt)
	return mt, nil
}

func (e *testEvents) Left(_, mtID string, lost bool) {
	e.mu.Lock()
	e.left = append(e.left, leftEvent{mtID, lost})
	e.mu.Unlock()
}

func (e *testEvents) AudioLevels(_ string, levels map[string]uint8) {
	e.mu.Lock()
	for k, v := range levels {
		e.levels[k] = v
	}
	e.mu.Unlock()
}

func (e *testEvents) DualStarted(_, mtID string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.refuseDual {
		return errors.New("dual_mode refuses")
	}
	e.dualStarted = append(e.dualStarted, mtID)
	return nil
}

func (e *testEvents) DualStopped(_, mtID string) {
	e.mu.Lock()
	e.dualStopped = append(e.dualStopped, mtID)
	e.mu.Unlock()
}

func (e *testEvents) duals() (started, stopped []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.dualStarted...), append([]string(nil), e.dualStopped...)
}

func (e *testEvents) snapshot() (joined int, left []leftEvent, levels map[string]uint8) {
	e.mu.Lock()
	defer e.mu.Unlock()
	lv := map[string]uint8{}
	for k, v := range e.levels {
		lv[k] = v
	}
	return len(e.joined), append([]leftEvent(nil), e.left...), lv
}

type testRig struct {
	h264    bool // publishers send H.264 instead of VP8
	t       testing.TB
	sfu     *SFU
	srv     *httptest.Server
	auth    *testAuth
	ev      *testEvents
	cfg     Config
	handler atomic.Pointer[http.Handler] // the SFU's, replaced by restart
	// lossy, when set, puts each session offered from then on (a pion
	// client's, a join page's) behind a relay of its own with these
	// options (issue 35: tests over loss); see overRelay.
	lossy  atomic.Pointer[lossy.Options]
	relays sync.Map // session URL: its *lossy.Relay
}

func newRig(t testing.TB, mutate func(*Config)) *testRig {
	t.Helper()
	cfg := Config{Loopback: true, TCPPort: -1, DisconnectedTimeout: time.Second, FailedTimeout: time.Second}
	if mutate != nil {
		mutate(&cfg)
	}
	auth := &testAuth{confs: map[string]int{"c1": 0, "small": 1, "locked": 0}}
	ev := newTestEvents()
	s, err := New(cfg, auth, ev)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	rg := &testRig{t: t, sfu: s, auth: auth, ev: ev, cfg: cfg}
	h := s.Handler()
	rg.handler.Store(&h)
	rg.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := rg.lossy.Load(); o != nil && r.Method != http.MethodGet {
			rg.overRelay(w, r, *o)
			return
		}
		(*rg.handler.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		rg.srv.Close()
		_ = rg.sfu.Close()
	})
	return rg
}

// overRelay serves an SDP exchange with the media through a lossy relay:
// the offer (a POST) or the ICE restart's fragment (a PATCH) goes without
// the client's candidates, so the SFU learns the client's address only
// from its checks through the relay, and the answer names the relay as
// the SFU's only candidate. Any client gets the lossy network this way,
// a browser page as well as a pion client.
func (rg *testRig) overRelay(w http.ResponseWriter, r *http.Request, o lossy.Options) {
	ct := r.Header.Get("Content-Type")
	if ct != "application/sdp" && ct != "application/trickle-ice-sdpfrag" {
		(*rg.handler.Load()).ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	in := lossy.Offer(string(body))
	r.Body, r.ContentLength = io.NopCloser(strings.NewReader(in)), int64(len(in))
	rec := httptest.NewRecorder()
	(*rg.handler.Load()).ServeHTTP(rec, r)
	out := rec.Body.String()
	if rec.Code == http.StatusCreated || rec.Code == http.StatusOK {
		key := r.URL.Path
		if r.Method == http.MethodPost {
			key = rec.Header().Get("Location")
		}
		var relay *lossy.Relay
		if v, ok := rg.relays.Load(key); ok {
			relay = v.(*lossy.Relay)
		} else {
			relay = lossy.New(rg.t, o)
			rg.relays.Store(key, relay)
		}
		if strings.Contains(out, "a=candidate:") {
			if out, err = relay.Answer(out); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(rec.Code)
	_, _ = io.WriteString(w, out)
}

// relayed logs what the rig's relays carried and lost, and fails the test
// if nothing went through them.
func (rg *testRig) relayed(t *testing.T) {
	t.Helper()
	var sent, lost int64
	rg.relays.Range(func(_, v any) bool {
		s, l := v.(*lossy.Relay).Stats()
		sent, lost = sent+s, lost+l
		return true
	})
	if sent == 0 {
		t.Fatal("nothing went through the lossy relays")
	}
	t.Logf("lossy relays: %d datagrams, %d lost", sent, lost)
}

// restart replaces the SFU behind the rig's URL with a new one, as a
// conferd restart does: every session and room is gone, the engine (the
// rig's events) stays.
func (rg *testRig) restart() {
	rg.t.Helper()
	s, err := New(rg.cfg, rg.auth, rg.ev)
	if err != nil {
		rg.t.Fatalf("New: %v", err)
	}
	old := rg.sfu
	h := s.Handler()
	rg.handler.Store(&h)
	rg.sfu = s
	_ = old.Close()
}

// clientAPI is a pion client like a browser: default codecs and
// interceptors plus the RFC 6464 extension.
func clientAPI(t testing.TB) *webrtc.API {
	t.Helper()
	m := &webrtc.MediaEngine{}
	if err := m.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: AudioLevelURI}, webrtc.RTPCodecTypeAudio); err != nil {
		t.Fatal(err)
	}
	reg := &interceptor.Registry{}
	reg.Add(rridFactory{}) // inside the NACK responder: sees its RTX
	if err := webrtc.RegisterDefaultInterceptors(m, reg); err != nil {
		t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(0)
	return webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(reg), webrtc.WithSettingEngine(se))
}

// post sends an offer and returns status, Location and body.
func (rg *testRig) post(path, token, offer string) (int, string, string) {
	rg.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, rg.srv.URL+path, strings.NewReader(offer))
	req.Header.Set("Content-Type", "application/sdp")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rg.t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

func (rg *testRig) do(method, path, token, ctype, body string) int {
	rg.t.Helper()
	req, _ := http.NewRequest(method, rg.srv.URL+path, strings.NewReader(body))
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rg.t.Fatalf("%s %s: %v", method, path, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// rridFactory makes a test publisher's retransmissions (RFC 4588 RTX)
// carry the repaired stream's RID in the repaired-rtp-stream-id extension,
// as browsers send them (RFC 8852 section 3.2). pion's NACK responder
// resends a packet with its header extensions, the rtp-stream-id among
// them, and pion's receiver takes an RTX stream that names a RID as that
// layer's new stream: the layer's media would stop at the SFU after the
// first retransmission (a test over loss, issue 35).
type rridFactory struct{}

func (rridFactory) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &rridInterceptor{}, nil
}

type rridInterceptor struct{ interceptor.NoOp }

func (*rridInterceptor) BindLocalStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	var rid, rrid int
	for _, e := range info.RTPHeaderExtensions {
		switch e.URI {
		case sdp.SDESRTPStreamIDURI:
			rid = e.ID
		case sdp.SDESRepairRTPStreamIDURI:
			rrid = e.ID
		}
	}
	if info.SSRCRetransmission == 0 || rid == 0 || rrid == 0 {
		return w
	}
	return interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
		if h.SSRC != info.SSRCRetransmission {
			return w.Write(h, payload, a)
		}
		if v := h.GetExtension(uint8(rid)); v != nil {
			c := h.Clone()
			_ = c.DelExtension(uint8(rid))
			_ = c.SetExtension(uint8(rrid), v)
			h = &c
		}
		return w.Write(h, payload, a)
	})
}
