package recorder

import (
	"fmt"
	"time"

	"github.com/at-wat/ebml-go/mkvcore"
	"github.com/at-wat/ebml-go/webm"
)

// The container (docs/recording.md "Formats"): WebM when every track is
// VP8, VP9 or Opus, Matroska when a video track is H.264; one file holds
// every stream of a recording, track n+1 for Track n. The file is written
// with at-wat/ebml-go: the segment and the clusters have unknown sizes,
// so a file cut short by a crash or a full disk plays up to its last
// whole frame; stop writes the cues and the duration into room reserved
// at the start.
//
// The header names each video track's picture size, so the header waits
// for the first key frame of the first video track (frames of the other
// tracks wait with it, up to pendingMax bytes or pendingSpan of media);
// a track whose size is not known by then declares defaultWidth x
// defaultHeight, which players correct from the frames.
const (
	pendingMax    = 8 << 20
	pendingSpan   = 5000 // ms
	cuesReserved  = 256 << 10
	clusterMaxMs  = 5000
	defaultWidth  = 1280
	defaultHeight = 720
	sorterDelay   = 64  // frames the track sorter may hold back
	sorterSpan    = 250 // ms of media it may hold back (a track with nothing to send holds nothing up)
	// headerEstimate bounds the header with the reserved cues;
	// frameOverhead a frame's block and cluster headers.
	headerEstimate = cuesReserved + 8<<10
	frameOverhead  = 32
)

type muxTrack struct {
	spec    Track
	c       codec
	w, h    int
	private []byte // CodecPrivate: the AVC configuration of an H.264 track
	keyed   bool   // its first key frame was seen
	written Progress
}

type frame struct {
	track int
	key   bool
	ms    int64
	data  []byte
}

// muxer writes the frames of the tracks into one file.
type muxer struct {
	out          *file
	tracks       []muxTrack
	pending      []frame
	pendingBytes int
	ws           []webm.BlockWriteCloser
	first, last  int64 // ms of the first and last frame written
	wrote        bool
	fatal        error
	estimate     int64 // bytes the file will have once what was written is out: the quota's measure
}

func newMuxer(out *file, tracks []Track) (*muxer, error) {
	m := &muxer{out: out, estimate: headerEstimate}
	for _, t := range tracks {
		c, ok := codecOf(t.MimeType)
		if !ok {
			return nil, fmt.Errorf("recorder: codec %s cannot be recorded", t.MimeType)
		}
		m.tracks = append(m.tracks, muxTrack{spec: t, c: c})
	}
	return m, nil
}

// matroska tells whether the file is Matroska rather than WebM.
func (m *muxer) matroska() bool {
	for _, t := range m.tracks {
		if t.c.id == "V_MPEG4/ISO/AVC" {
			return true
		}
	}
	return false
}

// write muxes one frame of track i at ms.
func (m *muxer) write(i int, key bool, ms int64, data []byte) {
	t := &m.tracks[i]
	if t.c.video && !t.keyed {
		if !key {
			return // nothing decodes before the first key frame
		}
		t.keyed = true
		if t.c.size != nil {
			t.w, t.h, _ = t.c.size(data)
		}
		if t.c.id == "V_MPEG4/ISO/AVC" {
			t.private = avcConfig(data)
		}
	}
	if t.c.id == "V_MPEG4/ISO/AVC" {
		data = lengthPrefixed(data)
	}
	f := frame{track: i, key: key, ms: ms, data: data}
	t.written.add(ms)
	m.estimate += int64(len(data)) + frameOverhead
	if m.ws == nil {
		m.pending = append(m.pending, f)
		m.pendingBytes += len(data)
		if !m.ready() {
			return
		}
		if err := m.open(); err != nil {
			m.fatal = err
			return
		}
		for _, f := range m.pending {
			m.emit(f)
		}
		m.pending, m.pendingBytes = nil, 0
		return
	}
	m.emit(f)
}

// ready tells whether the header can be written.
func (m *muxer) ready() bool {
	if m.pendingBytes >= pendingMax || m.pending[len(m.pending)-1].ms-m.pending[0].ms >= pendingSpan {
		return true
	}
	for _, t := range m.tracks {
		if t.c.video {
			return t.keyed
		}
	}
	return true
}

func (m *muxer) emit(f frame) {
	if !m.wrote {
		m.first, m.wrote = f.ms, true
	}
	m.last = max(m.last, f.ms)
	if _, err := m.ws[f.track].Write(f.key, f.ms, f.data); err != nil && m.fatal == nil {
		m.fatal = err
	}
}

// open writes the header.
func (m *muxer) open() error {
	var entries []webm.TrackEntry
	mainVideo := uint64(0)
	for i, t := range m.tracks {
		e := webm.TrackEntry{Name: t.spec.Name, TrackNumber: uint64(i + 1), TrackUID: uint64(i + 1), CodecID: t.c.id}
		if t.c.video {
			w, h := t.w, t.h
			if w <= 0 || h <= 0 {
				w, h = defaultWidth, defaultHeight
			}
			e.TrackType, e.Video, e.CodecPrivate = 1, &webm.Video{PixelWidth: uint64(w), PixelHeight: uint64(h)}, t.private
			if mainVideo == 0 {
				mainVideo = e.TrackNumber
			}
		} else {
			ch := t.spec.Channels
			if ch == 0 {
				ch = 2
			}
			e.TrackType, e.Audio = 2, &webm.Audio{SamplingFrequency: 48000, Channels: uint64(ch)}
			e.CodecPrivate, e.CodecDelay, e.SeekPreRoll = opusHead(ch), 0, uint64(80*time.Millisecond)
		}
		entries = append(entries, e)
	}
	header := &webm.EBMLHeader{EBMLVersion: 1, EBMLReadVersion: 1, EBMLMaxIDLength: 4, EBMLMaxSizeLength: 8,
		DocType: "webm", DocTypeVersion: 4, DocTypeReadVersion: 2}
	if m.matroska() {
		header.DocType = "matroska"
	}
	sorter, err := mkvcore.NewMultiTrackBlockSorter(mkvcore.WithMaxDelayedPackets(sorterDelay), mkvcore.WithMaxTimescaleDelay(sorterSpan), mkvcore.WithSortRule(mkvcore.BlockSorterWriteOutdated))
	if err != nil {
		return err
	}
	opts := []mkvcore.BlockWriterOption{
		mkvcore.WithEBMLHeader(header),
		mkvcore.WithSegmentInfo(&webm.Info{TimecodeScale: 1000000, MuxingApp: "confer", WritingApp: "confer"}),
		mkvcore.WithBlockInterceptor(sorter),
		mkvcore.WithSeekHead(true),
		mkvcore.WithCues(cuesReserved),
		mkvcore.WithOnFatalHandler(func(err error) {
			if m.fatal == nil {
				m.fatal = err
			}
		}),
		mkvcore.WithOnErrorHandler(func(error) {}), // an outdated frame is dropped
	}
	if mainVideo > 0 {
		opts = append(opts, mkvcore.WithMinMaxClusterDuration(mainVideo, 0, clusterMaxMs))
	} else {
		opts = append(opts, mkvcore.WithMinMaxClusterDuration(1, clusterMaxMs, clusterMaxMs))
	}
	ws, err := webm.NewSimpleBlockWriter(m.out, entries, opts...)
	if err != nil {
		return err
	}
	m.ws = ws
	return nil
}

// close writes what waits, the cues and the duration, and closes the
// file. A recording that never received a frame still gets its header.
func (m *muxer) close() error {
	if m.ws == nil {
		if err := m.open(); err != nil {
			m.out.Close()
			return err
		}
		for _, f := range m.pending {
			m.emit(f)
		}
		m.pending = nil
	}
	for _, w := range m.ws {
		w.Close() // the last one waits until the file is finished and closed
	}
	return m.fatal
}

// Progress is what one track of a recording has taken into its file so
// far (Recorder.Progress): frames handed to the file's writer, which may
// still hold the last few (the header waiting for the first key frame,
// the track sorter's quarter second), and the media time they span.
type Progress struct {
	Frames int64
	Span   time.Duration // from the track's first frame taken to its last
	first  int64         // ms of the track's first frame taken
}

func (p *Progress) add(ms int64) {
	if p.Frames == 0 {
		p.first = ms
	}
	p.Frames++
	p.Span = max(p.Span, time.Duration(ms-p.first)*time.Millisecond)
}

// duration is the media time between the first and the last frame.
func (m *muxer) duration() time.Duration {
	if !m.wrote {
		return 0
	}
	return time.Duration(m.last-m.first) * time.Millisecond
}
