// Package rectest makes real media for the recording tests: VP8 and Opus
// files encoded by the system ffmpeg, their RTP packets as a WebRTC
// publisher sends them, and ffprobe's view of a recorded file. Tests that
// use it skip when ffmpeg or ffprobe is absent (.ci/run installs them).
package rectest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v4/pkg/media/h264reader"
	"github.com/pion/webrtc/v4/pkg/media/ivfreader"
	"github.com/pion/webrtc/v4/pkg/media/oggreader"
)

// Size of the test picture.
const (
	Width  = 320
	Height = 240
)

// Media encodes seconds of a 320x240 VP8 test picture (15 frames a
// second, a key frame every second) and an Opus tone into dir.
func Media(t testing.TB, dir string, seconds int) (ivf, ogg string) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed (apt-get install ffmpeg): the recording tests need real media")
	}
	mediaMu.Lock()
	defer mediaMu.Unlock()
	// The files depend on seconds only: they are made once per test
	// process and copied (encoding VP8 takes seconds on a busy machine).
	src, ok := made[seconds]
	if !ok {
		tmp, err := os.MkdirTemp("", "confer-rectest-")
		if err != nil {
			t.Fatal(err)
		}
		d := strconv.Itoa(seconds)
		src = [2]string{filepath.Join(tmp, "video.ivf"), filepath.Join(tmp, "audio.ogg")}
		run(t, "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", fmt.Sprintf("testsrc=size=%dx%d:rate=15:duration=%s", Width, Height, d),
			"-c:v", "libvpx", "-b:v", "300k", "-g", "15", "-keyint_min", "15", "-deadline", "realtime", "-cpu-used", "8", src[0])
		run(t, "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration="+d,
			"-c:a", "libopus", "-b:a", "32k", "-page_duration", "20000", src[1])
		made[seconds] = src
	}
	ivf, ogg = filepath.Join(dir, "video.ivf"), filepath.Join(dir, "audio.ogg")
	for i, dst := range []string{ivf, ogg} {
		b, err := os.ReadFile(src[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return ivf, ogg
}

func run(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	var stderr strings.Builder
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return out
}

var (
	mediaMu sync.Mutex
	made    = map[int][2]string{} // seconds: the files made in the process's temporary folder
)

// Cleanup removes the media made by the process; a TestMain calls it
// after the tests ran.
func Cleanup() {
	mediaMu.Lock()
	defer mediaMu.Unlock()
	for k, src := range made {
		os.RemoveAll(filepath.Dir(src[0]))
		delete(made, k)
	}
}

// Packet is an RTP packet with the media time it is sent at.
type Packet struct {
	At    time.Duration
	Video bool
	*rtp.Packet
}

// Packets makes media (Media) and returns their RTP packets (VP8 payload type
// 96, Opus 111) in the order a real-time sender sends them.
func Packets(t testing.TB, dir string, seconds int) []Packet {
	t.Helper()
	ivf, ogg := Media(t, dir, seconds)
	var out []Packet
	vf, err := os.Open(ivf)
	if err != nil {
		t.Fatal(err)
	}
	defer vf.Close()
	vr, vh, err := ivfreader.NewWith(vf)
	if err != nil {
		t.Fatal(err)
	}
	vp := rtp.NewPacketizer(1200, 96, rand.Uint32(), &codecs.VP8Payloader{}, rtp.NewRandomSequencer(), 90000)
	num, den := time.Duration(vh.TimebaseNumerator), time.Duration(vh.TimebaseDenominator)
	for i := 0; ; i++ {
		frame, _, err := vr.ParseNextFrame()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range vp.Packetize(frame, uint32(90000*num/den)) {
			out = append(out, Packet{At: time.Duration(i) * time.Second * num / den, Video: true, Packet: p})
		}
	}
	af, err := os.Open(ogg)
	if err != nil {
		t.Fatal(err)
	}
	defer af.Close()
	ar, _, err := oggreader.NewWith(af)
	if err != nil {
		t.Fatal(err)
	}
	ap := rtp.NewPacketizer(1200, 111, rand.Uint32(), &codecs.OpusPayloader{}, rtp.NewRandomSequencer(), 48000)
	var last uint64
	at := time.Duration(0)
	for {
		page, h, err := ar.ParseNextPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(page) >= 8 && string(page[:8]) == "OpusTags" {
			continue
		}
		samples := uint32(h.GranulePosition - last)
		last = h.GranulePosition
		for _, p := range ap.Packetize(page, samples) {
			out = append(out, Packet{At: at, Packet: p})
		}
		at += time.Duration(samples) * time.Second / 48000
	}
	slices.SortStableFunc(out, func(a, b Packet) int { return int(a.At - b.At) })
	return out
}

// Stream is a stream of a file as ffprobe reports it.
type Stream struct {
	Type     string `json:"codec_type"`
	Codec    string `json:"codec_name"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Duration string `json:"duration"`
}

// Probe is ffprobe's view of a file.
type Probe struct {
	Streams []Stream `json:"streams"`
	Format  struct {
		Name     string `json:"format_name"`
		Duration string `json:"duration"`
	} `json:"format"`
	// Video is the time of each video packet, in seconds.
	Video []float64
}

// Duration is the file's duration.
func (p Probe) Duration() time.Duration {
	f, _ := strconv.ParseFloat(p.Format.Duration, 64)
	return time.Duration(f * float64(time.Second))
}

// Stream returns the first stream of a type ("video", "audio").
func (p Probe) Stream(typ string) (Stream, bool) {
	for _, s := range p.Streams {
		if s.Type == typ {
			return s, true
		}
	}
	return Stream{}, false
}

// MaxVideoGap is the longest time between two video packets.
func (p Probe) MaxVideoGap() time.Duration {
	var gap float64
	for i := 1; i < len(p.Video); i++ {
		gap = max(gap, p.Video[i]-p.Video[i-1])
	}
	return time.Duration(gap * float64(time.Second))
}

// ProbeFile runs ffprobe on a file (skipping the test without it) and
// also decodes it whole, failing on a decoding error.
func ProbeFile(t testing.TB, path string) Probe {
	t.Helper()
	if _, err := exec.LookPath("ffprobe"); err != nil {
		t.Skip("ffprobe is not installed (apt-get install ffmpeg): the recorded file cannot be checked")
	}
	var p Probe
	out := run(t, "ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path)
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("ffprobe: %v\n%s", err, out)
	}
	var pk struct {
		Packets []struct {
			PTS string `json:"pts_time"`
		} `json:"packets"`
	}
	out = run(t, "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-print_format", "json", path)
	if err := json.Unmarshal(out, &pk); err != nil {
		t.Fatalf("ffprobe: %v\n%s", err, out)
	}
	for _, x := range pk.Packets {
		f, _ := strconv.ParseFloat(x.PTS, 64)
		p.Video = append(p.Video, f)
	}
	slices.Sort(p.Video)
	return p
}

// H264Packets encodes seconds of the test picture as H.264 (constrained
// baseline, 15 frames a second, an IDR with SPS and PPS every second)
// with ffmpeg's libx264 and returns its RTP packets (payload type 102).
func H264Packets(t testing.TB, dir string, seconds int) []Packet {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed (apt-get install ffmpeg): the recording tests need real media")
	}
	path := filepath.Join(dir, "video.h264")
	run(t, "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", fmt.Sprintf("testsrc=size=%dx%d:rate=15:duration=%d", Width, Height, seconds),
		"-c:v", "libx264", "-profile:v", "baseline", "-pix_fmt", "yuv420p", "-g", "15", "-bf", "0", "-preset", "ultrafast",
		"-x264-params", "repeat-headers=1", "-f", "h264", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := h264reader.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	pk := rtp.NewPacketizer(1200, 102, rand.Uint32(), &codecs.H264Payloader{}, rtp.NewRandomSequencer(), 90000)
	var out []Packet
	var frame []byte
	i := 0
	for {
		nal, err := r.NextNAL()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		frame = append(append(frame, 0, 0, 0, 1), nal.Data...)
		if nal.UnitType == h264reader.NalUnitTypeCodedSliceNonIdr || nal.UnitType == h264reader.NalUnitTypeCodedSliceIdr {
			for _, p := range pk.Packetize(frame, 90000/15) {
				out = append(out, Packet{At: time.Duration(i) * time.Second / 15, Video: true, Packet: p})
			}
			frame, i = nil, i+1
		}
	}
	return out
}
