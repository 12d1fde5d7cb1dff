package vc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/netip"
	"net/url"
	"sync"

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
	// OpenMonitor opens a monitor's sender to its destination.
	OpenMonitor(ctx context.Context, confID string, s media.MonitorSpec) (media.Tap, error)
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
	// Watchers counts the watching viewers of a tag; CloseWatchers closes them.
	Watchers(confID, tag string) int
	CloseWatchers(confID, tag string) int
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
	// Push pushes live broadcasts to RTMP URLs (live.RTMP, rec_rtmp.go);
	// nil: the node cannot (no ffmpeg).
	Push Pusher
	// Group is the server's goroutine group: a playback's start and the
	// store writes of its steps run in it (docs/architecture.md "One
	// lifecycle").
	Group *lifecycle.Group
}

// liveState is the node's monitors and watched conferences.
type liveState struct {
	cfg     LiveConfig
	mu      sync.Mutex
	watched map[string]*watchedConf   // conferences with watching viewers (live_watch.go)
	senders map[string]*monitorSender // monitors' RTP, by domain/conf_id/dst (monitor_rtp.go)
}

// SetLive gives vc the node's media plane; without it playbacks,
// monitors and walls keep only their records (--no-rtc).
func (m *Module) SetLive(cfg LiveConfig) {
	if cfg.MonitorNets == nil {
		cfg.MonitorNets = DefaultMonitorNets
	}
	m.live = &liveState{cfg: cfg, watched: map[string]*watchedConf{},
		senders: map[string]*monitorSender{}}
}

// liveOn tells whether the node has a media plane.
func (m *Module) liveOn() bool { return m.live != nil && m.live.cfg.Media != nil }

// Watch tags (media.Viewer.Tag) of what viewers watch.
func tagLive(recID string) string  { return "live:" + recID }
func tagMonitor(key string) string { return "monitor:" + key }
func tagWall(hduID string) string  { return "wall:" + hduID }

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
	return m.live.cfg.Media.Watchers(confID, tagLive(recID))
}
