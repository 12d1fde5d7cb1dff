package vc

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
)

// Watching viewers (docs/live.md): a WHEP request whose query names what
// it watches is admitted here (rtc.Authorizer asks) as a viewer that is
// no participant:
//
//	?live=<rec_id>&domain=<moid>   a live broadcast (a recorder in
//	    recorder_mode 2 or 3): without credential when it is public
//	    (publish_mode 1 or anonymous 1), else with a media token or
//	    session cookie of the conference's domain
//	?monitor=<key>&domain=<moid>   a live monitor; the key of its link is
//	    the credential, and the link's mt_id or dual must be the monitor's
//	    source
//	?wall=<hdu_id>                 a TV wall the conference runs, with a
//	    token or session cookie of the domain (the wall page)
//
// Each viewer is tagged with what it watches; RunDueLive closes the
// viewers of what ended (a monitor released, a broadcast stopped, a wall
// stopped).

// Errors of a watch request, as the SFU answers them.
var (
	errWatchGone = media.ErrWatchGone
	errWatchAuth = media.ErrWatchAuth
)

// Watch admits a watching WHEP viewer of conference confID of domain;
// authed tells whether the request carried a valid media token or
// session cookie of that domain.
func (m *Module) Watch(ctx context.Context, domain, confID string, q url.Values, authed bool) (media.Viewer, error) {
	c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return media.Viewer{}, errWatchGone
	}
	if err != nil {
		return media.Viewer{}, err
	}
	now := m.clk.Now()
	var g media.Viewer
	switch {
	case q.Has("live"):
		rc := liveRecorder(c, q.Get("live"))
		if rc == nil {
			return media.Viewer{}, errWatchGone
		}
		if !authed && !livePublic(rc) {
			return media.Viewer{}, errWatchAuth
		}
		g.Tag = media.TagLive(q.Get("live"))
	case q.Has("monitor"):
		mon, ok := monitorByKey(&c, q.Get("monitor"), now)
		if !ok {
			return media.Viewer{}, errWatchGone
		}
		if q.Get("mt_id") != mon.Src.MtID || (q.Get("dual") == "1") != (mon.Src.Type == monSrcContent) {
			return media.Viewer{}, media.ErrWatchForbidden
		}
		g.Tag = media.TagMonitor(q.Get("monitor"))
	case q.Has("wall"):
		if !authed {
			return media.Viewer{}, errWatchAuth
		}
		if hduFind(c, q.Get("wall")) < 0 && hduvmpFind(c, q.Get("wall")) < 0 {
			return media.Viewer{}, errWatchGone
		}
		g.Tag = media.TagWall(q.Get("wall"))
		g.MixedAudio = true // a wall hears the conference's mix (docs/mixing.md)
	default:
		return media.Viewer{}, media.ErrWatchForbidden
	}
	m.watched(domain, confID, g.Tag)
	return g, nil
}

// IsWatch tells whether a WHEP query asks to watch (Watch decides).
func IsWatch(q url.Values) bool { return q.Has("live") || q.Has("monitor") || q.Has("wall") }

// liveRecorder is the conference's broadcasting recorder rec_id (nil:
// none).
func liveRecorder(c engine.Conference, recID string) *engine.Recording {
	if i := recFind(c, recID); i >= 0 && recID != "" && broadcasts(c.Recorders[i]) {
		return &c.Recorders[i]
	}
	return nil
}

// broadcasts tells whether a recording broadcasts live (recorder_mode 2
// or 3).
func broadcasts(rc engine.Recording) bool { return rc.RecorderMode == 2 || rc.RecorderMode == 3 }

// livePublic tells whether a broadcast is watched without login
// (reference 05 recorders: publish_mode 1 "发布", anonymous 1 "支持免登陆
// 观看直播").
func livePublic(rc *engine.Recording) bool {
	return rc.PublishMode == 1 || rc.Anonymous == 1
}

// monitorByKey is the live monitor whose link has key.
func monitorByKey(c *engine.Conference, key string, now time.Time) (monitor, bool) {
	for _, mon := range monitorsLive(c, now) {
		if mon.Key != "" && mon.Key == key {
			return mon, true
		}
	}
	return monitor{}, false
}

// watchTags are the tags whose viewers may go on watching a conference.
func watchTags(c engine.Conference, now time.Time) map[string]bool {
	ok := map[string]bool{}
	for _, mon := range monitorsLive(&c, now) {
		ok[media.TagMonitor(mon.Key)] = true
	}
	for _, rc := range c.Recorders {
		if broadcasts(rc) {
			ok[media.TagLive(rc.RecID)] = true
		}
	}
	for _, h := range c.HDUs {
		ok[media.TagWall(h.HDUID)] = true
	}
	for _, h := range c.HDUVMPs {
		ok[media.TagWall(h.HDUID)] = true
	}
	return ok
}

// watched notes a tag whose viewers this node admitted (the media
// side's records, rtc.LiveMedia).
func (m *Module) watched(domain, confID, tag string) {
	if m.liveOn() {
		m.live.cfg.Media.Watched(domain, confID, tag)
	}
}

// RunDueLive closes the watching viewers of what ended: monitors released
// (stopped, or 30 s without heartbeat), broadcasts stopped, walls
// stopped, conferences ended; and ends the monitors' senders of monitors
// no longer live. vc decides what may go on (liveKeys, watchTags); the
// media side closes the rest. server.Tick runs it every second.
func (m *Module) RunDueLive(ctx context.Context) error {
	if !m.liveOn() {
		return nil
	}
	now := m.clk.Now()
	if err := m.live.cfg.Media.SweepMonitors(ctx, func(ctx context.Context, domain, confID string) (map[string]bool, error) {
		c, err := m.running(ctx, domain, confID)
		if c == nil {
			return nil, err
		}
		return liveKeys(*c, now), nil
	}); err != nil {
		return err
	}
	return m.live.cfg.Media.SweepWatched(ctx, func(ctx context.Context, domain, confID string) (map[string]bool, error) {
		c, err := m.running(ctx, domain, confID)
		if c == nil {
			return nil, err
		}
		return watchTags(*c, now), nil
	})
}

// running is the running conference (nil, nil: it is not running).
func (m *Module) running(ctx context.Context, domain, confID string) (*engine.Conference, error) {
	c, err := m.confs.Get(ctx, domain, confID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// liveKeys are the keys of the conference's live monitors, whose senders
// may go on.
func liveKeys(c engine.Conference, now time.Time) map[string]bool {
	live := map[string]bool{}
	for _, mon := range monitorsLive(&c, now) {
		live[mon.Key] = mon.Key != ""
	}
	return live
}

// LiveViewers returns the viewers of each live broadcast this node
// admitted viewers of, by conference and rec_id (the metrics).
func (m *Module) LiveViewers() map[[2]string]int {
	if !m.liveOn() {
		return map[[2]string]int{}
	}
	return m.live.cfg.Media.LiveViewers()
}
