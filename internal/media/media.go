// Package media is the conference engine's view of the media plane
// (DESIGN principle 5): calling and hanging up terminals and controlling
// their audio and video. The engine talks only to Backend; the default
// implementation (Simulated) plays terminals from the directory, and a
// real backend (a WebRTC SFU, SIP signalling) can implement the same
// interface later without touching the API layer.
package media

import (
	"context"
	"time"
)

// Callee is whom a call is for (seed 000 "Terminal entry").
type Callee struct {
	Account     string // E.164 number, alias, IP, or alias@ip
	AccountType int
	Protocol    int // 0 H.323, 1 SIP
	Bitrate     int
}

// Outcome is how a call ends up.
type Outcome int

const (
	Answered Outcome = iota
	Offline
	Busy
	NoAnswer
)

func (o Outcome) String() string {
	return [...]string{"answered", "offline", "busy", "no answer"}[o]
}

// Identity is what the platform learns of a terminal that it calls.
type Identity struct {
	Alias  string
	E164   string
	IP     string
	MtType int // 1 ordinary, 3 telephone, 5 satellite, 7 subordinate conference, 8 superior
}

// Call is the result of dialling: the outcome is known After the dial
// (ringing, then an answer or a failure); the engine applies it then,
// reading the injected clock, so tests move time instead of waiting.
type Call struct {
	Outcome  Outcome
	After    time.Duration
	Identity Identity
}

// Control is a per-terminal media control (reference 05 per-terminal items).
type Control struct {
	Kind  string // "mute", "silence", "volume", "camera", "video", "dual"
	Value int
	Extra map[string]int
}

// Backend is the media plane.
type Backend interface {
	// Dial places a call into a conference.
	Dial(ctx context.Context, confID string, c Callee) (Call, error)
	// Hangup ends a terminal's call.
	Hangup(ctx context.Context, confID, mtID string) error
	// Apply applies a control to a terminal in a conference.
	Apply(ctx context.Context, confID, mtID string, c Control) error
}
