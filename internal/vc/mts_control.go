package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Per-terminal controls (reference 05 items 87 to 93): call mode,
// silence, mute, volume, camera, video source. The engine applies them
// through the media backend and stores them in the terminal document
// (mts.get shows them). Media controls need an online terminal: 20401
// (A3 "指定终端不可及, 可能不在线") otherwise; 12104 for a terminal the
// conference lacks. The call mode is a property of the member, online or
// not.

// mtControl runs a per-terminal control on the terminal of the path.
func (m *Module) mtControl(ctx context.Context, r *api.Request, do func(ec engine.Conf, mtID string) (engine.Terminal, error)) error {
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return err
	}
	mtID := r.Path("mt_id")
	if _, err := do(ec, mtID); err != nil {
		return mtErr(err, ec.ConfID, mtID)
	}
	return nil
}

// mtParam reads an integer parameter that the schema requires: value
// of the silence and mute requests, which share mtFlag.
func mtParam(r *api.Request, name string) int {
	n, _ := record.IntOK(r.Args.Params[name])
	return n
}

// mtFlag serves silence and mute: value 1 on, 0 off.
func (m *Module) mtFlag(set func(*engine.Engine, context.Context, engine.Conf, string, bool) (engine.Terminal, error)) api.Handler {
	return api.Done(func(ctx context.Context, r *api.Request) error {
		on := mtParam(r, "value") == 1
		return m.mtControl(ctx, r, func(ec engine.Conf, mtID string) (engine.Terminal, error) {
			return set(m.engine, ctx, ec, mtID, on)
		})
	})
}

// setMtVolume sets the loudspeaker (vol_mode 1, rcv_volume) or the
// microphone (vol_mode 2, snd_volume) volume, 0 to 35.
func (m *Module) setMtVolume(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMtsVolumeUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mode, vol := q.VolMode, q.VolValue
	if vol < 0 || vol > 35 {
		return wire.InvalidParam("vol_value", "must be 0 to 35")
	}
	return m.mtControl(ctx, r, func(ec engine.Conf, mtID string) (engine.Terminal, error) {
		return m.engine.SetVolume(ctx, ec, mtID, mode, vol)
	})
}

// controlMtCamera starts (state 0) or stops (state 1) a camera movement.
func (m *Module) controlMtCamera(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMtsCameraControlRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	state, typ := q.State, q.Type
	return m.mtControl(ctx, r, func(ec engine.Conf, mtID string) (engine.Terminal, error) {
		return m.engine.Camera(ctx, ec, mtID, state, typ)
	})
}

// setMtCallMode changes the call mode: 0 manual, 2 automatic, 3 chase. A
// terminal switched to 2 or 3 that is not in the call is called.
func (m *Module) setMtCallMode(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMtsCallModeUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	mode := q.Value
	return m.mtControl(ctx, r, func(ec engine.Conf, mtID string) (engine.Terminal, error) {
		return m.engine.SetCallMode(ctx, ec, mtID, mode)
	})
}

// getMtVideos answers the video sources of an online terminal and the one
// it sends (cur_video_idx of v_snd_chn).
func (m *Module) getMtVideos(ctx context.Context, r *api.Request) (*model.VCConfsMtsVideosGetReply, error) {
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	mtID := r.Path("mt_id")
	t, err := m.engine.Get(ctx, ec, mtID)
	if err == nil && t.Rec.State != engine.StateOnline {
		err = engine.ErrNotOnline
	}
	if err != nil {
		return nil, mtErr(err, ec.ConfID, mtID)
	}
	return mtVideosReply(engine.VideoSources(t)), nil
}

// mtVideosReply is a terminal's video sources and the one it sends as
// the query answers them.
func mtVideosReply(srcs []engine.VideoSource, cur int) *model.VCConfsMtsVideosGetReply {
	reply := &model.VCConfsMtsVideosGetReply{CurVideoIdx: cur, MtVideos: make([]model.VCConfsMtsVideosGetReplyMtVideo, len(srcs))}
	for i, s := range srcs {
		reply.MtVideos[i] = model.VCConfsMtsVideosGetReplyMtVideo{VideoIdx: s.Idx, VideoAlise: s.Alias}
	}
	return reply
}

// setMtVideo makes an online terminal send its video source video_idx;
// 20513 when it has none of that index.
func (m *Module) setMtVideo(ctx context.Context, r *api.Request) error {
	var q model.VCConfsMtsVideosUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	idx := q.VideoIdx
	err := m.mtControl(ctx, r, func(ec engine.Conf, mtID string) (engine.Terminal, error) {
		return m.engine.SetVideoSource(ctx, ec, mtID, idx)
	})
	if errors.Is(err, engine.ErrNoVideoSource) {
		return wire.Errorf(CodeNoVideoSource, "terminal %s has no video source %d", r.Path("mt_id"), idx)
	}
	return err
}
