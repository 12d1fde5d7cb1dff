package vc

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestPlayVRSCheck(t *testing.T) {
	for _, tc := range []struct {
		vrsID string
		want  int
	}{
		{"", 0},
		{vrsIDOf("d1"), 0},
		{vrsIDOf("d2"), CodeRecVRSFault},
		{"x", CodeRecVRSFault},
	} {
		if got := code(t, playVRSCheck(tc.vrsID, "d1")); got != tc.want {
			t.Errorf("playVRSCheck(%q) = %d, want %d", tc.vrsID, got, tc.want)
		}
	}
}

func TestPlayStartOf(t *testing.T) {
	now := time.UnixMilli(1_765_000_000_000)
	q := model.VCConfsPlaybackStartRequest{FileID: 7, FileName: "weekly", PlayDualStream: 1}
	p := playStartOf(q, storedProgram{Duration: 90}, "12", playCalling, now)
	want := playback{FileID: 7, FileName: "weekly", PlayDualStream: 1, RecID: "12", TotalMs: 90_000, State: playCalling,
		AnchorAt: now.UnixMilli(), VrsID: json.RawMessage("null")}
	if string(p.VrsID) != string(want.VrsID) || p.FileID != want.FileID || p.FileName != want.FileName || p.PlayDualStream != 1 ||
		p.RecID != "12" || p.TotalMs != want.TotalMs || p.State != playCalling || p.AnchorAt != want.AnchorAt {
		t.Errorf("playStartOf = %+v, want %+v", p, want)
	}
	if p := playStartOf(q, storedProgram{VrsID: json.RawMessage(`"v"`)}, "1", playPlaying, now); string(p.VrsID) != `"v"` {
		t.Errorf("the program's vrs_id: %s", p.VrsID)
	}
}

func TestPlayReply(t *testing.T) {
	t0 := time.UnixMilli(1_765_000_000_000)
	for _, tc := range []struct {
		name string
		p    *playback
		now  time.Time
		want model.VCConfsPlaybackGetReply
	}{
		{"none", nil, t0, model.VCConfsPlaybackGetReply{State: playStopped}},
		{"playing", &playback{FileID: 3, FileName: "a", State: playPlaying, PosMs: 5_000, AnchorAt: t0.UnixMilli(), TotalMs: 60_000},
			t0.Add(10 * time.Second), model.VCConfsPlaybackGetReply{FileID: 3, FileName: "a", State: playPlaying, CurrentProgress: 15, TotalTime: 60}},
		{"paused", &playback{State: playPaused, PosMs: 5_000, AnchorAt: t0.UnixMilli(), PausedAt: t0.Add(2 * time.Second).UnixMilli(), TotalMs: 60_000},
			t0.Add(10 * time.Second), model.VCConfsPlaybackGetReply{State: playPaused, CurrentProgress: 7, TotalTime: 60}},
		{"at its end", &playback{State: playPlaying, AnchorAt: t0.UnixMilli(), TotalMs: 60_000},
			t0.Add(90 * time.Second), model.VCConfsPlaybackGetReply{State: playStopped, CurrentProgress: 60, TotalTime: 60}},
	} {
		if got := playReply(tc.p, tc.now); *got != tc.want {
			t.Errorf("%s: playReply = %+v, want %+v", tc.name, *got, tc.want)
		}
	}
}

func TestPlayStateChange(t *testing.T) {
	t0 := time.UnixMilli(1_765_000_000_000)
	now := t0.Add(10 * time.Second)
	playing := playback{State: playPlaying, PosMs: 5_000, AnchorAt: t0.UnixMilli(), TotalMs: 60_000}
	paused := playback{State: playPaused, PosMs: 5_000, AnchorAt: t0.UnixMilli(), PausedAt: t0.Add(2 * time.Second).UnixMilli(), TotalMs: 60_000}
	for _, tc := range []struct {
		name    string
		p       playback
		value   int
		changed bool
		code    int
		want    playback
	}{
		{"stop playing", playing, playStopped, true, 0, playback{State: playStopped, PosMs: 15_000, AnchorAt: t0.UnixMilli(), TotalMs: 60_000}},
		{"stop paused", paused, playStopped, true, 0, playback{State: playStopped, PosMs: 7_000, AnchorAt: t0.UnixMilli(), TotalMs: 60_000}},
		{"pause", playing, playPaused, true, 0, playback{State: playPaused, PosMs: 15_000, AnchorAt: now.UnixMilli(), PausedAt: now.UnixMilli(), TotalMs: 60_000}},
		{"pause paused", paused, playPaused, false, 0, paused},
		{"continue paused", paused, playPlaying, true, 0, playback{State: playPlaying, PosMs: 5_000, AnchorAt: now.UnixMilli(), TotalMs: 60_000}},
		{"continue playing", playing, playPlaying, false, CodePlaybackNotPaused, playing},
	} {
		p := tc.p
		changed, err := playStateChange(&p, tc.value, now)
		if changed != tc.changed || code(t, err) != tc.code || !samePlayback(p, tc.want) {
			t.Errorf("%s: playStateChange = %v, %v, %+v; want %v, %d, %+v", tc.name, changed, err, p, tc.changed, tc.code, tc.want)
		}
	}
}

func TestPlaySeek(t *testing.T) {
	t0 := time.UnixMilli(1_765_000_000_000)
	now := t0.Add(10 * time.Second)
	playing := playback{State: playPlaying, PosMs: 5_000, AnchorAt: t0.UnixMilli(), TotalMs: 60_000}
	paused := playback{State: playPaused, PosMs: 5_000, AnchorAt: t0.UnixMilli(), PausedAt: t0.Add(2 * time.Second).UnixMilli(), TotalMs: 60_000}
	for _, tc := range []struct {
		name  string
		p     playback
		secs  int
		state int
		code  int
		want  playback
	}{
		{"playing", playing, 30, playPlaying, 0, playback{State: playPlaying, PosMs: 30_000, AnchorAt: now.UnixMilli(), TotalMs: 60_000}},
		{"to the end", playing, 60, playPlaying, 0, playback{State: playPlaying, PosMs: 60_000, AnchorAt: now.UnixMilli(), TotalMs: 60_000}},
		{"paused stays paused", paused, 0, playPaused, 0, playback{State: playPaused, AnchorAt: now.UnixMilli(), PausedAt: now.UnixMilli(), TotalMs: 60_000}},
		{"past the end", playing, 61, playPlaying, wire.CodeInvalidParam, playing},
		{"negative", paused, -1, playPaused, wire.CodeInvalidParam, paused},
	} {
		p := tc.p
		state, err := playSeek(&p, tc.secs, now)
		if state != tc.state || code(t, err) != tc.code || !samePlayback(p, tc.want) {
			t.Errorf("%s: playSeek = %d, %v, %+v; want %d, %d, %+v", tc.name, state, err, p, tc.state, tc.code, tc.want)
		}
	}
}

// samePlayback compares two playbacks' members that the rules change.
func samePlayback(a, b playback) bool {
	return a.State == b.State && a.PosMs == b.PosMs && a.AnchorAt == b.AnchorAt && a.PausedAt == b.PausedAt && a.TotalMs == b.TotalMs
}
