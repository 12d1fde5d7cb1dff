package media

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/pion/rtp"
)

// Live media: what conference control (vc) asks of the node's media
// runtime for playbacks, monitors and watching viewers (docs/live.md).
// vc declares what it needs (vc.Media) in these terms and never names the
// SFU; rtc.LiveMedia carries it out with the node's SFU.

// Viewer is a watching viewer conference control admitted (a live
// broadcast's, a monitor's, a TV wall's): a WHEP viewer that is no
// participant. rtc.Authorizer makes it the SFU's grant.
type Viewer struct {
	// Tag is what it watches: the viewers of a tag are closed when that
	// ends (a monitor released, a broadcast stopped, a wall stopped).
	Tag string
	// MixedAudio: it hears the conference's mix (a TV wall).
	MixedAudio bool
}

// Watch tags (Viewer.Tag) of what viewers watch: a live broadcast by its
// rec_id, a monitor by the key of its link, a TV wall by its hdu_id.
func TagLive(recID string) string  { return "live:" + recID }
func TagMonitor(key string) string { return "monitor:" + key }
func TagWall(hduID string) string  { return "wall:" + hduID }

// LiveOf is the rec_id of a live broadcast's tag (ok false: another tag).
func LiveOf(tag string) (recID string, ok bool) { return strings.CutPrefix(tag, "live:") }

// CheckRTMPURL tells whether u is a URL a broadcast can be pushed to:
// rtmp:// or rtmps:// with a host, at most 1024 bytes (docs/live.md
// "RTMP push").
func CheckRTMPURL(u string) error {
	p, err := url.Parse(u)
	switch {
	case len(u) > 1024:
		return errors.New("longer than 1024 bytes")
	case err != nil:
		return err
	case p.Scheme != "rtmp" && p.Scheme != "rtmps":
		return errors.New("the scheme must be rtmp or rtmps")
	case p.Host == "":
		return errors.New("no host")
	case strings.ContainsAny(u, " \r\n\t"):
		return errors.New("white space in the URL")
	}
	return nil
}

// Why a viewer is not admitted (the SFU's 404, 401 and 403).
var (
	ErrWatchGone      = errors.New("media: nothing to watch there")
	ErrWatchAuth      = errors.New("media: watching it needs a credential")
	ErrWatchForbidden = errors.New("media: not allowed to watch that")
)

// MonitorSource is what a monitor's sender receives.
type MonitorSource int

const (
	MonitorBroadcast MonitorSource = iota // what everyone sees (the composed picture) or hears (the mix)
	MonitorTerminal                       // one terminal's camera or voice
	MonitorDual                           // the dual stream
)

// MonitorSpec is a monitor's sender: an invisible receiver of Source
// whose packets go to Dst as plain RTP (docs/live.md "Monitors").
type MonitorSpec struct {
	Name   string // for the node's logs
	Dst    string // host:port
	Source MonitorSource
	MtID   string // the terminal, for MonitorTerminal
	Audio  bool   // its audio (monitor mode 1), else its video
}

// The payload types of a monitor's packets, which its reply's
// payload_formats show: H.264 106 (the active one) and VP8 96 (the real
// one) for video, Opus 111 for audio (G.711 its static types).
const (
	MonitorH264PT = 106
	MonitorVP8PT  = 96
	MonitorOpusPT = 111
)

// Tap is a monitor's sender on its way.
type Tap interface {
	RequestKeyFrame()
	// Done is closed when the sender ends on its own (its conference's
	// media ended).
	Done() <-chan struct{}
	Close()
}

// PlaybackSpec is a playback's participant: it publishes a program's
// video and audio (mime types, "" none) with these payload types.
type PlaybackSpec struct {
	Name             string
	VideoMime        string
	AudioMime        string
	VideoPT, AudioPT uint8
}

// Peer is a playback's participant: it publishes the packets written to it.
type Peer interface {
	WriteAudio(p *rtp.Packet)
	WriteVideo(p *rtp.Packet)
	// Done is closed when the participant is gone (hung up, the
	// conference ended).
	Done() <-chan struct{}
	// Leave makes the participant leave (lost: as if its connection was lost).
	Leave(lost bool)
}

// PlaySpec is a program to play into a conference: the media side opens
// the file at Path and publishes it through a participant named Name.
type PlaySpec struct {
	Name string
	Path string
	// Flowing is called once, when the first packet goes out (the stream
	// flows), in the player's goroutine: it must not block.
	Flowing func()
}

// ErrUnplayable wraps why a program's file cannot be played (with
// os.ErrNotExist when it is missing).
var ErrUnplayable = errors.New("media: the file cannot be played")

// Playback is a program playing into a conference on the conference's
// media owner. It is opened paused and is nobody's until Start; it ends
// by itself at the end of the file or when its participant is hung up.
type Playback interface {
	// Start makes it the conference's playback (stopping the one it
	// replaces) and plays it from pos, or holds it there when paused.
	Start(pos time.Duration, paused bool)
	Seek(pos time.Duration)
	Pause()
	Resume()
	// Stop ends the stream and makes its participant leave.
	Stop()
}
