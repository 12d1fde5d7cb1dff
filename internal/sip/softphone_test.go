package sip_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"
	"github.com/pion/webrtc/v4/pkg/media/h264reader"
	"github.com/pion/webrtc/v4/pkg/media/h264writer"
	"github.com/pion/webrtc/v4/pkg/media/oggreader"
	"github.com/pion/webrtc/v4/pkg/media/oggwriter"

	"github.com/confer-platform/confer/internal/testserver"
)

// A softphone (baresip) registers with its account's E.164 number and
// password, dials a conference by its number, hears and sees a browser
// participant (a pion WHIP publisher sending a 1 kHz tone in Opus and a
// test pattern in H.264), is heard and seen by a browser viewer (WHEP:
// its 440 Hz tone and its camera), is hung up from the API, and is then
// called from the API by its E.164 number and answers (issue 26 "Done
// when"). What it hears and sees is checked on what it decoded: the
// tone's frequency in its dump of received audio, the size of a
// snapshot of the received video.
func TestSoftphone(t *testing.T) {
	t.Parallel()
	needBaresip(t)
	e := startEnv(t, sipConfig())
	e.createAccount(t, "alice", "5553001", "pw.1")
	b := startBaresip(t, e.addr(), "5553001", "pw.1")
	waitFor(t, "baresip registered", func() bool {
		_, ok := e.ua.Registered(context.Background(), "5553001")
		return ok
	})
	acc := testserver.MustOK(t, e.api.Do("GET", "/api/v1/upu/accounts?account=alice", nil))["accounts"].([]any)
	if len(acc) != 1 || fmt.Sprint(acc[0].(map[string]any)["online"]) != "1" {
		t.Fatalf("upu: the registered account is not online: %v", acc)
	}

	conf := e.conf(t, nil)
	dir := t.TempDir()
	tone, video := filepath.Join(dir, "tone.ogg"), filepath.Join(dir, "pattern.h264")
	ffmpeg(t, "-f", "lavfi", "-i", "sine=frequency=1000:duration=4:sample_rate=48000", "-ac", "2",
		"-c:a", "libopus", "-b:a", "32k", "-frame_duration", "20", "-page_duration", "20000", tone)
	ffmpeg(t, "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15:duration=2", "-c:v", "libx264",
		"-profile:v", "baseline", "-pix_fmt", "yuv420p", "-g", "15", "-bf", "0", "-b:v", "200k",
		"-bsf:v", "h264_mp4toannexb", "-f", "h264", video)

	// The browser participant publishes first, so it speaks Opus and H.264.
	pub := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "browser", "role": "publish"})))
	ppc := newPC(t)
	audio, err := webrtc.NewTrackLocalStaticSample(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "audio", "browser")
	if err != nil {
		t.Fatal(err)
	}
	cam, err := webrtc.NewTrackLocalStaticSample(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000,
		SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}, "video", "browser")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []webrtc.TrackLocal{audio, cam} {
		if _, err := ppc.AddTrack(tr); err != nil {
			t.Fatal(err)
		}
	}
	if code := whepOffer(t, ppc, pub["whip_url"].(string), pub["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHIP POST = %d", code)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go loopOgg(tone, audio, stop)
	go loopH264(video, cam, stop)
	browser := e.mtNamed(t, conf, "browser")

	// The softphone dials the conference by its number.
	b.command(t, "dial", "sip:"+conf+"@"+e.addr())
	b.waitEvent(t, "CALL_ESTABLISHED")
	phone := e.mtNamed(t, conf, "5553001")
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": browser})))

	// It hears the browser's tone ...
	waitFor(t, "the browser's tone in what baresip decoded", func() bool {
		pcm, rate := wavMono(b.file("-dec.wav"))
		return len(pcm) >= rate && goertzel(pcm[len(pcm)-rate/2:], rate, 1000) > 10*goertzel(pcm[len(pcm)-rate/2:], rate, 440)
	})
	// ... and sees its camera.
	waitFor(t, "a snapshot of the browser's video at baresip", func() bool {
		snap := filepath.Join(b.dir, "recv.png")
		b.command(t, "snapshot_recv", snap)
		time.Sleep(200 * time.Millisecond) // taken from the next decoded frame
		f, err := os.Open(snap)
		if err != nil {
			return false
		}
		defer f.Close()
		img, err := png.Decode(f)
		return err == nil && img.Bounds().Dx() == 320 && img.Bounds().Dy() == 240 && colors(img) >= 8 // testsrc's bars, not a blank frame
	})

	// A browser viewer hears and sees the softphone once it speaks.
	testserver.MustOK(t, e.api.Do("PUT", "/api/v1/vc/confs/"+conf+"/speaker", testserver.Params(t, map[string]any{"mt_id": phone})))
	tok := testserver.MustOK(t, e.api.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens",
		testserver.Params(t, map[string]any{"name": "viewer", "role": "subscribe"})))
	vpc := newPC(t)
	for _, k := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if _, err := vpc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			t.Fatal(err)
		}
	}
	heard, seen := filepath.Join(dir, "heard.ogg"), filepath.Join(dir, "seen.h264")
	var opusPackets, h264Packets atomic.Int64
	var writers sync.WaitGroup // each track's writer, until it closed its file
	vpc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		writers.Add(1)
		defer writers.Done()
		recordTrack(t, tr, heard, seen, &opusPackets, &h264Packets)
	})
	if code := whepOffer(t, vpc, tok["whep_url"].(string), tok["token"].(string)); code != http.StatusCreated {
		t.Fatalf("WHEP POST = %d", code)
	}
	waitFor(t, "2 s of the softphone's audio and video at the viewer", func() bool {
		return opusPackets.Load() >= 100 && h264Packets.Load() >= 30
	})
	// Both tracks have come (their packets were counted): once the
	// connection closes, their reads end and each writer closes its file.
	_ = vpc.Close()
	writers.Wait()
	pcm := decodeMono(t, heard)
	if len(pcm) < 24000 || goertzel(pcm[len(pcm)-24000:], 48000, 440) < 10*goertzel(pcm[len(pcm)-24000:], 48000, 1000) {
		t.Errorf("the viewer did not hear the softphone's 440 Hz tone (%d samples)", len(pcm))
	}
	if w, h := probeSize(t, seen); w == 0 || h == 0 {
		t.Errorf("the viewer's H.264 of the softphone: %dx%d", w, h)
	}

	// Hung up from the API: baresip gets a BYE.
	testserver.MustOK(t, e.api.Do("DELETE", "/api/v1/vc/confs/"+conf+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": phone}}})))
	b.waitEvent(t, "CALL_CLOSED")

	// Called from the API by its E.164 number: it answers.
	mt := e.addMt(t, conf, "5553001", 5)
	b.waitEvent(t, "CALL_ESTABLISHED")
	e.waitOnline(t, conf, mt, "the called softphone online")
}

// mtNamed waits for the online terminal of that alias and returns its id.
func (e *sipEnv) mtNamed(t *testing.T, conf, alias string) string {
	t.Helper()
	var id string
	waitFor(t, alias+" online", func() bool {
		for _, m := range e.mts(t, conf) {
			if m["alias"] == alias && online(m) {
				id = fmt.Sprint(m["mt_id"])
				return true
			}
		}
		return false
	})
	return id
}

func ffmpeg(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("ffmpeg", append([]string{"-v", "error", "-y"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, out)
	}
}

// loopOgg sends the Ogg Opus file's packets in real time, over and over.
func loopOgg(path string, tr *webrtc.TrackLocalStaticSample, stop <-chan struct{}) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		r, _, err := oggreader.NewWith(f)
		for err == nil {
			var page []byte
			if page, _, err = r.ParseNextPage(); err != nil {
				break
			}
			if len(page) >= 8 && (string(page[:8]) == "OpusHead" || string(page[:8]) == "OpusTags") {
				continue
			}
			select {
			case <-stop:
				f.Close()
				return
			case <-tick.C:
			}
			_ = tr.WriteSample(media.Sample{Data: page, Duration: 20 * time.Millisecond})
		}
		f.Close()
	}
}

// loopH264 sends the Annex B file's access units at 15 frames a second,
// over and over.
func loopH264(path string, tr *webrtc.TrackLocalStaticSample, stop <-chan struct{}) {
	tick := time.NewTicker(time.Second / 15)
	defer tick.Stop()
	for {
		f, err := os.Open(path)
		if err != nil {
			return
		}
		r, err := h264reader.NewReader(f)
		for err == nil {
			var nal *h264reader.NAL
			if nal, err = r.NextNAL(); err != nil {
				break
			}
			d := time.Duration(0)
			if nal.UnitType == h264reader.NalUnitTypeCodedSliceIdr || nal.UnitType == h264reader.NalUnitTypeCodedSliceNonIdr {
				d = time.Second / 15
				select {
				case <-stop:
					f.Close()
					return
				case <-tick.C:
				}
			}
			_ = tr.WriteSample(media.Sample{Data: nal.Data, Duration: d})
		}
		f.Close()
	}
}

// recordTrack writes an Opus track to an Ogg file and an H.264 track to an
// Annex B file, counting packets, until the track ends.
func recordTrack(t *testing.T, tr *webrtc.TrackRemote, oggPath, h264Path string, opusN, h264N *atomic.Int64) {
	var w interface {
		WriteRTP(*rtp.Packet) error
		Close() error
	}
	var n *atomic.Int64
	var err error
	switch tr.Codec().MimeType {
	case webrtc.MimeTypeOpus:
		w, err = oggwriter.New(oggPath, 48000, 2)
		n = opusN
	case webrtc.MimeTypeH264:
		w, err = h264writer.New(h264Path)
		n = h264N
	default:
		t.Errorf("viewer: unexpected codec %s", tr.Codec().MimeType)
		return
	}
	if err != nil {
		t.Error(err)
		return
	}
	defer w.Close()
	// h264writer drops what comes before the first key frame: only the
	// packets from one on count (a viewer that joined between the
	// softphone's key frames waits for the next; counting the dropped
	// ones let the test stop before any picture, 0x0).
	keyed := tr.Codec().MimeType != webrtc.MimeTypeH264
	for {
		p, _, err := tr.ReadRTP()
		if err != nil {
			return
		}
		keyed = keyed || h264Key(p.Payload)
		if w.WriteRTP(p) == nil && keyed {
			n.Add(1)
		}
	}
}

// h264Key tells whether an H.264 RTP payload (RFC 6184) starts a key
// frame: an IDR slice or a sequence parameter set, alone, first in a
// STAP-A, or at the start of a FU-A.
func h264Key(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	key := func(t byte) bool { return t == 5 || t == 7 }
	switch t := b[0] & 0x1f; t {
	case 24: // STAP-A: a 16-bit size, then the first NAL unit
		return len(b) > 3 && key(b[3]&0x1f)
	case 28: // FU-A: the start bit and the type in the FU header
		return b[1]&0x80 != 0 && key(b[1]&0x1f)
	default:
		return key(t)
	}
}

// wavMono reads a 16-bit PCM WAV file that may still be written (its
// sizes not final) as mono samples and its rate; nil if unreadable.
func wavMono(path string) ([]int16, int) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, 0
	}
	channels, rate := 0, 0
	for i := 12; i+8 <= len(b); {
		id, size := string(b[i:i+4]), int(binary.LittleEndian.Uint32(b[i+4:i+8]))
		body := b[i+8:]
		switch id {
		case "fmt ":
			if len(body) < 16 || binary.LittleEndian.Uint16(body[14:16]) != 16 {
				return nil, 0
			}
			channels, rate = int(binary.LittleEndian.Uint16(body[2:4])), int(binary.LittleEndian.Uint32(body[4:8]))
		case "data":
			if channels == 0 {
				return nil, 0
			}
			return monoS16(body, channels), rate
		}
		i += 8 + size + size%2
	}
	return nil, 0
}

// monoS16 takes the first channel of interleaved little-endian samples.
func monoS16(b []byte, channels int) []int16 {
	out := make([]int16, 0, len(b)/2/channels)
	for i := 0; i+2*channels <= len(b); i += 2 * channels {
		out = append(out, int16(binary.LittleEndian.Uint16(b[i:])))
	}
	return out
}

// decodeMono decodes an audio file with ffmpeg to 48 kHz mono samples.
func decodeMono(t *testing.T, path string) []int16 {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-i", path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-").Output()
	if err != nil {
		t.Fatalf("ffmpeg decoding %s: %v", path, err)
	}
	return monoS16(out, 1)
}

// probeSize reads the size of a video file's first stream with ffprobe.
func probeSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
		"-of", "csv=p=0:s=x", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	_, _ = fmt.Sscanf(string(out), "%dx%d", &w, &h)
	return w, h
}

// colors counts the distinct colours of an image, sampled every 8 pixels.
func colors(img image.Image) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 8 {
		for x := b.Min.X; x < b.Max.X; x += 8 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 12), uint8(g >> 12), uint8(bl >> 12), 0}] = true // 16 levels a channel: codec noise merges
		}
	}
	return len(seen)
}

// goertzel is the power of one frequency in the samples.
func goertzel(x []int16, rate int, freq float64) float64 {
	c := 2 * math.Cos(2*math.Pi*freq/float64(rate))
	var s1, s2 float64
	for _, v := range x {
		s := float64(v) + c*s1 - s2
		s2, s1 = s1, s
	}
	return s1*s1 + s2*s2 - c*s1*s2
}
