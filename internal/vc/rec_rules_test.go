package vc

import (
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/wire"
)

func TestRecName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"weekly", 0},
		{"week-ly_1@x.y", 0},
		{" ", wire.CodeInvalidParam},
		{strings.Repeat("a", recMaxName), 0},
		{strings.Repeat("a", recMaxName+1), CodeRecNameTooLong},
		{"a/b", CodeRecBadName},
		{"a$b", CodeRecBadName},
		{"_a", CodeRecBadName},
		{"a.", CodeRecBadName},
	} {
		if got := code(t, recName(tc.name)); got != tc.want {
			t.Errorf("recName(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestRecLength(t *testing.T) {
	t0 := time.UnixMilli(1_765_000_000_000)
	now := t0.Add(60 * time.Second)
	for _, tc := range []struct {
		name string
		rc   engine.Recording
		want time.Duration
	}{
		{"recording", engine.Recording{State: recRecording, StartedAt: t0.UnixMilli()}, 60 * time.Second},
		{"after a pause", engine.Recording{State: recRecording, StartedAt: t0.UnixMilli(), PausedMs: 15_000}, 45 * time.Second},
		{"paused", engine.Recording{State: recPaused, StartedAt: t0.UnixMilli(), PausedAt: t0.Add(20 * time.Second).UnixMilli(), PausedMs: 5_000}, 15 * time.Second},
		{"no start stored", engine.Recording{State: recRecording}, 0},
	} {
		if got := recLength(tc.rc, now); got != tc.want {
			t.Errorf("%s: recLength = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRecStateChange(t *testing.T) {
	const now = 1_765_000_060_000
	rec := engine.Recording{RecID: "4", State: recRecording, StartedAt: now - 60_000}
	pausedAt := engine.Recording{RecID: "4", State: recPaused, StartedAt: now - 60_000, PausedAt: now - 10_000, PausedMs: 2_000}
	for _, tc := range []struct {
		name    string
		rc      engine.Recording
		value   int
		changed bool
		code    int
		want    engine.Recording
	}{
		{"pause", rec, recValuePause, true, 0, engine.Recording{RecID: "4", State: recPaused, StartedAt: now - 60_000, PausedAt: now}},
		{"pause a paused one", pausedAt, recValuePause, false, 0, pausedAt},
		{"resume", pausedAt, 2, true, 0, engine.Recording{RecID: "4", State: recRecording, StartedAt: now - 60_000, PausedMs: 12_000}},
		{"resume one not paused", rec, 2, false, CodeRecNotPaused, rec},
	} {
		rc := tc.rc
		changed, err := recStateChange(&rc, tc.value, now)
		if changed != tc.changed || code(t, err) != tc.code || rc.State != tc.want.State || rc.PausedAt != tc.want.PausedAt || rc.PausedMs != tc.want.PausedMs {
			t.Errorf("%s: recStateChange = %v, %v, %+v; want %v, code %d, %+v", tc.name, changed, err, rc, tc.changed, tc.code, tc.want)
		}
	}
}
