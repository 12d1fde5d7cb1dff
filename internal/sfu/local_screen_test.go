package sfu

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// screenFeed writes VP8 screen packets marked id to l until stop closes,
// a key frame every 50 packets.
func screenFeed(l *Local, id byte, stop <-chan struct{}) {
	go func() {
		tk := time.NewTicker(5 * time.Millisecond)
		defer tk.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-l.Done():
				return
			case <-tk.C:
			}
			l.WriteScreen(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i), Timestamp: uint32(i) * 450, Marker: true},
				Payload: vp8(id, 0, i%50 == 0)})
		}
	}()
}

// A local member (a SIP terminal's content m-line) starts a screen while
// its call is up: the engine accepts it as the dual stream, WHEP ?dual=1
// receives it, its own content is not sent back; a browser's share ends
// it (not the call) and reaches its ScreenOut; the engine's SetDual
// likewise; StopScreen reports DualStopped; a refusal changes nothing
// (issue 26, docs/sip-media.md "Content").
func TestLocalScreenStartStop(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 127})
	content := newSink()
	stoppedBy := make(chan struct{}, 4)
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "90", Name: "room", Kind: KindSIP,
		PublishVideo: &vp8Local, Receive: SourceBroadcast, ScreenOut: content, ScreenCodecs: []LocalCodec{vp8Local},
		OnScreenStopped: func() { stoppedBy <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	l.WriteScreen(&rtp.Packet{Header: rtp.Header{Version: 2}, Payload: vp8(77, 0, true)}) // no screen yet: dropped
	if err := l.StartScreen(vp8Local); err != nil {
		t.Fatal(err)
	}
	if started, _ := rg.ev.duals(); !slices.Equal(started, []string{"90"}) {
		t.Fatalf("DualStarted for %v, want [90]", started)
	}
	if st := rg.state(t, "c1", ""); st.Dual != "90" {
		t.Fatalf("state dual = %q, want 90", st.Dual)
	}
	screenFeed(l, 77, stop)
	d := rg.subscribe("c1", "?dual=1", "sub")
	d.flowing(t, "video/77", 30)
	ref := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	if n := content.count("video/77"); n != 0 {
		t.Fatalf("the terminal got %d packets of its own content back", n)
	}

	// A browser's share replaces it: the call stays, its screen ends and
	// its content port receives the browser's share.
	screenA := rg.publish("c1", 91, false, "?dual=1&viewer="+strings.TrimPrefix(a.location, PathSession))
	screenA.run(91, &sendOpts{level: 127})
	select {
	case <-stoppedBy:
	case <-time.After(10 * time.Second):
		t.Fatal("OnScreenStopped not called when a browser's share replaced the terminal's")
	}
	if l.Screen() {
		t.Fatal("the terminal still publishes a screen")
	}
	content.grows(t, "video/91", 30)
	d.flowing(t, "video/91", 30)
	select {
	case <-l.Done():
		t.Fatal("the terminal's call ended with its screen")
	default:
	}

	// The terminal presents again, then the engine clears the dual stream.
	if err := l.StartScreen(vp8Local); err != nil {
		t.Fatal(err)
	}
	d.flowing(t, "video/77", 30)
	_ = rg.sfu.SetDual("c1", "")
	select {
	case <-stoppedBy:
	case <-time.After(10 * time.Second):
		t.Fatal("OnScreenStopped not called by SetDual")
	}
	stopped(t, d, "video/77", ref, "video/65")

	// Presenting and stopping on its own: DualStopped.
	if err := l.StartScreen(vp8Local); err != nil {
		t.Fatal(err)
	}
	d.flowing(t, "video/77", 30)
	l.StopScreen()
	if _, stopped := rg.ev.duals(); !slices.Equal(stopped, []string{"90"}) {
		t.Fatalf("DualStopped for %v, want [90]", stopped)
	}
	if st := rg.state(t, "c1", ""); st.Dual != "" {
		t.Fatalf("state dual = %q after StopScreen", st.Dual)
	}

	// Refused (dual_mode): nothing changes.
	rg.ev.mu.Lock()
	rg.ev.refuseDual = true
	rg.ev.mu.Unlock()
	if err := l.StartScreen(vp8Local); err == nil || l.Screen() {
		t.Fatalf("a refused screen started: %v", err)
	}
	if st := rg.state(t, "c1", ""); st.Dual != "" {
		t.Fatalf("state dual = %q after a refusal", st.Dual)
	}
}

// A terminal that leaves while presenting ends the dual stream.
func TestLocalScreenEndsWithTheCall(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	l, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "90", Name: "room", Kind: KindSIP,
		PublishVideo: &vp8Local})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.StartScreen(vp8Local); err != nil {
		t.Fatal(err)
	}
	l.Leave(false)
	if _, stopped := rg.ev.duals(); !slices.Equal(stopped, []string{"90"}) {
		t.Fatalf("DualStopped for %v, want [90]", stopped)
	}
	if st := rg.state(t, "c1", ""); st.Dual != "" {
		t.Fatalf("state dual = %q after the call", st.Dual)
	}
}

// videoCodec is the first payload type of the video m-line of an SDP
// ("" for the first) or the given one, with its rtpmap and fmtp.
func videoCodec(t *testing.T, raw, pt string) (string, string) {
	t.Helper()
	var d sdp.SessionDescription
	if err := d.UnmarshalString(raw); err != nil {
		t.Fatal(err)
	}
	for _, md := range d.MediaDescriptions {
		if md.MediaName.Media != "video" || len(md.MediaName.Formats) == 0 {
			continue
		}
		if pt == "" {
			pt = md.MediaName.Formats[0]
		}
		var name, fmtp string
		for _, a := range md.Attributes {
			p, rest, _ := strings.Cut(a.Value, " ")
			switch {
			case p != pt:
			case a.Key == "rtpmap":
				name = strings.Split(rest, "/")[0]
			case a.Key == "fmtp":
				fmtp = rest
			}
		}
		return pt, name + " " + fmtp
	}
	return "", ""
}

// A screen share that joins a conference holding a SIP terminal whose
// content m-line takes H.264 only is answered with H.264 first (the
// browser sends it, the terminal sees it without transcoding); without
// such a terminal VP8 stays first.
func TestScreenSharePrefersTheTerminalsH264(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	viewer := "?dual=1&viewer=" + strings.TrimPrefix(a.location, PathSession)
	before := rg.publish("c1", 90, false, viewer)
	if _, got := videoCodec(t, before.pc.RemoteDescription().SDP, ""); !strings.HasPrefix(got, "VP8") {
		t.Fatalf("a screen share without SIP content answered with %q first, want VP8", got)
	}
	h264 := LocalCodec{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, PayloadType: 97}
	if _, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Member: true, MtID: "90", Name: "room", Kind: KindSIP,
		ScreenOut: newSink(), ScreenCodecs: []LocalCodec{h264}}); err != nil {
		t.Fatal(err)
	}
	after := rg.publish("c1", 91, false, viewer)
	pt, got := videoCodec(t, after.pc.RemoteDescription().SDP, "")
	if !strings.HasPrefix(got, "H264") || !strings.Contains(got, "packetization-mode=1") {
		t.Fatalf("a screen share with a SIP terminal's H.264 content answered with %q first, want H264 (mode 1)", got)
	}
	if _, offered := videoCodec(t, after.pc.LocalDescription().SDP, pt); offered != got { // RFC 3264 section 6.1
		t.Fatalf("the answer's payload type %s is %q, the offer's %q", pt, got, offered)
	}
}
