package mediaload

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Frame is one encoded media frame and how long it lasts; publishers send
// a clip's frames in a loop, paced by their durations, as pion's
// play-from-disk example does.
type Frame struct {
	Data     []byte
	Duration time.Duration
}

// Clip is a file's frames held in memory, so that reading the disk is not
// part of the load.
type Clip struct {
	Frames []Frame
	Source string // the file, or "generated" for built-in frames
}

// SilenceOpus is a clip of Opus silence frames (RFC 6716 §3.1: TOC 0xF8 is
// CELT-only fullband 20 ms, one frame; 0xFF 0xFE is the silent frame browsers
// send), for tests that must not need ffmpeg.
func SilenceOpus(d time.Duration) Clip {
	n := int(d / (20 * time.Millisecond))
	c := Clip{Source: "generated"}
	for i := 0; i < n; i++ {
		c.Frames = append(c.Frames, Frame{Data: []byte{0xF8, 0xFF, 0xFE}, Duration: 20 * time.Millisecond})
	}
	return c
}

// ReadOgg reads the Opus packets of an Ogg file (RFC 7845); each packet is
// one frame, its duration from its TOC byte (RFC 6716 §3.1).
func ReadOgg(path string) (Clip, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Clip{}, err
	}
	c := Clip{Source: path}
	var pkt []byte
	for len(b) > 0 {
		if len(b) < 27 || string(b[:4]) != "OggS" {
			return Clip{}, fmt.Errorf("%s: not an Ogg page at byte %d", path, len(b))
		}
		nseg := int(b[26])
		if len(b) < 27+nseg {
			return Clip{}, fmt.Errorf("%s: truncated page", path)
		}
		lacing := b[27 : 27+nseg]
		body := b[27+nseg:]
		for _, l := range lacing {
			if int(l) > len(body) {
				return Clip{}, fmt.Errorf("%s: truncated page", path)
			}
			pkt = append(pkt, body[:l]...)
			body = body[l:]
			if l < 255 {
				if !bytes.HasPrefix(pkt, []byte("OpusHead")) && !bytes.HasPrefix(pkt, []byte("OpusTags")) && len(pkt) > 0 {
					c.Frames = append(c.Frames, Frame{Data: pkt, Duration: opusDuration(pkt)})
				}
				pkt = nil
			}
		}
		b = body
	}
	if len(c.Frames) == 0 {
		return Clip{}, fmt.Errorf("%s: no Opus packets", path)
	}
	return c, nil
}

// opusDuration is a packet's duration from its TOC byte (RFC 6716 §3.1).
func opusDuration(p []byte) time.Duration {
	cfg := p[0] >> 3
	var frame time.Duration
	switch {
	case cfg < 12: // SILK: 10, 20, 40, 60 ms
		frame = []time.Duration{10, 20, 40, 60}[cfg%4] * time.Millisecond
	case cfg < 16: // Hybrid: 10, 20 ms
		frame = []time.Duration{10, 20}[cfg%2] * time.Millisecond
	default: // CELT: 2.5, 5, 10, 20 ms
		frame = []time.Duration{2500, 5000, 10000, 20000}[cfg%4] * time.Microsecond
	}
	switch p[0] & 3 {
	case 1, 2:
		return 2 * frame
	case 3:
		if len(p) > 1 {
			return time.Duration(p[1]&0x3F) * frame
		}
	}
	return frame
}

// ReadIVF reads the frames of an IVF file (VP8; 32-byte file header with the
// time base at bytes 16 to 23, 12-byte frame headers with a 64-bit
// presentation time), each lasting until the next frame's time, as
// play-from-disk paces them. (pion's ivfreader scales the frame times by
// the frame rate, hence this reader.)
func ReadIVF(path string) (Clip, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Clip{}, err
	}
	if len(b) < 32 || string(b[:4]) != "DKIF" {
		return Clip{}, fmt.Errorf("%s: not an IVF file", path)
	}
	if string(b[8:12]) != "VP80" {
		return Clip{}, fmt.Errorf("%s: codec %q, want VP80", path, b[8:12])
	}
	rate, scale := binary.LittleEndian.Uint32(b[16:20]), binary.LittleEndian.Uint32(b[20:24])
	if rate == 0 || scale == 0 {
		return Clip{}, fmt.Errorf("%s: no time base", path)
	}
	tick := time.Duration(float64(time.Second) * float64(scale) / float64(rate))
	c := Clip{Source: path}
	var last uint64
	for b = b[binary.LittleEndian.Uint16(b[6:8]):]; len(b) > 0; {
		if len(b) < 12 {
			return Clip{}, fmt.Errorf("%s: truncated frame header", path)
		}
		size, pts := binary.LittleEndian.Uint32(b[:4]), binary.LittleEndian.Uint64(b[4:12])
		if uint64(len(b)-12) < uint64(size) {
			return Clip{}, fmt.Errorf("%s: truncated frame", path)
		}
		if n := len(c.Frames); n > 0 && pts > last {
			c.Frames[n-1].Duration = time.Duration(pts-last) * tick
		}
		last = pts
		c.Frames = append(c.Frames, Frame{Data: b[12 : 12+size], Duration: tick})
		b = b[12+size:]
	}
	if len(c.Frames) == 0 {
		return Clip{}, fmt.Errorf("%s: no frames", path)
	}
	return c, nil
}

// Generate writes an Opus sine of the given seconds (Ogg, 20 ms pages, 32
// kbit/s) and, with video, a VP8 test pattern as long (IVF, 640x360, 30
// frames/s, about 500 kbit/s, a key frame every second) into dir with the
// system ffmpeg.
func Generate(dir string, video bool, seconds int) (audio, vid string, err error) {
	ff, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", "", errors.New("ffmpeg not found: install it or give --audio-file/--video-file")
	}
	audio = filepath.Join(dir, "audio.ogg")
	run := func(args ...string) error {
		out, err := exec.Command(ff, append([]string{"-hide_banner", "-loglevel", "error", "-y"}, args...)...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("ffmpeg %v: %v: %s", args, err, out)
		}
		return nil
	}
	if err := run("-f", "lavfi", "-i", fmt.Sprintf("sine=frequency=440:duration=%d:sample_rate=48000", seconds),
		"-c:a", "libopus", "-b:a", "32k", "-frame_duration", "20", "-page_duration", "20000", audio); err != nil {
		return "", "", err
	}
	if !video {
		return audio, "", nil
	}
	vid = filepath.Join(dir, "video.ivf")
	if err := run("-f", "lavfi", "-i", fmt.Sprintf("testsrc=size=640x360:rate=30:duration=%d", seconds),
		"-c:v", "libvpx", "-b:v", "500k", "-g", "30", "-deadline", "realtime", "-cpu-used", "8", vid); err != nil {
		return "", "", err
	}
	return audio, vid, nil
}
