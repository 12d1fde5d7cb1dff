// Package media is the contract between the conference engine and the
// media plane (DESIGN principle 5), both ways. The engine drives the
// media plane through Backend: it dials terminals, hangs them up,
// applies per-terminal controls and tells what every participant should
// receive (the broadcast, the mix, the dual stream). The media plane
// reports to the engine through Events: the outcome of a call, some time
// after the dial, participants that arrive on their own (a browser, a
// WHIP publisher) and leave, audio levels and requests for key frames.
// The simulated backend (Simulated) plays terminals from the directory;
// a real backend (the WebRTC SFU, SIP signalling) implements the same
// interfaces.
package media

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/store"
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
	// NoRoute: no real endpoint takes the number (no SIP route, H.323)
	// and the simulated terminals are off (Unrouted): the call was never
	// placed.
	NoRoute
)

func (o Outcome) String() string {
	if o < 0 || o > NoRoute {
		return "offline"
	}
	return [...]string{"answered", "offline", "busy", "no answer", "no route"}[o]
}

// Identity is what the platform learns of a terminal that it calls.
type Identity struct {
	Alias  string
	E164   string
	IP     string
	MtType int // 1 ordinary, 3 telephone, 5 satellite, 7 subordinate conference, 8 superior
}

// Control kinds of Apply (reference 05 per-terminal items 87 to 93).
const (
	ControlMute     = "mute"      // Value 1: the conference no longer hears the terminal
	ControlSilence  = "silence"   // Value 1: the terminal no longer hears the conference
	ControlVolume   = "volume"    // Value 0..35; Extra["vol_mode"] 1 loudspeaker, 2 microphone
	ControlCamera   = "camera"    // Value the movement (1..15); Extra["state"] 0 start, 1 stop
	ControlVideo    = "video"     // Value the video source the terminal sends
	ControlVideoOff = "video_off" // Value 1: the terminal's video is no longer forwarded
	ControlKeyFrame = "keyframe"  // ask the terminal for a key frame (Events.KeyFrameRequest)
)

// Control is a per-terminal media control.
type Control struct {
	Kind  string // one of the Control* kinds
	Value int
	Extra map[string]int
}

// Pane is one pane of a picture composition: the terminal it shows (""
// empty) by channel index (reference A2 layouts).
type Pane struct {
	Index int
	MtID  string
}

// Broadcast is what every participant of a conference sees: the
// speaker, the composition's panes (when a composition runs, it is the
// picture), the member the conference poll shows now, and whether the
// speaker's picture is forced on everyone (forced broadcast).
type Broadcast struct {
	Speaker string // mt_id, "" none
	Layout  int    // the composition's layout (reference A2), 0 when none runs
	Panes   []Pane // the composition's panes, nil when none runs
	Poll    string // mt_id the conference poll shows now, "" none
	Forced  bool
	// Chairman is the chairman's mt_id ("" none): the join page offers
	// the conference's controls on the chairman's page.
	Chairman string
	// ShowNames draws the terminals' names on the composed picture (the
	// composition's show_mt_name).
	ShowNames bool
	// Selves are the self compositions running (mtvmps, hduvmps): each
	// a picture of its own composed for one terminal or one TV wall.
	Selves []SelfComposition
}

// SelfComposition is a picture composed for one receiver only (reference
// 05 items 57 to 66): a terminal's own composition (mtvmps: MtID, the
// terminal that receives it) or a TV wall's (hduvmps: Wall, its hdu_id).
type SelfComposition struct {
	MtID      string
	Wall      string
	Layout    int
	Panes     []Pane
	ShowNames bool
}

// Mix is what a conference hears: everyone (All), or only Members while a
// mix with chosen members runs.
type Mix struct {
	All     bool
	Members []string // mt_ids when not All
	// Smart: a smart mix (mode 1), the loudest of the members at a time
	// rather than all of them (a custom mix, mode 2).
	Smart bool
}

// Backend is the media plane as the engine drives it. Every method names
// the conference by its conf_id and a terminal by its mt_id there.
type Backend interface {
	// Dial calls callee as terminal mt of conference conf and returns
	// what placing the call taught of the callee (its alias, number,
	// address and type; the outcome may correct it). The outcome is
	// reported later through Events.CallOutcome; a backend that knows it
	// at once may report it before Dial returns.
	Dial(ctx context.Context, conf, mt string, callee Callee) (Identity, error)
	// Hangup ends a terminal's call or session.
	Hangup(ctx context.Context, conf, mt string) error
	// Apply applies a per-terminal control.
	Apply(ctx context.Context, conf, mt string, c Control) error
	// SetBroadcast sets what the conference's participants see.
	SetBroadcast(ctx context.Context, conf string, b Broadcast) error
	// SetMix sets what the conference's participants hear.
	SetMix(ctx context.Context, conf string, m Mix) error
	// SetDual names the terminal whose dual stream (content, a screen
	// share) the conference receives; "" stops it.
	SetDual(ctx context.Context, conf, mt string) error
	// EndConference releases everything of an ended conference.
	EndConference(ctx context.Context, conf string) error
}

// BatchDialer is a Backend that places the calls of a batch of terminals
// added together (POST /api/v1/vc/confs/{id}/mts) at once
// (docs/benchmarks.md "Login and batches"). DialBatch is Dial for each
// call, in order, and returns their identities in that order, and the
// writes that store the calls (nil when there are none): the caller runs
// them in the transaction that stores the terminals as being called (the
// simulation's ringing calls and the terminals commit together, one write
// for the batch). On an error no call of the batch is placed (an outcome
// already reported for one is then ignored by the engine, which is not
// calling it).
type BatchDialer interface {
	DialBatch(ctx context.Context, conf string, calls []Call) ([]Identity, func(store.Tx) error, error)
}

// Call is one call of a batch: terminal MtID of the conference calls
// Callee.
type Call struct {
	MtID   string
	Callee Callee
}

// Participant is someone who arrives on their own (a browser on the join
// page, a WHIP publisher) rather than by being dialled.
type Participant struct {
	Name string // shown as the terminal's alias
	Kind string // "browser", "whip", ...
	// A caller's identity (a SIP caller): its account (Name when ""),
	// account_type, protocol (0 H.323, 1 SIP), address and E.164 number;
	// zero for a browser.
	Account     string
	AccountType int
	Protocol    int
	IP, E164    string
	// Rejoin identifies the client that joins (a join page, a WHIP
	// client naming itself): a participant that joins again with the
	// same key is the terminal it was, online again with its mt_id.
	// "" for none.
	Rejoin string
	// Caller identifies a caller that calls in again (a SIP caller's
	// From URI or registered number): a participant that joins with the
	// key of an offline terminal of the conference is that terminal,
	// online again with its mt_id; an online one is never taken (two
	// calls at once are two terminals). "" for none.
	Caller string
}

// AudioLevel is a participant's audio level (RFC 6464: 0 loudest, 127
// silence), as last measured.
type AudioLevel struct {
	MtID  string
	Level int
}

// Errors of Events.Joined.
var (
	ErrFull    = errors.New("media: the conference has max_join_mt terminals")
	ErrEnded   = errors.New("media: the conference is not running")
	ErrRefused = errors.New("media: the participant is refused")
)

// ErrUnsupported is returned by Backend.Apply for a control the
// terminal's media cannot carry (camera control of a SIP terminal: FECC
// is out of scope, docs/sip.md).
var ErrUnsupported = errors.New("media: the terminal's media does not support the control")

// ErrMoving is returned by a control while the node that owns the
// conference's media is out of reach and its lease has not lapsed yet
// (a failover under way, docs/media-nodes.md): the control may
// be retried as it is; the API answers it 90503 (docs/errors.md).
var ErrMoving = errors.New("media: the conference's media node is out of reach for now; retry")

// Events is the engine as the media plane reports to it.
type Events interface {
	// CallOutcome reports how the call of terminal mt ended up, with
	// what was learned of the terminal. A report for a terminal that is
	// no longer being called (hung up meanwhile) is ignored.
	CallOutcome(ctx context.Context, conf, mt string, o Outcome, id Identity) error
	// Joined makes a participant that arrived on its own a terminal of
	// the conference, online, and returns its mt_id: ErrFull,
	// ErrEnded or ErrRefused when it may not join.
	Joined(ctx context.Context, conf string, p Participant) (string, error)
	// Left reports that terminal mt left the conference: it hung up
	// (lost false) or its connection was lost.
	Left(ctx context.Context, conf, mt string, lost bool) error
	// AudioLevels reports the participants' audio levels.
	AudioLevels(ctx context.Context, conf string, levels []AudioLevel) error
	// KeyFrameRequest asks terminal mt for a key frame (a subscriber
	// needs one): the engine asks the backend that carries its call.
	KeyFrameRequest(ctx context.Context, conf, mt string) error
	// DualStarted asks whether terminal mt may send the dual stream (a
	// screen share it started): accepted, mt is the conference's dual
	// stream source; ErrRefused when the conference's rules forbid it.
	DualStarted(ctx context.Context, conf, mt string) error
	// DualStopped reports that mt's dual stream ended on its own: the
	// conference has no dual stream source any more if mt was it.
	DualStopped(ctx context.Context, conf, mt string) error
	// SelfMuted reports that terminal mt muted or unmuted its own
	// microphone: stored and applied as a mute; lifting the chair's mute
	// is ErrRefused.
	SelfMuted(ctx context.Context, conf, mt string, on bool) error
}

// ChannelKind is what a terminal's media channel carries.
type ChannelKind int

const (
	ChannelAudio   ChannelKind = iota
	ChannelVideo               // the main video
	ChannelContent             // the dual stream (content sharing)
)

// Channel is one media channel of a terminal as the media plane carries
// it: one the terminal sends (Send) or one it receives.
type Channel struct {
	Kind     ChannelKind
	Send     bool
	MimeType string // codec, e.g. "video/H264"; "" while nothing flows on a receiving channel
	Fmtp     string // the codec's SDP fmtp parameters (H.264 profile-level-id), when known
	Width    int    // picture size of the last key frame; 0 unknown
	Height   int
	Bitrate  int // kbit/s as measured
	// Call quality: packet loss (percent, the last second) and
	// interarrival jitter (ms); of a received channel as the terminal's
	// receiver reports say, Reported false before its first report.
	LossPct  float64
	JitterMs float64
	Reported bool
}

// ChannelReader is a Backend that knows the channels of the terminals
// whose media it carries (the SFU's participants and SIP calls). The
// engine reports them in a terminal's details.
type ChannelReader interface {
	// Channels returns terminal mt's channels; ok is false when the
	// backend carries no media of it here (a simulated call, a
	// conference whose media another node carries).
	Channels(ctx context.Context, conf, mt string) (chs []Channel, ok bool)
}

// DueRunner is a backend with time-driven work of its own (the
// simulation's scripted answers): the engine runs it at every tick.
type DueRunner interface {
	RunDue(ctx context.Context) error
}

// A ParticipantHost is a backend that holds participants who joined on
// their own (the SFU: the join page, WHIP, WHEP, playbacks). The engine
// asks it which of a conference's participants it holds, and takes the
// others offline: after a restart (kill -9 or SIGTERM) their terminals
// would otherwise stay online with nothing behind them (issue 35 item 4).
type ParticipantHost interface {
	// Hosts returns the mt_ids of the participants of conference conf the
	// backend holds now; ok is false when another node carries the
	// conference's media (that node answers for it).
	Hosts(ctx context.Context, conf string) (mts map[string]bool, ok bool, err error)
}
