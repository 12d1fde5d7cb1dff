package media

import (
	"context"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// DefaultAnswerAfter is how long a terminal that is not in the directory
// rings before it answers.
const DefaultAnswerAfter = 2 * time.Second

// RingTimeout is how long an unanswered call rings before it fails.
const RingTimeout = 30 * time.Second

// Simulated is the default backend: terminals behave as the directory
// says (answer after a delay, offline, busy, or ringing without answer).
// A callee that is not in the directory (by E.164 number, IP or alias)
// answers after DefaultAnswerAfter, so that a newcomer's first call brings
// terminals online (issue 13); the directory makes a number offline,
// busy, never answering or slow. Conference numbers never reach the
// backend: the engine links them as cascades.
type Simulated struct {
	Dir store.Store
}

// Dial looks the callee up and tells how the call will end.
func (s Simulated) Dial(ctx context.Context, confID string, c Callee) (Call, error) {
	e, err := s.Dir.DirectoryEntry(ctx, c.Account)
	if errors.Is(err, store.ErrNotFound) {
		return s.undirected(c), nil
	}
	if err != nil {
		return Call{}, err
	}
	id := Identity{Alias: e.Alias, E164: e.E164, IP: e.IP, MtType: e.MtType}
	if id.MtType == 0 {
		id.MtType = 1
	}
	switch e.Behaviour {
	case "offline":
		return Call{Outcome: Offline, Identity: id}, nil
	case "busy":
		return Call{Outcome: Busy, After: time.Second, Identity: id}, nil
	case "noanswer":
		return Call{Outcome: NoAnswer, After: RingTimeout, Identity: id}, nil
	}
	return Call{Outcome: Answered, After: e.AnswerAfter, Identity: id}, nil
}

// undirected plays a callee that the directory does not list.
func (Simulated) undirected(c Callee) Call {
	acct := c.Account
	alias, host, hasAt := strings.Cut(acct, "@")
	switch {
	case net.ParseIP(acct) != nil:
		return Call{Outcome: Answered, After: DefaultAnswerAfter, Identity: Identity{Alias: acct, IP: acct, MtType: 1}}
	case hasAt && net.ParseIP(host) != nil:
		return Call{Outcome: Answered, After: DefaultAnswerAfter, Identity: Identity{Alias: alias, IP: host, MtType: 1}}
	case isDigits(acct): // issue 13: a newcomer's first call brings terminals online
		return Call{Outcome: Answered, After: DefaultAnswerAfter, Identity: Identity{Alias: acct, E164: acct, MtType: 1}}
	}
	return Call{Outcome: Answered, After: DefaultAnswerAfter, Identity: Identity{Alias: acct, MtType: 1}}
}

// Hangup has nothing to release in the simulation.
func (Simulated) Hangup(ctx context.Context, confID, mtID string) error { return nil }

// Apply accepts every control in the simulation.
func (Simulated) Apply(ctx context.Context, confID, mtID string, c Control) error { return nil }

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
