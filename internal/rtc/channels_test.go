package rtc_test

import (
	"encoding/hex"
	"net/http"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A WHIP publisher's terminal details show the channels of its session
// (issue 42): one audio and one video send channel, the video with its
// codec as format (H.264 baseline: 5), the size of its SPS as resolution
// (1280×720: 32, reference A4) and a measured bitrate; it receives
// nothing, so the other lists are empty.
func TestTerminalChannelsFromTheSession(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "channels")
	tok := rtcToken(t, c, conf, map[string]any{"name": "camera", "role": "publish"})

	pc := newPC(t)
	audio, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "cam")
	if err != nil {
		t.Fatal(err)
	}
	video, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
		SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}, "video", "cam")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []webrtc.TrackLocal{audio, video} {
		if _, err := pc.AddTrack(tr); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, body := offer(t, pc, tok["whip_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
	}
	// An SPS of 1280×720 (baseline, as libx264 writes it) and a PPS in a
	// STAP-A, then a slice, every 20 ms.
	sps, _ := hex.DecodeString("6742c01fd9005005bb011000000300100000030320f1832480")
	stap := append([]byte{0x78, 0, byte(len(sps))}, sps...)
	stap = append(stap, 0x00, 0x04, 0x68, 0xce, 0x3c, 0x80)
	slice := append([]byte{0x65}, make([]byte, 1000)...)
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for seq := uint16(0); ; seq += 2 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			ts := uint32(seq) * 900
			_ = video.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: ts}, Payload: stap})
			_ = video.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq + 1, Timestamp: ts, Marker: true}, Payload: slice})
			_ = audio.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: seq, Timestamp: uint32(seq) * 480}, Payload: []byte{0xfc, 0xff, 0xfe}})
		}
	}()
	mt := onlineTerminal(t, c, conf, "camera")

	var info map[string]any
	// The audio's receiver may open after the video's on a loaded
	// machine: both sent channels are awaited.
	waitFor(t, "the video channel's size and bitrate and the audio channel", func() bool {
		info = testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts/"+mt, nil))
		l, _ := info["v_snd_chn"].([]any)
		if a, _ := info["a_snd_chn"].([]any); len(l) != 1 || len(a) == 0 {
			return false
		}
		v := l[0].(map[string]any)
		return v["resolution"] == 32.0 && v["bitrate"].(float64) > 0
	})
	v := info["v_snd_chn"].([]any)[0].(map[string]any)
	if v["format"] != 5.0 || v["chn_id"] != 1.0 || v["chn_alias"] != "vsndchn1" || v["cur_video_idx"] != 0.0 {
		t.Errorf("v_snd_chn %v", v)
	}
	if a, _ := info["a_snd_chn"].([]any); len(a) != 1 || a[0].(map[string]any)["chn_alias"] != "asndchn1" {
		t.Errorf("a_snd_chn %v, want one audio channel", info["a_snd_chn"])
	}
	for _, k := range []string{"v_rcv_chn", "dv_snd_chn", "dv_rcv_chn", "a_rcv_chn"} {
		if l, ok := info[k].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %v, want none (the publisher receives nothing and shares no content)", k, info[k])
		}
	}

	// The same session's call quality (Confer's extension, issue 41).
	q := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/quality", nil))["mts"].([]any)
	if len(q) != 1 {
		t.Fatalf("quality of %d terminals, want the publisher's: %v", len(q), q)
	}
	pub := q[0].(map[string]any)
	if pub["mt_id"] != mt || pub["alias"] != "camera" || pub["measured"] != 1.0 {
		t.Errorf("quality of %v", pub)
	}
	kinds := map[string]map[string]any{}
	for _, x := range pub["channels"].([]any) {
		ch := x.(map[string]any)
		kinds[ch["kind"].(string)+"/"+ch["direction"].(string)] = ch
	}
	if v := kinds["video/send"]; v == nil || v["codec"] != "video/H264" || v["width"] != 1280.0 || v["height"] != 720.0 ||
		v["loss"] != 0.0 || v["reported"] != 1.0 {
		t.Errorf("the sent video's quality %v (all: %v)", v, kinds)
	}
	if a := kinds["audio/send"]; a == nil || a["codec"] != "audio/opus" || a["loss"] != 0.0 {
		t.Errorf("the sent audio's quality %v", a)
	}
	testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/424242/quality", nil), 12103)

	// Hung up: no channels.
	testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	info = testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+conf+"/mts/"+mt, nil))
	if l, _ := info["v_snd_chn"].([]any); len(l) != 0 {
		t.Errorf("after the hang-up v_snd_chn = %v", l)
	}
}
