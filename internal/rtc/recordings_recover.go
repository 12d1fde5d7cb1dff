package rtc

import (
	"context"
	"os"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/playout"
	"github.com/confer-platform/confer/internal/recorder"
)

// ReadFile reads the figures of a recording's file that a stop of the
// node interrupted (vc's RecoverRecordings at start, issue 35 item 4):
// base is its path without the suffix, tried as .webm then .mkv; the
// answer's Path is the file found. ok is false when there is none, or it
// holds no playable media. A file cut short has no duration in its
// header: its frames are read for it.
func (rs *Recordings) ReadFile(base string) (info media.RecordInfo, ok bool) {
	for _, ext := range []string{".webm", ".mkv"} {
		path := base + ext
		fi, err := os.Stat(path)
		if err != nil {
			continue
		}
		h, err := recorder.ProbeHeader(path)
		if err != nil {
			return media.RecordInfo{}, false
		}
		info := media.RecordInfo{Path: path, Bytes: fi.Size(), Duration: h.Duration, Width: h.Width, Height: h.Height,
			VideoCodec: h.VideoCodec, AudioCodec: h.AudioCodec, Container: h.Container}
		if info.Duration == 0 { // cut short: the frames tell
			f, err := playout.Open(path)
			if err != nil {
				return media.RecordInfo{}, false
			}
			var first, last time.Duration = -1, 0
			_ = f.Frames(context.Background(), 0, func(fr playout.Frame) error {
				if first < 0 {
					first = fr.Time
				}
				last = max(last, fr.Time)
				return nil
			})
			if first >= 0 {
				info.Duration = last - first
			}
		}
		return info, true
	}
	return media.RecordInfo{}, false
}
