package vc

import (
	"context"
	"log/slog"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/wire"
)

// RTMP push of a live broadcast (docs/live.md "RTMP push"): Confer's
// extension x_confer_rtmp_url of POST .../recorders, for recorder_mode 2
// (live) or 3 (record and live), pushes the broadcast (the composed
// picture while a composition runs, and the sound) to the URL while the
// broadcast runs, from the conference's media owner.

// rtmpKey is the request's extension, the push URL, stored with the
// recording (engine.Recording.RTMPURL, never shown in the platform's
// replies).
const rtmpKey = "x_confer_rtmp_url"

// rtmpParam checks the extension (u, with the request's recorder_mode): an rtmp:// or rtmps:// URL
// of a live broadcast, on a node that can push.
func rtmpParam(u string, mode int, canPush bool) (string, error) {
	if u == "" {
		return "", nil
	}
	if mode != 2 && mode != 3 {
		return "", wire.InvalidParam(rtmpKey, "only a live broadcast (recorder_mode 2 or 3) is pushed")
	}
	if err := media.CheckRTMPURL(u); err != nil {
		return "", wire.InvalidParam(rtmpKey, err.Error())
	}
	if !canPush {
		return "", wire.InvalidParam(rtmpKey, "this node cannot push RTMP (ffmpeg is not installed)")
	}
	return u, nil
}

// canPush tells whether this node pushes broadcasts to RTMP (the media
// side's pusher, rtc.LiveMedia: ffmpeg installed).
func (m *Module) canPush() bool { return m.liveOn() && m.live.cfg.Media.CanPush() }

// rtmpStart starts the push of a stored broadcast on the conference's
// media owner (passed to it as the control hosted, kind "rtmp", when
// another node owns it); the sweep of live viewers (RunDueLive) of the
// node that pushes stops it when the broadcast or the conference ends.
func (m *Module) rtmpStart(ctx context.Context, c engine.Conference, recID, url string) {
	if m.live == nil {
		return
	}
	passed, _, err := m.pass(ctx, c.ID(), Hosted{Kind: hostRTMP, Domain: c.Rec.DomainMoid, ID: recID, Action: recActStart}, CodeRecVRSFault)
	if err != nil {
		slog.Default().Warn("RTMP push not started on the conference's media node", "conf_id", c.ID(), "rec_id", recID, "err", err)
	}
	if passed || err != nil {
		return
	}
	m.rtmpStartHere(c, recID, url)
}

// rtmpStartHere starts a broadcast's push on this node.
func (m *Module) rtmpStartHere(c engine.Conference, recID, url string) {
	if !m.canPush() {
		return
	}
	if err := m.live.cfg.Media.PushRTMP(c.Rec.DomainMoid, c.ID(), recID, url); err != nil {
		slog.Default().Warn("RTMP push not started", "conf_id", c.ID(), "rec_id", recID, "err", err)
	}
}

// rtmpStop stops a broadcast's push on the conference's media owner.
func (m *Module) rtmpStop(ctx context.Context, domain, confID, recID string) {
	if m.live == nil {
		return
	}
	passed, _, err := m.pass(ctx, confID, Hosted{Kind: hostRTMP, Domain: domain, ID: recID, Action: recActStop}, CodeRecVRSFault)
	if err != nil {
		slog.Default().Warn("RTMP push not stopped on the conference's media node", "conf_id", confID, "rec_id", recID, "err", err)
	}
	if !passed {
		m.rtmpStopHere(confID, recID)
	}
}

// rtmpStopHere stops a broadcast's push, if it has one on this node.
func (m *Module) rtmpStopHere(confID, recID string) {
	if m.canPush() {
		m.live.cfg.Media.StopRTMP(confID, recID)
	}
}

// rtmpHere starts or stops, on this node (the media owner), the push of
// a broadcast another node passed here: the URL is the stored
// recording's.
func (m *Module) rtmpHere(ctx context.Context, domain, confID, recID, action string) error {
	if !m.canPush() {
		return wire.Errorf(CodeRecVRSFault, "the conference's media node cannot push RTMP (ffmpeg is not installed)")
	}
	switch action {
	case recActStart:
		c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
		if err != nil {
			return err
		}
		i := recFind(c, recID)
		if i < 0 {
			return recUnknown(c, recID)
		}
		if u := c.Recorders[i].RTMPURL; u != "" {
			m.rtmpStartHere(c, recID, u)
		}
		return nil
	case recActStop:
		m.rtmpStopHere(confID, recID)
		return nil
	}
	return wire.InvalidParam("action", "unknown push action "+action)
}

// rtmpMoved pushes again, from this node, which just took the
// conference's media over from a node whose lease lapsed, the live
// broadcasts of the conference that push to RTMP (MediaMoved).
func (m *Module) rtmpMoved(c engine.Conference) {
	if !m.canPush() {
		return
	}
	for _, rc := range c.Recorders {
		if rc.RTMPURL != "" {
			m.rtmpStartHere(c, rc.RecID, rc.RTMPURL)
		}
	}
}

// rtmpLost stops this node's RTMP pushes of a conference another node
// took over (MediaLost).
func (m *Module) rtmpLost(confID string) {
	if m.canPush() {
		m.live.cfg.Media.DropRTMP(confID)
	}
}
