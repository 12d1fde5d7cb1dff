package vc

import (
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
)

// Rotations of the media features: a single-channel poll (a composition
// channel or a TV wall showing each of its terminals in turn) and a batch
// poll (panes or TV walls showing the terminals page by page) advance one
// step every keep_time seconds (reference 05 "开启会议画面合成" poll and
// members[].poll, "开启电视墙" poll, "开启电视墙批量轮询"). A rotation is
// stored as its start time and read through the clock (DESIGN principle
// 4): the step at an instant is the running time since the start divided
// by keep_time. A paused rotation (the TV-wall batch poll) keeps the time
// it ran before the pause.

// A rotation is stored beside its num and keep_time as _origin (the
// index, 0-based, of the first item of a round), _since (when it last
// started or resumed), _elapsed_ms (its running time before _since) and
// _paused (1 while paused): engine.Rotation.

// mdRot is a rotation.
type mdRot struct {
	Origin  int
	Num     int // rounds (0 rotates forever)
	Keep    time.Duration
	Since   time.Time
	Elapsed time.Duration
	Paused  bool
}

// rotOfStored reads a rotation stored in a typed member of the conference
// (engine.Rotation), with its num and keep_time (in seconds).
func rotOfStored(num, keep int, s engine.Rotation) mdRot {
	since, _ := record.ParseTime(s.Since)
	return mdRot{
		Origin:  s.Origin,
		Num:     num,
		Keep:    time.Duration(keep) * time.Second,
		Since:   since,
		Elapsed: time.Duration(s.ElapsedMs) * time.Millisecond,
		Paused:  s.Paused == 1,
	}
}

// stored is the rotation as a typed member stores it (as put does).
func (r mdRot) stored() engine.Rotation {
	return engine.Rotation{Origin: r.Origin, Since: r.Since.UTC().Format(time.RFC3339Nano),
		ElapsedMs: int(r.Elapsed / time.Millisecond), Paused: mdFlag(r.Paused)}
}

// step is the number of keep_time periods the rotation has run at now.
func (r mdRot) step(now time.Time) int {
	d := r.Elapsed
	if !r.Paused {
		d += now.Sub(r.Since)
	}
	if d < 0 || r.Keep <= 0 {
		return 0
	}
	return int(d / r.Keep)
}

// at is the current item among n (0-based) and whether num rounds are
// complete; a complete rotation stays on its last item. A round passes
// every item once, beginning at Origin.
func (r mdRot) at(n int, now time.Time) (int, bool) {
	if n <= 0 {
		return 0, true
	}
	s := r.step(now)
	if r.Num > 0 && s >= r.Num*n {
		return (r.Origin + r.Num*n - 1) % n, true
	}
	return (r.Origin + s) % n, false
}

// pause stops the clock of the rotation at now; resume starts it again.
func (r mdRot) pause(now time.Time) mdRot {
	if !r.Paused {
		r.Elapsed += max(now.Sub(r.Since), 0)
		r.Paused = true
	}
	return r
}

func (r mdRot) resume(now time.Time) mdRot {
	if r.Paused {
		r.Since, r.Paused = now, false
	}
	return r
}

// rebase carries a single-channel rotation over a change of its items at
// now: the item shown stays shown (or, when it is gone, the one after it
// takes its turn), the rounds still to go keep counting from there.
func (r mdRot) rebase(old, kept []string, now time.Time) mdRot {
	out := mdRot{Num: r.Num, Keep: r.Keep, Since: now, Paused: r.Paused}
	if len(old) == 0 || len(kept) == 0 {
		return out
	}
	cur, done := r.at(len(old), now)
	if done { // stays complete: one round that has already run
		out.Num, out.Elapsed = 1, r.Keep*time.Duration(len(kept))
		return out
	}
	if r.Num > 0 {
		out.Num = max(r.Num-r.step(now)/len(old), 1)
	}
	// The first kept item at or after the current one.
	pos := map[string]int{}
	for i, s := range kept {
		pos[s] = i
	}
	for k := 0; k < len(old); k++ {
		if i, ok := pos[old[(cur+k)%len(old)]]; ok {
			out.Origin = i
			break
		}
	}
	return out
}
