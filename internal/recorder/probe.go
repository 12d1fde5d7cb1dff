package recorder

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/at-wat/ebml-go"
	"github.com/at-wat/ebml-go/webm"
)

// Header is what a recording's header says of it.
type Header struct {
	Container  string        // "webm" or "matroska"
	Duration   time.Duration // 0 when the recording was not stopped (a crash, a full disk)
	Width      int
	Height     int
	VideoCodec string
	AudioCodec string
	Tracks     int
}

// headerMax bounds how much of a file ProbeHeader reads: the header,
// seek head, info, tracks and the reserved cues come first.
const headerMax = cuesReserved + 64<<10

// ProbeHeader reads the EBML header, segment info and tracks of a WebM or
// Matroska file (vrs reads a program's figures with it at startup).
func ProbeHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	var doc struct {
		Header  webm.EBMLHeader `ebml:"EBML"`
		Segment struct {
			Info   webm.Info   `ebml:"Info"`
			Tracks webm.Tracks `ebml:"Tracks"`
		} `ebml:"Segment,size=unknown"`
	}
	// The read stops at the first cluster or at headerMax; what was read
	// by then is kept.
	err = ebml.Unmarshal(io.LimitReader(f, headerMax), &doc, ebml.WithIgnoreUnknown(true))
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) && len(doc.Segment.Tracks.TrackEntry) == 0 {
		return Header{}, err
	}
	if doc.Header.DocType != "webm" && doc.Header.DocType != "matroska" {
		return Header{}, errors.New("recorder: not a WebM or Matroska file")
	}
	h := Header{Container: doc.Header.DocType, Tracks: len(doc.Segment.Tracks.TrackEntry)}
	scale := doc.Segment.Info.TimecodeScale
	if scale == 0 {
		scale = 1000000
	}
	h.Duration = time.Duration(doc.Segment.Info.Duration * float64(scale))
	for _, t := range doc.Segment.Tracks.TrackEntry {
		switch {
		case t.TrackType == 1 && h.VideoCodec == "":
			h.VideoCodec = codecName(t.CodecID)
			if t.Video != nil {
				h.Width, h.Height = int(t.Video.PixelWidth), int(t.Video.PixelHeight)
			}
		case t.TrackType == 2 && h.AudioCodec == "":
			h.AudioCodec = codecName(t.CodecID)
		}
	}
	return h, nil
}
