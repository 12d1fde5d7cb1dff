package sip_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/testserver"
)

// SIPp answers Confer's INVITE with H.264 and plays an H.264 pcap (SPS,
// PPS, IDR and P slices, FU-A and STAP-A) to its m=video port; a WHEP
// viewer of the terminal receives it as H.264 with the key frames intact
// (issue 26: video without transcoding).
func TestH264FromSIPp(t *testing.T) {
	t.Parallel()
	needSIPp(t)
	stream := newH264Stream(30)
	pcap := filepath.Join(t.TempDir(), "h264.pcap")
	sent := stream.writePcap(t, pcap, 300, 96)
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	s := startSIPp(t, scenario(t, "uas_h264.xml", map[string]string{"H264PCAP": pcap}), "")
	waitBound(t, s)
	mt := e.addMt(t, conf, "127.0.0.1:"+itoa(s.port), 7)
	e.waitOnline(t, conf, mt, "the terminal online")

	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	check := newH264Check(stream)
	type codec struct {
		mime string
		pt   uint8
	}
	codecs := make(chan codec, 1)
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
		codecs <- codec{tr.Codec().MimeType, uint8(tr.PayloadType())}
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			check.add(p)
		}
	})
	if code := whepOffer(t, pc, tok["whep_url"].(string)+"?mt_id="+mt, tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "the terminal's H.264 at the viewer", func() bool {
		_, idr, _, _, p, _ := check.intact()
		return idr >= 3 && p >= 60
	})
	got := <-codecs
	if !strings.EqualFold(got.mime, webrtc.MimeTypeH264) {
		t.Errorf("viewer's video codec %q, want H264", got.mime)
	}
	n, _, _, _, _, _ := check.intact()
	if n > sent {
		t.Errorf("%d packets at the viewer, the pcap holds %d", n, sent)
	}
	check.verify(t, "WHEP viewer of the SIPp terminal", got.pt)
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	s.wait(t)
}
