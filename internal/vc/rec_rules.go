package vc

import (
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

// The rules of the recordings (reference 05 items 48 to 52: "开启录像",
// "修改录像状态" with value "1-暂停录像； 2-继续录像"; seed 001
// "Recording") as plain functions over the typed request and the stored
// recording (engine.Recording): the handlers (rec.go) read the
// conference, call them and write what they decide. rec_rules_test.go checks them without HTTP or store.

// recName checks a video_name (reference 05 "开启录像": none of
// % : & * ^ ~ ' " ? / \ < > | ` $, no _ - @ . first or last, at most 64
// bytes).
func recName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return wire.InvalidParam("video_name", "is empty")
	case len(name) > recMaxName:
		return wire.Errorf(CodeRecNameTooLong, "video_name is %d bytes, more than %d", len(name), recMaxName)
	case strings.ContainsAny(name, recBadChars):
		return wire.Errorf(CodeRecBadName, "video_name %q contains one of %s", name, recBadChars)
	case strings.ContainsAny(name[:1], recBadEnds) || strings.ContainsAny(name[len(name)-1:], recBadEnds):
		return wire.Errorf(CodeRecBadName, "video_name %q begins or ends with one of %s", name, recBadEnds)
	}
	return nil
}

// recLength is how long a recording has recorded at now: 0 for one
// stored without its start (another form than the server writes).
func recLength(rc engine.Recording, now time.Time) time.Duration {
	if rc.StartedAt == 0 {
		return 0
	}
	end := now
	if rc.State == recPaused {
		end = time.UnixMilli(rc.PausedAt)
	}
	d := end.Sub(time.UnixMilli(rc.StartedAt)) - time.Duration(rc.PausedMs)*time.Millisecond
	return max(d, 0)
}

// recStateChange pauses (value 1) or resumes (2) the recording rc at now
// (UNIX ms): pausing a paused one changes nothing (false), resuming one
// that is not paused is 20803; a resume adds the pause's length to
// paused_ms.
func recStateChange(rc *engine.Recording, value int, now int64) (bool, error) {
	switch {
	case value == recValuePause && rc.State == recPaused:
		return false, nil
	case value == recValuePause:
		rc.State, rc.PausedAt = recPaused, now
	case rc.State != recPaused: // resume a recording that is not paused
		return false, wire.Errorf(CodeRecNotPaused, "recording %s is not paused", rc.RecID)
	default: // resume
		rc.PausedMs += now - rc.PausedAt
		rc.State, rc.PausedAt = recRecording, 0
	}
	return true, nil
}
