package sfu

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
)

// wallEar opens a TV wall channel (a WHEP viewer whose Grant has
// MixedAudio, as vc gives a wall) of publisher mt and decodes the Opus it
// receives into an ear.
func (rg *testRig) wallEar(t *testing.T, mt string) (*client, *ear) {
	t.Helper()
	e := newEar(t, "opus")
	c := rg.newClient("wall")
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := c.pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	c.pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			if tr.Kind() == webrtc.RTPCodecTypeAudio {
				_, _ = e.WriteRTP(&p.Header, p.Payload)
			}
		}
	})
	c.connect("/rtc/whep/c1?wall=1&mt_id="+mt, http.StatusCreated)
	return c, e
}

// TestWallHearsTheMix: three publishers send distinct tones; a TV wall
// channel showing one of them hears all three (the conference's full mix
// in Opus), not the forwarded sound of the one it shows. When the last
// wall channel closes the room's mixer stops.
func TestWallHearsTheMix(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	ctx := context.Background()
	var first string
	for i, f := range []float64{440, 660, 880} {
		l, err := rg.sfu.OpenLocal(ctx, "c1", LocalOptions{Member: true, MtID: fmt.Sprint(i + 1), Name: "pub", Kind: KindPlayback,
			PublishAudio: &opusLocal})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = l.MtID()
		}
		speak(t, l, "opus", f)
	}
	c, e := rg.wallEar(t, first)
	waitFor(t, "the wall hearing 440, 660 and 880 Hz", func() bool {
		return e.hears(map[float64]bool{440: true, 660: true, 880: true})
	})
	rm := rg.sfu.room("c1", false)
	if code := rg.do(http.MethodDelete, c.location, "wall", "", ""); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("DELETE the wall channel = %d", code)
	}
	waitFor(t, "the room's mixer stopped after the wall left", func() bool {
		rm.mix_.mu.Lock()
		defer rm.mix_.mu.Unlock()
		return rm.mix_.mx == nil
	})
}

// TestWallRefusedWithoutCodec: where Opus cannot run (CONFER_OPUS=off
// makes a node behave so), a wall channel is refused with 503 and the
// reason, and a mixed endpoint (a SIP leg, a recording, a live broadcast,
// a monitor) with audio.ErrUnsupported: never silence instead of a mix.
func TestWallRefusedWithoutCodec(t *testing.T) {
	t.Setenv("CONFER_OPUS", "off")
	rg := newRig(t, nil)
	c := rg.newClient("wall")
	if _, err := c.pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	offer, _ := c.pc.CreateOffer(nil)
	gathered := webrtc.GatheringCompletePromise(c.pc)
	_ = c.pc.SetLocalDescription(offer)
	<-gathered
	code, _, body := rg.post("/rtc/whep/c1?wall=1", "wall", c.pc.LocalDescription().SDP)
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "cannot mix audio") {
		t.Errorf("wall channel without Opus = %d %q, want 503 saying the node cannot mix audio", code, body)
	}
	for _, mime := range []string{webrtc.MimeTypePCMU, webrtc.MimeTypeOpus} {
		_, err := rg.sfu.OpenLocal(context.Background(), "c1", LocalOptions{Receive: SourceBroadcast, MixedAudio: true,
			AudioOut: newSink(), AudioCodecs: []LocalCodec{{MimeType: mime, ClockRate: 8000, PayloadType: 0}}})
		if err == nil || !errors.Is(err, audio.ErrUnsupported) {
			t.Errorf("mixed endpoint in %s without Opus: %v, want audio.ErrUnsupported", mime, err)
		}
	}
	if n := rg.sfu.count.Load(); n != 0 {
		t.Errorf("%d sessions left behind by the refusals", n)
	}
}
