package rtc_test

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/audio"
	"github.com/confer-platform/confer/internal/audio/tone"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// publishTone publishes an Opus tone through WHIP until the test ends.
func publishTone(t *testing.T, c *testserver.Client, conf, name string, freq float64) {
	tok := rtcToken(t, c, conf, map[string]any{"name": name, "role": "publish"})
	pc := newPC(t)
	tr, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.AddTrack(tr); err != nil {
		t.Fatal(err)
	}
	if code, _, body := offer(t, pc, tok["whip_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d %q", code, body)
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
		start, i := time.Now(), 0
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			// The frames due (a ticker drops the ticks of a late receiver).
			for due := int(time.Since(start) / (20 * time.Millisecond)); i < due; i++ {
				p, _ := enc.Encode(nil, tone.Sine(freq, 6000, audio.Rate, i*audio.Frame, audio.Frame))
				_ = tr.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, SequenceNumber: uint16(i), Timestamp: uint32(i) * 960}, Payload: p})
			}
		}
	}()
}

// TestRecordingHoldsTheMix: three publishers talk at once (440, 660 and
// 880 Hz); the conference's recording holds all three tones from start to
// end (ffmpeg decodes the file's Opus, the Goertzel filter measures each
// tone in each 100 ms of either half), not only the speaker's.
func TestRecordingHoldsTheMix(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed: the recording's audio cannot be decoded")
	}
	recDir := filepath.Join(t.TempDir(), "recordings")
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Recording: server.RecordingConfig{Dir: recDir}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "mixed")
	vcPath := "/api/v1/vc/confs/" + conf
	var speaker string
	for i, f := range []float64{440, 660, 880} {
		name := "pub" + strconv.Itoa(i)
		publishTone(t, c, conf, name, f)
		mt := onlineTerminal(t, c, conf, name)
		if i == 0 {
			speaker = mt
		}
	}
	testserver.MustOK(t, c.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": speaker})))
	vrsID := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/vrs", nil))["vrs"].([]any)[0].(map[string]any)["vrs_id"]
	rec := testserver.MustOK(t, c.Do("POST", vcPath+"/recorders", testserver.Params(t, map[string]any{
		"video_name": "mix", "recorder_type": 1, "publish_mode": 0, "watermark": 0, "anonymous": 0, "recorder_mode": 1,
		"main_stream": 1, "dual_stream": 0, "vrs_id": vrsID, "members": []any{}})))["rec_id"].(string)
	recordedTrack(t, env, rec, rtc.TrackAudio, 4*time.Second) // four seconds of the conference's mix in the file
	// /metrics shows the recording's mix running and its frames.
	if v := metric(t, env, "confer_mixer_running"); v == "" || v == "0" {
		t.Errorf("confer_mixer_running = %q while a recording mixes, want at least 1", v)
	}
	for _, name := range []string{"confer_mixer_frames_total", "confer_mixer_decode_seconds_total", "confer_mixer_encode_seconds_total"} {
		if v, err := strconv.ParseFloat(metric(t, env, name), 64); err != nil || v <= 0 {
			t.Errorf("%s = %v (%v), want above 0", name, v, err)
		}
	}
	for _, name := range []string{"confer_mixer_underruns_total", "confer_mixer_concealed_frames_total"} {
		if _, err := strconv.ParseFloat(metric(t, env, name), 64); err != nil {
			t.Errorf("%s missing from /metrics: %v", name, err)
		}
	}
	testserver.MustOK(t, c.Do("DELETE", vcPath+"/recorders/"+rec, testserver.Params(t, map[string]any{"recorder_mode": 1})))

	files, _ := filepath.Glob(filepath.Join(recDir, "*", rec+".webm"))
	if len(files) != 1 {
		t.Fatalf("recording files %v", files)
	}
	out, err := exec.Command("ffmpeg", "-v", "error", "-i", files[0], "-vn", "-ac", "1", "-ar", "48000", "-f", "s16le", "-").Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	pcm := make([]int16, len(out)/2)
	binary.Read(bytes.NewReader(out), binary.LittleEndian, pcm)
	if len(pcm) < 3*audio.Rate {
		t.Fatalf("%d samples of audio, want about 4 s", len(pcm))
	}
	// Each half of the file holds each tone: heard (level 1500 or more,
	// about 6000 sent) in at least a quarter of its 100 ms windows. Not in
	// every window, nor in most: on a loaded machine the test's own senders
	// stall for a moment and then send the frames due at once, which the
	// mix drops as late, silencing that sender for the stall as it would a
	// real publisher (a stall of 0.8 s in a 1.5 s half was seen at load
	// 15). A recording of the speaker alone holds no 660 or 880 Hz at all.
	half := len(pcm) / 2
	for i, part := range [][]int16{pcm[:half], pcm[half:]} {
		for _, f := range []float64{440, 660, 880} {
			if heard, all := heardWindows(part, f, 1500); heard*4 < all {
				t.Errorf("half %d of the recording: %.0f Hz heard in %d of %d windows of 100 ms, want at least a quarter", i+1, f, heard, all)
			}
		}
	}
}

// heardWindows counts the 100 ms windows of pcm where freq's level is at
// least min, and all of them.
func heardWindows(pcm []int16, freq, min float64) (heard, all int) {
	const win = audio.Rate / 10
	for at := 0; at+win <= len(pcm); at += win {
		all++
		if tone.Level(pcm[at:at+win], freq, audio.Rate) >= min {
			heard++
		}
	}
	return heard, all
}

// TestWallHearsEveryone: three publishers talk at once (440, 660 and 880
// Hz); a TV wall started on the first one receives on its channel that
// terminal's picture and the conference's mix, all three tones (vc gives
// the wall's viewers sfu.Grant.MixedAudio), not the one terminal's sound.
func TestWallHearsEveryone(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "wall mix")
	var first string
	for i, f := range []float64{440, 660, 880} {
		name := "pub" + strconv.Itoa(i)
		publishTone(t, c, conf, name, f)
		if mt := onlineTerminal(t, c, conf, name); i == 0 {
			first = mt
		}
	}
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/hdus", testserver.Params(t, map[string]any{"hdu_id": "1_0", "mode": 2,
		"show_mt_name": 0, "spilt": map[string]any{"members": []any{map[string]any{"chn_idx": 0, "mt_id": first}}}})))
	_, v := wallState(t, env, c, "1_0")
	if len(v.Channels) != 1 || v.Channels[0].WHEP == "" {
		t.Fatalf("wall state %+v", v)
	}
	dec, err := audio.NewDecoder("opus")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var pcm []int16
	t.Cleanup(func() { mu.Lock(); dec.Close(); dec = nil; mu.Unlock() })
	pc := newPC(t)
	if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
		t.Fatal(err)
	}
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			mu.Lock()
			if dec != nil {
				pcm, _ = dec.Decode(pcm, p.Payload)
				if len(pcm) > 4*audio.Rate {
					pcm = append(pcm[:0], pcm[len(pcm)-audio.Rate:]...)
				}
			}
			mu.Unlock()
		}
	})
	prev := http.DefaultClient.Jar
	http.DefaultClient.Jar = cookieJar{c.Cookie}
	code, _, body := offer(t, pc, env.URL+v.Channels[0].WHEP, "")
	http.DefaultClient.Jar = prev
	if code != http.StatusCreated {
		t.Fatalf("wall channel = %d %q", code, body)
	}
	waitFor(t, "the wall hearing 440, 660 and 880 Hz", func() bool {
		mu.Lock()
		defer mu.Unlock()
		if len(pcm) < audio.Rate/2 {
			return false
		}
		tail := pcm[len(pcm)-audio.Rate/2:]
		for _, f := range []float64{440, 660, 880} {
			if tone.Level(tail, f, audio.Rate) < 1500 {
				return false
			}
		}
		return true
	})
}
