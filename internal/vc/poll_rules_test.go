package vc

import (
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestPollStartOf(t *testing.T) {
	start := func(num, keep int, first int, ids ...string) model.VCConfsChairmanPollStartRequest {
		q := model.VCConfsChairmanPollStartRequest{Num: num, KeepTime: keep}
		if first > 0 {
			q.PollIndex = model.Some(first)
		}
		for _, id := range ids {
			q.Members = append(q.Members, model.VCConfsChairmanPollStartRequestMember{MtID: model.Some(id)})
		}
		return q
	}
	for _, tc := range []struct {
		name   string
		q      model.VCConfsChairmanPollStartRequest
		ids    []string
		origin int
		code   int
	}{
		{"default first", start(0, 5, 0, "2", "1"), []string{"2", "1"}, 0, 0},
		{"from the second", start(3, 1, 2, "2", "1", "3"), []string{"2", "1", "3"}, 1, 0},
		{"negative rounds", start(-1, 5, 0, "1"), nil, 0, wire.CodeInvalidParam},
		{"no interval", start(0, 0, 0, "1"), nil, 0, wire.CodeInvalidParam},
		{"no member", start(0, 5, 0), nil, 0, wire.CodeInvalidParam},
		{"twice", start(0, 5, 0, "1", "2", "1"), nil, 0, wire.CodeInvalidParam},
		{"first past the members", start(0, 5, 3, "1", "2"), nil, 0, wire.CodeInvalidParam},
	} {
		ids, origin, err := pollStartOf(tc.q)
		if code(t, err) != tc.code || err == nil && (!slices.Equal(ids, tc.ids) || origin != tc.origin) {
			t.Errorf("%s: pollStartOf = %v, %d, %v; want %v, %d, code %d", tc.name, ids, origin, err, tc.ids, tc.origin, tc.code)
		}
	}
}

func TestPollStateChange(t *testing.T) {
	t0 := time.UnixMilli(1_796_540_400_000)
	now := t0.Add(12 * time.Second)
	polling := func() engine.Poll {
		return engine.Poll{KeepTime: 5, State: pollStatePolling, Index: 0, TurnAt: t0.UnixMilli()}
	}
	paused := func() engine.Poll {
		return engine.Poll{KeepTime: 5, State: pollStatePaused, Index: 2, Rounds: 1, TurnAt: t0.UnixMilli(), PausedAt: t0.Add(4 * time.Second).UnixMilli()}
	}
	at := engine.PollPosition{Index: 2, Rounds: 1, InTurn: 2 * time.Second}
	for _, tc := range []struct {
		name    string
		p       engine.Poll
		value   int
		pos     engine.PollPosition
		changed bool
		want    engine.Poll
	}{
		{"pause anchors at the current member", polling(), pollValuePause, at, true,
			engine.Poll{KeepTime: 5, State: pollStatePaused, Index: 2, Rounds: 1, TurnAt: now.Add(-2 * time.Second).UnixMilli(), PausedAt: now.UnixMilli()}},
		{"pause with no member online keeps the anchor", polling(), pollValuePause, engine.PollPosition{None: true}, true,
			engine.Poll{KeepTime: 5, State: pollStatePaused, TurnAt: t0.UnixMilli(), PausedAt: now.UnixMilli()}},
		{"pause a paused poll", paused(), pollValuePause, at, false, paused()},
		{"resume moves the anchor by the pause", paused(), pollValueResume, at, true,
			engine.Poll{KeepTime: 5, State: pollStatePolling, Index: 2, Rounds: 1, TurnAt: t0.Add(8 * time.Second).UnixMilli()}},
		{"resume a polling poll", polling(), pollValueResume, at, false, polling()},
	} {
		p := tc.p
		if got := pollStateChange(&p, tc.value, tc.pos, now); got != tc.changed || !pollEq(p, tc.want) {
			t.Errorf("%s: pollStateChange = %v, poll %+v; want %v, %+v", tc.name, got, p, tc.changed, tc.want)
		}
	}
}

// pollEq compares the anchor and state of two polls.
func pollEq(a, b engine.Poll) bool {
	return a.State == b.State && a.Index == b.Index && a.Rounds == b.Rounds && a.TurnAt == b.TurnAt && a.PausedAt == b.PausedAt
}
