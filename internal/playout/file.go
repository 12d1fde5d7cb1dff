// Package playout reads a program file (WebM or Matroska: VP8, VP9 or
// H.264 video and Opus audio, the formats Confer records; docs/live.md
// "Playback") and plays it as RTP, paced in real time: the publisher of a
// playback inside the SFU. It reads the file as a stream (EBML through
// at-wat/ebml-go), so memory stays bounded whatever the file's length.
package playout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/at-wat/ebml-go"
)

// Codec mime types of the tracks Confer plays (pion's spelling).
const (
	MimeVP8  = "video/VP8"
	MimeVP9  = "video/VP9"
	MimeH264 = "video/H264"
	MimeOpus = "audio/opus"
)

// Track is a playable track of a file.
type Track struct {
	Number       uint64
	Video        bool
	Mime         string // MimeVP8, MimeVP9, MimeH264 or MimeOpus
	ClockRate    uint32
	Channels     uint16
	Width        int
	Height       int
	CodecPrivate []byte // H.264: the avcC record (SPS and PPS)
}

// Frame is one coded frame of a track at its presentation time.
type Frame struct {
	Track uint64
	Time  time.Duration
	Key   bool
	Data  []byte
}

// File is an opened program file: its tracks and length.
type File struct {
	Path     string
	Audio    *Track // first Opus track, nil when none
	Video    *Track // first VP8, VP9 or H.264 track, nil when none
	Duration time.Duration
	scale    time.Duration // of the segment's timecodes
}

// ErrNoMedia is returned for a file without a playable track.
var ErrNoMedia = errors.New("playout: no VP8, VP9, H.264 or Opus track")

// header is what Open reads: the segment info and the tracks (reading
// stops after Tracks; clusters are read by Frames).
type header struct {
	Segment struct {
		Info struct {
			TimecodeScale uint64  `ebml:"TimecodeScale"`
			Duration      float64 `ebml:"Duration"`
		} `ebml:"Info"`
		Tracks struct {
			TrackEntry []struct {
				TrackNumber  uint64 `ebml:"TrackNumber"`
				TrackType    uint64 `ebml:"TrackType"`
				CodecID      string `ebml:"CodecID"`
				CodecPrivate []byte `ebml:"CodecPrivate"`
				Video        struct {
					PixelWidth  uint64 `ebml:"PixelWidth"`
					PixelHeight uint64 `ebml:"PixelHeight"`
				} `ebml:"Video"`
				Audio struct {
					SamplingFrequency float64 `ebml:"SamplingFrequency"`
					Channels          uint64  `ebml:"Channels"`
				} `ebml:"Audio"`
			} `ebml:"TrackEntry"`
		} `ebml:"Tracks,stop"`
	} `ebml:"Segment"`
}

// maxLeaf bounds one element read into memory (a frame or a header
// field): larger elements make the file unreadable rather than exhaust
// memory.
const maxLeaf = 32 << 20

func readHeader(r io.Reader) (*header, error) {
	var h header
	err := ebml.Unmarshal(r, &h, ebml.WithIgnoreUnknown(true), ebml.WithMaxLeafElementSize(maxLeaf))
	if !errors.Is(err, ebml.ErrReadStopped) {
		if err == nil {
			err = errors.New("no Tracks element")
		}
		return nil, fmt.Errorf("playout: not a WebM or Matroska file: %w", err)
	}
	return &h, nil
}

// Open reads a file's header and its playable tracks.
func Open(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	h, err := readHeader(fd)
	if err != nil {
		return nil, err
	}
	f := &File{Path: path, scale: time.Duration(h.Segment.Info.TimecodeScale)}
	if f.scale <= 0 {
		f.scale = time.Millisecond // Matroska's default TimecodeScale, 1000000 ns
	}
	f.Duration = time.Duration(h.Segment.Info.Duration * float64(f.scale))
	for _, te := range h.Segment.Tracks.TrackEntry {
		t := Track{Number: te.TrackNumber, CodecPrivate: te.CodecPrivate}
		switch {
		case te.CodecID == "V_VP8":
			t.Video, t.Mime, t.ClockRate = true, MimeVP8, 90000
		case te.CodecID == "V_VP9":
			t.Video, t.Mime, t.ClockRate = true, MimeVP9, 90000
		case te.CodecID == "V_MPEG4/ISO/AVC":
			t.Video, t.Mime, t.ClockRate = true, MimeH264, 90000
		case te.CodecID == "A_OPUS":
			t.Mime, t.ClockRate, t.Channels = MimeOpus, 48000, 2 // RTP Opus is always 48000/2 (RFC 7587)
		default:
			continue
		}
		t.Width, t.Height = int(te.Video.PixelWidth), int(te.Video.PixelHeight)
		switch {
		case t.Video && f.Video == nil:
			f.Video = &t
		case !t.Video && f.Audio == nil:
			f.Audio = &t
		}
	}
	if f.Audio == nil && f.Video == nil {
		return nil, ErrNoMedia
	}
	return f, nil
}

// blockGroup is a Matroska BlockGroup: a Block is a key frame when it
// references no other (no ReferenceBlock).
type blockGroup struct {
	Block          ebml.Block `ebml:"Block"`
	ReferenceBlock []int64    `ebml:"ReferenceBlock"`
}

// Frames streams the frames of the file's played tracks in file order,
// from the first frame at or after from, to fn; fn returning an error (or
// ctx ending) stops the read. It returns nil at the end of the file.
func (f *File) Frames(ctx context.Context, from time.Duration, fn func(Frame) error) error {
	fd, err := os.Open(f.Path)
	if err != nil {
		return err
	}
	defer fd.Close()
	if _, err := readHeader(fd); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	timecodes, simple, groups := make(chan uint64), make(chan ebml.Block), make(chan blockGroup)
	clusters := struct {
		Cluster struct {
			Timecode    chan uint64     `ebml:"Timecode"`
			SimpleBlock chan ebml.Block `ebml:"SimpleBlock"`
			BlockGroup  chan blockGroup `ebml:"BlockGroup"`
		} `ebml:"Cluster"`
	}{}
	clusters.Cluster.Timecode, clusters.Cluster.SimpleBlock, clusters.Cluster.BlockGroup = timecodes, simple, groups
	errc := make(chan error, 1)
	go func() {
		// The reader stops at its next element once fn stopped (the
		// file is closed under it).
		defer close(timecodes)
		errc <- ebml.Unmarshal(&ctxReader{ctx, fd}, &clusters, ebml.WithIgnoreUnknown(true), ebml.WithMaxLeafElementSize(maxLeaf))
	}()
	var base uint64
	for {
		var b ebml.Block
		select {
		case tc, ok := <-timecodes:
			if !ok {
				err := <-errc
				if err == nil || errors.Is(err, io.ErrUnexpectedEOF) || ctx.Err() != nil {
					return ctx.Err() // a file cut short plays what it holds
				}
				return fmt.Errorf("playout: %s: %w", f.Path, err)
			}
			base = tc
			continue
		case b = <-simple:
		case g := <-groups:
			b = g.Block
			b.Keyframe = len(g.ReferenceBlock) == 0
		}
		if !f.plays(b.TrackNumber) {
			continue
		}
		t := time.Duration(int64(base)+int64(b.Timecode)) * f.scale
		if t < from {
			continue
		}
		for _, d := range b.Data {
			if err := fn(Frame{Track: b.TrackNumber, Time: t, Key: b.Keyframe, Data: d}); err != nil {
				cancel()
				go drain(timecodes, simple, groups)
				<-errc
				return err
			}
		}
	}
}

// drain empties the reader's channels until it stops.
func drain(tc chan uint64, s chan ebml.Block, g chan blockGroup) {
	for {
		select {
		case _, ok := <-tc:
			if !ok {
				return
			}
		case <-s:
		case <-g:
		}
	}
}

func (f *File) plays(n uint64) bool {
	return (f.Audio != nil && f.Audio.Number == n) || (f.Video != nil && f.Video.Number == n)
}

// KeyBefore returns the time of the last video key frame at or before t
// (t itself for a file without video): where a seek to t starts, so the
// first video frame sent decodes.
func (f *File) KeyBefore(ctx context.Context, t time.Duration) (time.Duration, error) {
	if f.Video == nil {
		return t, nil
	}
	key := time.Duration(0)
	stop := errors.New("stop")
	err := f.Frames(ctx, 0, func(fr Frame) error {
		if fr.Time > t {
			return stop
		}
		if fr.Track == f.Video.Number && fr.Key {
			key = fr.Time
		}
		return nil
	})
	if err != nil && err != stop {
		return 0, err
	}
	return key, nil
}

// ctxReader ends the file (io.EOF) once ctx ends: ebml-go stops cleanly
// at an end of file, not at every read error.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, io.EOF
	}
	return c.r.Read(p)
}

// IsMedia tells whether a path names a file Open may play, by extension.
func IsMedia(path string) bool {
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".webm") || strings.HasSuffix(p, ".mkv")
}
