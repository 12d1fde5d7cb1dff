package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// Per-terminal controls (reference 05 items 87 to 93): each is applied
// to the terminal through the media backend (media.Backend.Apply), then
// stored in the terminal document, so a read after the reply sees it and
// a restart keeps it. Media controls need a terminal in the call.

// ErrNotOnline is returned for a media control of a terminal that is not
// online.
var ErrNotOnline = errors.New("engine: terminal is not online")

// ErrNoVideoSource is returned when a terminal has no video source of the
// index asked for.
var ErrNoVideoSource = errors.New("engine: the terminal has no such video source")

// Volume devices of reference 05 "修改终端音量" (vol_mode).
const (
	VolLoudspeaker = 1 // what the terminal plays: its receive volume (rcv_volume)
	VolMicrophone  = 2 // what the terminal picks up: its send volume (snd_volume)
)

// VideoSource is a video input of a terminal (reference 05 "获取终端视频源信息":
// video_idx, video_alise).
type VideoSource struct {
	Idx   int
	Alias string
}

// DefaultVideoSources are the inputs of a simulated terminal: a camera on
// channel 0 (the source an online terminal sends first, cur_video_idx 0)
// and a computer input on channel 1. A backend that learns a terminal's
// real inputs stores them in the document field "_videos".
var DefaultVideoSources = []VideoSource{{0, "camera"}, {1, "vga"}}

// control applies c to an online terminal through the media backend and
// then stores what set changes in its document.
func (e *Engine) control(ctx context.Context, cf Conf, mtID string, c media.Control, set func(t *Terminal)) (Terminal, error) {
	cf, mtID, err := e.Resolve(ctx, cf, mtID) // a cascaded terminal is controlled where it lives
	if err != nil {
		return Terminal{}, err
	}
	t, err := e.getLocal(ctx, cf, mtID)
	if err != nil {
		return t, err
	}
	if t.Rec.State != StateOnline {
		return t, ErrNotOnline
	}
	if err := e.media.Apply(ctx, cf.ConfID, mtID, c); err != nil {
		return t, err
	}
	return e.Update(ctx, cf, mtID, func(t *Terminal) error {
		if t.Rec.State != StateOnline { // it left the call meanwhile
			return ErrNotOnline
		}
		set(t)
		return nil
	})
}

// SetSilence silences (on) or unsilences a terminal: it no longer hears
// the conference (reference 05 "终端静音操作").
func (e *Engine) SetSilence(ctx context.Context, cf Conf, mtID string, on bool) (Terminal, error) {
	v := flag(on)
	return e.control(ctx, cf, mtID, media.Control{Kind: media.ControlSilence, Value: v}, func(t *Terminal) { t.Doc.Silence = model.Some(v) })
}

// SetMute mutes (on) or unmutes a terminal: the conference no longer
// hears it (reference 05 "终端哑音操作").
func (e *Engine) SetMute(ctx context.Context, cf Conf, mtID string, on bool) (Terminal, error) {
	v := flag(on)
	return e.control(ctx, cf, mtID, media.Control{Kind: media.ControlMute, Value: v}, func(t *Terminal) {
		t.Doc.Mute = model.Some(v)
		t.Own.SelfMute = model.Opt[bool]{} // the chair's mute (or unmute) holds
	})
}

// DocSelfMute marks a terminal's mute as its own (SelfMuted), which it may
// lift itself; a mute by the chair it may not.
const DocSelfMute = "_self_mute"

// SelfMuted applies a participant's own microphone button (the join
// page): muted as by the chair (the terminal's mute is 1, pushed, and the
// media plane stops forwarding its audio), but marked as its own. Lifting
// a mute the chair set is refused (media.ErrRefused).
func (e *Engine) SelfMuted(ctx context.Context, conf, mt string, on bool) error {
	c, ok, err := e.running(ctx, conf)
	if err != nil {
		return err
	}
	if !ok {
		return media.ErrEnded
	}
	t, err := e.Get(ctx, c, mt)
	if err != nil {
		return err
	}
	own := t.Own.SelfMute.Value
	if !on && t.Mute() == 1 && !own {
		return fmt.Errorf("%w: the chair muted terminal %s", media.ErrRefused, mt)
	}
	v := flag(on)
	_, err = e.control(ctx, c, mt, media.Control{Kind: media.ControlMute, Value: v}, func(t *Terminal) {
		t.Doc.Mute = model.Some(v)
		if on {
			t.Own.SelfMute = model.Some(true)
		} else {
			t.Own.SelfMute = model.Opt[bool]{}
		}
	})
	return err
}

// SetVolume sets the loudspeaker (rcv_volume) or microphone (snd_volume)
// volume of a terminal (reference 05 "修改终端音量"; value 0 to 35, checked
// by the caller).
func (e *Engine) SetVolume(ctx context.Context, cf Conf, mtID string, device, value int) (Terminal, error) {
	c := media.Control{Kind: media.ControlVolume, Value: value, Extra: map[string]int{"vol_mode": device}}
	return e.control(ctx, cf, mtID, c, func(t *Terminal) {
		if device == VolMicrophone {
			t.Doc.SndVolume = model.Some(value)
		} else {
			t.Doc.RcvVolume = model.Some(value)
		}
	})
}

// Camera starts (state 0) or stops (state 1) a camera movement of a
// terminal (reference 05 "终端摄像头控制": typ 1 to 15). The camera's
// position is the terminal's own; nothing is stored but the last command.
func (e *Engine) Camera(ctx context.Context, cf Conf, mtID string, state, typ int) (Terminal, error) {
	c := media.Control{Kind: media.ControlCamera, Value: typ, Extra: map[string]int{"state": state}}
	return e.control(ctx, cf, mtID, c, func(t *Terminal) {
		t.Doc.Camera = &cameraCommand{State: state, Type: typ}
	})
}

// cameraCommand is a terminal's last camera command, stored as _camera.
type cameraCommand struct {
	State int `json:"state"`
	Type  int `json:"type"`
}

// videoInput is a video input as a backend stores it in "_videos"
// (reference 05's names, video_alise as spelt there).
type videoInput struct {
	Idx   int    `json:"video_idx"`
	Alias string `json:"video_alise"`
}

// VideoSources returns a terminal's video inputs and the one it sends
// (cur_video_idx of its first video send channel).
func VideoSources(t Terminal) ([]VideoSource, int) {
	srcs := DefaultVideoSources
	if l, ok := t.Doc.kept("_videos").([]any); ok {
		srcs = nil
		for _, v := range l {
			var in videoInput
			if record.Member(v, &in) {
				srcs = append(srcs, VideoSource{in.Idx, in.Alias})
			}
		}
	}
	cur := 0
	if chs := t.Doc.channelsOf("v_snd_chn"); len(chs) > 0 {
		cur = chs[0].CurVideoIdx.Value
	}
	return srcs, cur
}

// SetVideoSource makes a terminal send the video input idx (reference 05
// "设置终端当前视频源"): cur_video_idx of its video send channels.
func (e *Engine) SetVideoSource(ctx context.Context, cf Conf, mtID string, idx int) (Terminal, error) {
	t, err := e.Get(ctx, cf, mtID)
	if err != nil {
		return t, err
	}
	if t.Rec.State != StateOnline {
		return t, ErrNotOnline
	}
	srcs, _ := VideoSources(t)
	found := false
	for _, s := range srcs {
		found = found || s.Idx == idx
	}
	if !found {
		return t, ErrNoVideoSource
	}
	return e.control(ctx, cf, mtID, media.Control{Kind: media.ControlVideo, Value: idx}, func(t *Terminal) {
		if chs := t.Doc.channelsOf("v_snd_chn"); chs != nil {
			for i := range chs {
				chs[i].CurVideoIdx = model.Some(idx)
			}
			t.Doc.setChannelList("v_snd_chn", chs)
		}
	})
}

// SetCallMode changes how a terminal is called (reference 05 "修改终端呼叫
// 模式": 0 manual, 2 automatic, 3 chase). It is a property of the member,
// online or not: a terminal switched to automatic or chase that is not in
// the call and not being called is called now, as it would have been had
// it been added so; switching to manual stops the retries of a failed call.
func (e *Engine) SetCallMode(ctx context.Context, cf Conf, mtID string, mode int) (Terminal, error) {
	t, err := e.Update(ctx, cf, mtID, func(t *Terminal) error {
		t.Doc.CallMode = model.Some(mode)
		if mode == CallManual {
			t.Own.Chase = model.Some(false)
			if t.Own.Redial.Value && t.Rec.State == StateCalling {
				t.Own.Redial = model.Opt[bool]{}
				t.Rec.State, t.Rec.DueAt = StateIdle, time.Time{}
			}
		}
		return nil
	})
	if err != nil || mode == CallManual || t.Rec.State != StateIdle {
		return t, err
	}
	if err := e.Call(ctx, cf, []string{mtID}); err != nil {
		return t, err
	}
	return e.Get(ctx, cf, mtID)
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// volDefault is a terminal's volume until the chair changes it (the
// rcv_volume and snd_volume a new terminal gets).
const volDefault = 15

// Reapply tells the media plane again the controls a terminal holds in
// its document (mute and silence that are on, a loudspeaker volume below
// the default): a node that took the conference's media over knows none
// of them, and a client that rejoins as the terminal there must come back
// muted as the chair left it (issue 35; docs/media-nodes.md "Failover"). The
// document is not changed.
func (e *Engine) Reapply(ctx context.Context, conf string, t Terminal) error {
	var errs []error
	for _, c := range []struct {
		on   int
		kind string
	}{{t.Mute(), media.ControlMute}, {t.Silence(), media.ControlSilence}} {
		if c.on == 1 {
			errs = append(errs, e.media.Apply(ctx, conf, t.MtID(), media.Control{Kind: c.kind, Value: 1}))
		}
	}
	if v, ok := t.Doc.intOK(t.Doc.RcvVolume, "rcv_volume"); ok && v < volDefault {
		errs = append(errs, e.media.Apply(ctx, conf, t.MtID(), media.Control{Kind: media.ControlVolume, Value: v,
			Extra: map[string]int{"vol_mode": VolLoudspeaker}}))
	}
	return errors.Join(errs...)
}
