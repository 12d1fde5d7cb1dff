package vc

import (
	"log/slog"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/wire"
)

// RTMP push of a live broadcast (docs/live.md "RTMP push"): Confer's
// extension x_confer_rtmp_url of POST .../recorders, for recorder_mode 2
// (live) or 3 (record and live), pushes the broadcast (the composed
// picture while a composition runs, and the sound) to the URL while the
// broadcast runs, from the node that started it.

// rtmpKey is where a recording's push URL is stored (never shown in the
// platform's replies).
const rtmpKey = "x_confer_rtmp_url"

// Pusher pushes broadcasts (*live.RTMP).
type Pusher interface {
	Start(confID, recID, url string) error
	Stop(confID, recID string)
}

// rtmpParam reads and checks the extension: an rtmp:// or rtmps:// URL
// of a live broadcast, on a node that can push.
func (m *Module) rtmpParam(ps map[string]any) (string, error) {
	u := tlStr(ps[rtmpKey])
	if u == "" {
		return "", nil
	}
	if mode, _ := tlParam(ps, "recorder_mode"); mode != 2 && mode != 3 {
		return "", wire.InvalidParam(rtmpKey, "only a live broadcast (recorder_mode 2 or 3) is pushed")
	}
	if err := live.CheckRTMPURL(u); err != nil {
		return "", wire.InvalidParam(rtmpKey, err.Error())
	}
	if m.live == nil || m.live.cfg.Push == nil {
		return "", wire.InvalidParam(rtmpKey, "this node cannot push RTMP (ffmpeg is not installed)")
	}
	return u, nil
}

// rtmpStart starts the push of a stored broadcast; the sweep of live
// viewers (RunDueLive) stops it when the broadcast or the conference
// ends.
func (m *Module) rtmpStart(c engine.Conference, recID, url string) {
	if m.live == nil || m.live.cfg.Push == nil {
		return
	}
	if err := m.live.cfg.Push.Start(c.ID(), recID, url); err != nil {
		slog.Default().Warn("RTMP push not started", "conf_id", c.ID(), "rec_id", recID, "err", err)
		return
	}
	m.watched(c.Rec.DomainMoid, c.ID(), tagLive(recID))
}

// rtmpStop stops a broadcast's push, if it has one on this node.
func (m *Module) rtmpStop(confID, recID string) {
	if m.live != nil && m.live.cfg.Push != nil {
		m.live.cfg.Push.Stop(confID, recID)
	}
}
