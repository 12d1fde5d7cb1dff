package engine

import "time"

// Poll rotation derived from stored timestamps (DESIGN principle 4;
// reference 05 "获取会议轮询信息", "开启会议轮询"). A poll is stored as an
// anchor: the member polled when the anchor was taken, the rounds
// completed by then and the active time since that member's turn began.
// Reads compute the current member from the anchor and the clock, so no
// timer runs; every change of the poll (start, pause, resume, a terminal
// leaving) takes a new anchor.

// PollAnchor is the stored position of a poll.
type PollAnchor struct {
	Members int           // length of the member list
	Origin  int           // index (0-based) where each round begins: the first polled member
	Num     int           // rounds to poll; 0 polls forever
	Keep    time.Duration // time on each member (keep_time)
	Index   int           // member whose turn began at the anchor
	Rounds  int           // rounds completed at the anchor
	Elapsed time.Duration // active (unpaused) time since that turn began
}

// PollPosition is where a poll stands.
type PollPosition struct {
	Index  int           // current member (0-based); meaningful unless None or Done
	Rounds int           // rounds completed
	InTurn time.Duration // time since the current member's turn began
	None   bool          // no member is online: no member is polled (poll_index 0)
	Done   bool          // num rounds are complete: the poll has stopped
}

// PollAt computes the position of a poll. online tells whether the member
// at an index is in the call; members that are not are skipped and take
// no time. The rotation follows the member list from Origin, wrapping
// round; passing Origin again completes a round.
func PollAt(a PollAnchor, online func(i int) bool) PollPosition {
	n := a.Members
	if n <= 0 {
		return PollPosition{None: true}
	}
	// The online members by their place in the round.
	var order []int
	for p := 0; p < n; p++ {
		if online((a.Origin + p) % n) {
			order = append(order, p)
		}
	}
	rounds := a.Rounds
	done := func() bool { return a.Num > 0 && rounds >= a.Num }
	if done() {
		return PollPosition{Rounds: rounds, Done: true}
	}
	if len(order) == 0 {
		return PollPosition{Index: a.Index, Rounds: rounds, InTurn: a.Elapsed, None: true}
	}
	// A member that is not online at the anchor hands over at once to the
	// next online one.
	p0 := ((a.Index-a.Origin)%n + n) % n
	j := -1
	for k, p := range order {
		if p >= p0 {
			j = k
			break
		}
	}
	if j < 0 {
		j = 0
		rounds++
		if done() {
			return PollPosition{Rounds: rounds, Done: true}
		}
	}
	elapsed := max(a.Elapsed, 0)
	steps := 0
	if a.Keep > 0 {
		steps = int(elapsed / a.Keep)
	}
	total := j + steps
	rounds += total / len(order)
	j = total % len(order)
	if done() {
		return PollPosition{Rounds: rounds, Done: true}
	}
	return PollPosition{Index: (a.Origin + order[j]) % n, Rounds: rounds, InTurn: elapsed - time.Duration(steps)*a.Keep}
}
