package vc

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The playback's rules (playback.go), plain functions over the stored
// playback (issue 40): what a start stores, what a state request and a
// seek change, what a query answers. playback_rules_test.go checks them
// without HTTP or store.

// playVRSCheck refuses a vrs_id that is not the user domain's recording
// server (24101); "" names none.
func playVRSCheck(vrsID, domain string) error {
	if vrsID != "" && vrsID != vrsIDOf(domain) {
		return wire.Errorf(CodeRecVRSFault, "vrs_id %q is not a recording server of the user domain", vrsID)
	}
	return nil
}

// playStartOf is the playback a start stores: the program prg played as
// the recorder recID, in state (playing, or calling with media) from now.
func playStartOf(q model.VCConfsPlaybackStartRequest, prg storedProgram, recID string, state int, now time.Time) playback {
	vrsID := prg.VrsID
	if vrsID == nil {
		vrsID = json.RawMessage("null")
	}
	return playback{FileID: q.FileID, FileName: q.FileName, VrsID: vrsID, PlayDualStream: q.PlayDualStream,
		RecID: recID, TotalMs: int64(prg.Duration) * 1000, State: state, AnchorAt: tlMs(now)}
}

// playReply is the query's answer for the stored playback p (nil: none)
// at now.
func playReply(p *playback, now time.Time) *model.VCConfsPlaybackGetReply {
	if p == nil {
		return &model.VCConfsPlaybackGetReply{State: playStopped}
	}
	pos, _ := playbackPos(p, now)
	return &model.VCConfsPlaybackGetReply{FileName: p.FileName, FileID: p.FileID, State: playbackStateAt(p, now),
		CurrentProgress: int(pos / time.Second), TotalTime: int(p.TotalMs / 1000)}
}

// playStateChange applies a state request (value 0 stop, 1 pause, 2
// continue) to a playing or paused playback at now: pausing a paused
// playback changes nothing, continuing one that is not paused is 20806.
func playStateChange(p *playback, value int, now time.Time) (bool, error) {
	pos, _ := playbackPos(p, now)
	switch state := p.State; {
	case value == playStopped:
		playbackStop(p, pos)
	case value == playPaused && state == playPaused:
		return false, nil
	case value == playPaused:
		p.State, p.PosMs, p.AnchorAt, p.PausedAt = playPaused, pos.Milliseconds(), tlMs(now), tlMs(now)
	case state != playPaused:
		return false, wire.Errorf(CodePlaybackNotPaused, "the playback is not paused")
	default:
		p.State, p.AnchorAt, p.PausedAt = playPlaying, tlMs(now), 0
	}
	return true, nil
}

// playSeek moves a playing or paused playback to secs seconds at now,
// within the program's length (90400 outside); a paused playback stays
// paused there. It answers the playback's state, for its media.
func playSeek(p *playback, secs int, now time.Time) (int, error) {
	total := p.TotalMs / 1000
	if secs < 0 || int64(secs) > total {
		return p.State, wire.InvalidParam("current_progress", fmt.Sprintf("%d is outside the program's 0 to %d seconds", secs, total))
	}
	p.PosMs, p.AnchorAt = int64(secs)*1000, tlMs(now)
	if p.State == playPaused {
		p.PausedAt = tlMs(now)
	}
	return p.State, nil
}
