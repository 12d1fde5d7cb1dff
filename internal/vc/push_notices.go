package vc

import (
	"context"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/store"
)

// What the push service needs from the timeline features besides their
// stored state (docs/push.md): the notifications of reference 07
// "推送通知信息" for failures that happen without a request, written in
// the transaction of the change they report (store.WithNotices), and the
// poll position that the clock moves, written when it moves so that
// /confs/{conf_id}/poll is published.

// inspectFailures are the notifications of viewings that end because
// their source left the call while the viewer stays (reference 07 "终端
// 选看失败通知" on /inspections/{mt_id}/{mode}: error_code 20401, the
// source). Call it before inspectLeave removes them.
func inspectFailures(c engine.Conference, left func(string) bool, now time.Time) []store.Notice {
	var out []store.Notice
	for _, v := range viewingsOf(&c) {
		if v.Src.Type == inspSrcComposition || !left(v.Src.MtID) || left(v.Dst.MtID) {
			continue
		}
		ch := "/inspections/" + v.Dst.MtID + "/" + strconv.Itoa(v.Mode)
		n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), ch, push.SourceFailure{ErrorCode: CodeMtUnreachable,
			Src: push.NoticeSource{Type: v.Src.Type, MtID: v.Src.MtID}}, now)
		if err == nil {
			out = append(out, n)
		}
	}
	return out
}

// monitorFailures are the notifications of monitors released because
// their source terminal left the call (reference 07 "开启监控失败通知" on
// /monitor/{dst_ip}/{dst_port}: error_code 20401, the source). Call it
// before monitorLeave releases them.
func monitorFailures(c engine.Conference, left func(string) bool, now time.Time) []store.Notice {
	var out []store.Notice
	for _, mon := range monitorsOf(&c) {
		if mon.Src.Type != monSrcTerminal || !left(mon.Src.MtID) {
			continue
		}
		ch := "/monitor/" + mon.Dst.IP + "/" + strconv.Itoa(mon.Dst.Port)
		n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), ch, push.SourceFailure{ErrorCode: CodeMtUnreachable,
			Src: push.NoticeSource{Type: monSrcTerminal, MtID: mon.Src.MtID}}, now)
		if err == nil {
			out = append(out, n)
		}
	}
	return out
}

// hduModeView is the TV-wall mode that views one source (hdu_config.go).
const hduModeView = 1

// hduFailures are the notifications of TV walls in viewing mode whose
// terminal left the call: the wall stays and shows nothing (reference 07
// "HDU选看失败通知" on /hdus/{hdu_id}: error_code 20401, mode 1). Call it
// before hduDrop empties them.
func hduFailures(c engine.Conference, left func(string) bool, now time.Time) []store.Notice {
	var out []store.Notice
	for _, h := range c.HDUs {
		sp := h.Specific
		if sp == nil || h.Mode != hduModeView || !left(sp.MtID) {
			continue
		}
		n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), "/hdus/"+h.HDUID,
			push.HDUFailure{ErrorCode: CodeMtUnreachable, Mode: hduModeView}, now)
		if err == nil {
			out = append(out, n)
		}
	}
	return out
}

// playCodeLost is the error_code of a playback whose program went away
// while it played (reference A3 24106 "您点播的文件不存在").
const playCodeLost = CodePlaybackNoFile

// playbackLost stops a playback (playing or paused) whose program has
// been deleted from the recording system meanwhile, and returns its
// notification (reference 07 "放像异常通知" on /playback). The due sweep
// runs it.
func (m *Module) playbackLost(ctx context.Context, c *engine.Conference, now time.Time) (bool, []store.Notice, error) {
	p := playbackOf(c)
	if playbackStateAt(p, now) == playStopped {
		return false, nil, nil
	}
	_, ok, err := m.programGet(ctx, c.Rec.DomainMoid, strconv.Itoa(p.FileID))
	if err != nil || ok {
		return false, nil, err
	}
	pos, _ := playbackPos(p, now)
	playbackStop(p, pos)
	playbackStore(c, p)
	n, err := store.NewNotice(c.Rec.DomainMoid, c.ID(), "/playback", push.Failure{ErrorCode: playCodeLost}, now)
	return true, []store.Notice{n}, err
}

// pollMark stores where the conference poll stands (shown_index: the
// polled member's index, -1 when none) when the clock has moved it, so
// that the change is a stored one and /confs/{conf_id}/poll is published
// when the next member's turn begins. The due sweep runs it; upload and
// chairman polls have no channel and are left alone.
func pollMark(c *engine.Conference, ts map[string]engine.Terminal, now time.Time) bool {
	p := c.Poll
	if p == nil || p.State == pollStateStopped {
		return false
	}
	pos, _ := pollPos(p, ts, now, nil)
	shown := pos.Index
	if pos.None || pos.Done {
		shown = -1
	}
	if v, ok := p.Shown.Get(); ok && v == shown {
		return false
	}
	p.Shown = model.Some(shown)
	return true
}
