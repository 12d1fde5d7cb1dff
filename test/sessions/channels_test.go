package sessions

import (
	"encoding/hex"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/browsertest"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/rtctest"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestJoinedTerminalChannels: a client of each release that shaped the
// channel arrays reads the details of a terminal that joined with real
// media (issue 42): a pion client that publishes Opus and H.264 1280×720
// (WHIP) and receives the conference (WHEP with ?viewer=, as the join
// page does) while another pion client is the speaker. Its v_snd_chn,
// v_rcv_chn, a_snd_chn and a_rcv_chn each hold one channel and the dual
// stream lists none, at every release; the channels have chn_id and
// chn_alias (5.0.0.4.1), bitrate, resolution, format and cur_video_idx
// from 5.2.0.2.0 (seed 001), chn_label from 6.0.0.3.0 (reference A1).
// Hung up, the terminal has no channels.
func TestJoinedTerminalChannels(t *testing.T) {
	for _, tc := range sessions() {
		switch tc.plat {
		case "5.0.0.4.1", "5.2.0.2.0", "6.0.0.3.0", "6.1.0.4.0":
		default:
			continue
		}
		if tc.plat == "6.1.0.4.0" && tc.level == "" {
			continue
		}
		t.Run(tc.plat, func(t *testing.T) {
			s := startWith(t, testdb.SQLite(t), tc.plat, tc.level, testserver.Options{RTC: &sfu.Config{}})
			s.login()
			conf, _ := s.call("create", "POST", "/api/v1/mc/confs", s.confParams("channels", false, nil), has("conf_id:s"))["conf_id"].(string)
			path := "/api/v1/vc/confs/" + conf
			token := func(name string) (whip, whep, tok string) {
				b := s.call("rtc token "+name, "POST", path+"/rtc_tokens", map[string]any{"name": name, "role": "both"},
					has("token:s", "whip_url:s", "whep_url:s"))
				whip, _ = b["whip_url"].(string)
				whep, _ = b["whep_url"].(string)
				tok, _ = b["token"].(string)
				return
			}
			aWhip, aWhep, aTok := token("alice")
			bWhip, _, bTok := token("bob")
			aSess := camera(t, aWhip, aTok)
			camera(t, bWhip, bTok)
			got := receive(t, aWhep+"?kind=browser&viewer="+aSess, aTok)

			alice, bob := online(t, s, path, "alice"), online(t, s, path, "bob")
			s.call("speaker bob", "PUT", path+"/speaker", map[string]any{"mt_id": bob})
			// Alice receives Bob's picture: its channels are settled once
			// key frames have come through and a second's rate is measured.
			for !(got.video.Load() > 100 && got.audio.Load() > 50) {
				wait(t, "alice's received media")
			}
			detail := func() map[string]any {
				r := s.c.Do("GET", path+"/mts/"+alice, nil)
				return r.Body
			}
			for {
				d := detail()
				if lists(d, 1, "v_snd_chn", "v_rcv_chn", "a_snd_chn", "a_rcv_chn") && lists(d, 0, "dv_snd_chn", "dv_rcv_chn") &&
					(!s.at(r5_2_0_2) || (equals("v_rcv_chn.resolution", 32)(d) == "" && positive(d, "v_rcv_chn.bitrate") && positive(d, "v_snd_chn.bitrate"))) {
					break
				}
				wait(t, "alice's four channels")
			}
			s.call("alice's channels", "GET", path+"/mts/"+alice, nil,
				count("v_snd_chn", 1), count("v_rcv_chn", 1), count("a_snd_chn", 1), count("a_rcv_chn", 1),
				count("dv_snd_chn", 0), count("dv_rcv_chn", 0),
				has("v_snd_chn.chn_id:i", "v_snd_chn.chn_alias:s", "v_rcv_chn.chn_id:i", "a_snd_chn.chn_alias:s", "a_rcv_chn.chn_alias:s"),
				equals("v_snd_chn.chn_alias", "vsndchn1"), equals("v_rcv_chn.chn_alias", "vrcvchn1"),
				equals("a_snd_chn.chn_alias", "asndchn1"), equals("a_rcv_chn.chn_alias", "arcvchn1"),
				s.since(r5_2_0_2, "v_snd_chn.bitrate:i", "v_snd_chn.resolution:i", "v_snd_chn.format:i", "v_snd_chn.cur_video_idx:i",
					"v_rcv_chn.bitrate:i", "v_rcv_chn.resolution:i", "v_rcv_chn.format:i"),
				s.since(r6_0_0_3, "v_snd_chn.chn_label:i", "v_rcv_chn.chn_label:i", "a_snd_chn.chn_label:i", "a_rcv_chn.chn_label:i"),
				sinceEquals(s, r5_2_0_2, "v_snd_chn.format", 5), sinceEquals(s, r5_2_0_2, "v_snd_chn.resolution", 32),
				sinceEquals(s, r5_2_0_2, "v_rcv_chn.format", 5), sinceEquals(s, r5_2_0_2, "v_rcv_chn.resolution", 32))
			s.call("hang up alice", "DELETE", path+"/online_mts", mts(alice))
			s.call("alice's channels (hung up)", "GET", path+"/mts/"+alice, nil, equals("online", 0),
				count("v_snd_chn", 0), count("v_rcv_chn", 0), count("a_snd_chn", 0), count("a_rcv_chn", 0))
			s.call("end", "DELETE", "/api/v1/mc/confs/"+conf, nil)
			s.report(tc.plat + " channels")
		})
	}
}

// sinceEquals expects the field's value from release r on (absent before,
// which the since checks see to).
func sinceEquals(s *session, r release.Release, path string, want any) check {
	if !s.at(r) {
		return func(map[string]any) string { return "" }
	}
	return equals(path, want)
}

// lists tells whether each list field has n elements.
func lists(b map[string]any, n int, keys ...string) bool {
	for _, k := range keys {
		if l, ok := b[k].([]any); !ok || len(l) != n {
			return false
		}
	}
	return true
}

func positive(b map[string]any, path string) bool {
	v, _ := lookup(b, path)
	f, _ := v.(float64)
	return f > 0
}

// wait pauses briefly between looks at a condition that media make
// true, until go test's -timeout.
func wait(t *testing.T, what string) {
	t.Helper()
	if browsertest.Expired(t) {
		t.Fatalf("timed out waiting for %s", what)
	}
	time.Sleep(20 * time.Millisecond)
}

// online waits until the terminal named alias is online and returns its
// mt_id (the client's polling is no call of its session).
func online(t *testing.T, s *session, path, alias string) string {
	t.Helper()
	for {
		l, _ := s.c.Do("GET", path+"/mts", nil).Body["mts"].([]any)
		for _, x := range l {
			if m, _ := x.(map[string]any); m["alias"] == alias && m["online"] == float64(1) {
				id, _ := m["mt_id"].(string)
				return id
			}
		}
		wait(t, alias+" online")
	}
}

// camera publishes Opus and H.264 1280×720 (an SPS of that size and a
// PPS, then a key-frame slice, every 20 ms) until the test ends, and
// returns its WHIP session's id.
func camera(t *testing.T, whip, token string) string {
	t.Helper()
	pc := rtctest.NewPC(t)
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
	r := rtctest.Offer(t, pc, whip, token, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", r.Status, r.Body)
	}
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
	return r.Location[strings.LastIndex(r.Location, "/")+1:]
}

// received counts the packets a receiving session gets.
type received struct{ audio, video atomic.Int64 }

// receive opens a WHEP session that receives audio and video.
func receive(t *testing.T, whep, token string) *received {
	t.Helper()
	got := &received{}
	pc := rtctest.NewPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
			if tr.Kind() == webrtc.RTPCodecTypeAudio {
				got.audio.Add(1)
			} else {
				got.video.Add(1)
			}
		}
	})
	if r := rtctest.Offer(t, pc, whep, token, nil); r.Status != http.StatusCreated {
		t.Fatalf("WHEP POST = %d %q", r.Status, r.Body)
	}
	return got
}
