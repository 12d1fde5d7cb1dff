package vc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/netip"
	"net/url"

	"github.com/confer-platform/confer/internal/lifecycle"
	"github.com/confer-platform/confer/internal/media"
)

// Real media of playbacks, monitors, live broadcasts and TV walls
// (docs/live.md). A playback is a participant inside the SFU publishing a
// program file (playback_media.go); monitors, broadcasts' viewers and TV
// wall channels are WHEP viewers that watch without being participants
// (media.Viewer), admitted by Watch (live_watch.go) and closed by their
// tag when what they watch ends.

// Media is the node's media runtime as vc drives it (rtc.LiveMedia on
// the node's SFU): vc keeps the records and decides; the media side opens
// and carries the streams.
type Media interface {
	// SendMonitor gives the live monitor with key its sender to s.Dst on
	// this node, keeping the one it has (asked for a key frame with
	// keyFrame) and replacing another monitor's to the same destination;
	// MonitorSending tells whether it has one, StopMonitor ends it.
	SendMonitor(ctx context.Context, domain, confID, key string, s media.MonitorSpec, keyFrame bool) error
	MonitorSending(domain, confID, dst string) bool
	StopMonitor(domain, confID, dst string)
	// SweepMonitors ends the senders whose tap ended and those whose key
	// live (a conference's live monitors' keys, nil: not running) lacks.
	SweepMonitors(ctx context.Context, live func(ctx context.Context, domain, confID string) (map[string]bool, error)) error
	// CheckProgram tells whether a program's file can be played
	// (media.ErrUnplayable otherwise).
	CheckProgram(path string) error
	// Play opens a playback of a program in the conference, paused; its
	// Start makes it the conference's playback on this node.
	Play(ctx context.Context, confID string, s media.PlaySpec) (media.Playback, error)
	// Playback is the conference's playback on this node (nil: none);
	// StopPlayback ends it.
	Playback(confID string) media.Playback
	StopPlayback(confID string)
	// Watched notes a tag (media.TagLive, ...) the node's viewers watch;
	// Watchers counts its viewers; SweepWatched closes the viewers (and
	// stops the push) of the tags ok (what a conference may go on being
	// watched by, nil: not running) lacks; LiveViewers counts the
	// viewers of each broadcast watched here, by conf_id and rec_id.
	Watched(domain, confID, tag string)
	Watchers(confID, tag string) int
	SweepWatched(ctx context.Context, ok func(ctx context.Context, domain, confID string) (map[string]bool, error)) error
	LiveViewers() map[[2]string]int
	// CanPush tells whether the node pushes broadcasts to RTMP (ffmpeg);
	// PushRTMP starts one (its tag then watched), StopRTMP stops it,
	// DropRTMP stops a conference's (another node took it over).
	CanPush() bool
	PushRTMP(domain, confID, recID, url string) error
	StopRTMP(confID, recID string)
	DropRTMP(confID string)
}

// LiveConfig wires vc to the node's media (server.New).
type LiveConfig struct {
	Media Media
	// Dir is the recordings folder: a program's file is Dir joined with
	// the relative path of its document's "file" (docs/recording.md).
	Dir string
	// MonitorNets are the destinations monitors' RTP may go to
	// (monitor_rtp.go); nil: DefaultMonitorNets, empty: none.
	MonitorNets []netip.Prefix
	// PassMonitor passes a monitor's sender to the conference's media
	// owner when another node owns it (rtc.Owners.PassMonitor; passed
	// false: it belongs here); nil: every sender is this node's.
	PassMonitor func(ctx context.Context, domain, confID, key string, keyFrame bool) (passed bool, err error)
	// Group is the server's goroutine group: a playback's start and the
	// store writes of its steps run in it (docs/architecture.md "One
	// lifecycle").
	Group *lifecycle.Group
}

// liveState is how the node runs live media.
type liveState struct {
	cfg LiveConfig
}

// SetLive gives vc the node's media plane; without it playbacks,
// monitors and walls keep only their records (--no-rtc).
func (m *Module) SetLive(cfg LiveConfig) {
	if cfg.MonitorNets == nil {
		cfg.MonitorNets = DefaultMonitorNets
	}
	m.live = &liveState{cfg: cfg}
}

// liveOn tells whether the node has a media plane.
func (m *Module) liveOn() bool { return m.live != nil && m.live.cfg.Media != nil }

// newKey is an unguessable key of a monitor's link.
func newKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// PathWHEP is where the node's SFU serves WHEP (sfu.PathWHEP, which
// TestWHEPPathIsTheSFUs keeps equal).
const PathWHEP = "/rtc/whep/"

// whepURL is the WHEP address of a conference with a query.
func whepURL(base, confID string, q url.Values) string {
	u := base + PathWHEP + url.PathEscape(confID)
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// LiveViewersOf counts the WHEP viewers of a conference's broadcast on
// this node (vrs's live rooms).
func (m *Module) LiveViewersOf(confID, recID string) int {
	if !m.liveOn() {
		return 0
	}
	return m.live.cfg.Media.Watchers(confID, media.TagLive(recID))
}
