package vc

import (
	"fmt"
	"regexp"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Reading the request parameters of the media features beyond what the
// catalogue's schemas check: the member type's two spellings, terminals
// of the conference, pane limits, poll settings.

// Member types of composition channels (reference 05 "开启会议画面合成"
// members[].member_type; seed 001: 6 from 5.2.0.2.0).
const (
	mtypeEmpty    = 0 // 空: an empty channel (self compositions; the conference composition before 6.0.0.3.0)
	mtypeChosen   = 1 // 会控指定
	mtypeSpeaker  = 2 // 发言人跟随
	mtypeChairman = 3 // 主席跟随
	mtypePoll     = 4 // 会议轮询跟随
	mtypeVoice    = 5 // 自动语音激励
	mtypeSingle   = 6 // 单通道轮询
	mtypeDual     = 7 // 双流跟随
)

// mdMemberTypeOf reads a member's type, sent as member_type (reference)
// or members_type (seed 001): one of them is required, and both must
// agree.
func mdMemberTypeOf(ta, tb model.Opt[int], path string) (int, error) {
	a, okA := ta.Get()
	b, okB := tb.Get()
	switch {
	case okA && okB && a != b:
		return 0, wire.InvalidParam(path+".member_type", fmt.Sprintf("%d disagrees with members_type %d", a, b))
	case okA:
		return a, nil
	case okB:
		return b, nil
	}
	return 0, wire.InvalidParam(path+".member_type", "required parameter is missing (also accepted as members_type)")
}

// mdIDList reads the terminals of a list parameter (paneState.idList).
func (v *mdView) mdIDList(ids []string, path string) ([]string, error) {
	return v.panes().idList(ids, path)
}

// mdAtLeastOf reads an integer parameter that must be at least lo; def
// when absent.
func mdAtLeastOf(o model.Opt[int], path string, lo, def int) (int, error) {
	n, ok := o.Get()
	if !ok {
		return def, nil
	}
	if n < lo {
		return 0, wire.InvalidParam(path, fmt.Sprintf("%d is below %d", n, lo))
	}
	return n, nil
}

// mdRoundsKeepOf reads num (rounds, 0 forever) and keep_time (seconds,
// at least 1) of a poll; keep_time is defKeep when absent. path prefixes
// the parameter names ("" for top-level parameters).
func mdRoundsKeepOf(optNum, optKeep model.Opt[int], path string, defKeep int) (num, keep int, err error) {
	if path != "" {
		path += "."
	}
	if num, err = mdAtLeastOf(optNum, path+"num", 0, 0); err != nil {
		return
	}
	keep, err = mdAtLeastOf(optKeep, path+"keep_time", 1, defKeep)
	if err == nil && keep < 1 {
		err = wire.InvalidParam(path+"keep_time", "required: the poll interval in seconds, at least 1")
	}
	return
}

// vmpFontColor is the #RGB colour of a station logo, in hexadecimal.
var vmpFontColor = regexp.MustCompile(`^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$`)

// vmpNameStyleOf reads mt_name_style with the reference's defaults: font
// size 0, colour #FFFFFF, position 1 (bottom left).
func vmpNameStyleOf(s model.VCConfsVMPsCreateRequestMtNameStyle) (engine.VMPNameStyle, error) {
	out := engine.VMPNameStyle{FontColor: "#FFFFFF", Position: 1, FontSize: s.FontSize.Or(0)}
	out.Position = s.Position.Or(out.Position)
	if c := s.FontColor.Or(""); c != "" {
		if !vmpFontColor.MatchString(c) {
			return out, wire.InvalidParam("mt_name_style.font_color", fmt.Sprintf("%q is not a #RGB hexadecimal colour", c))
		}
		out.FontColor = c
	}
	return out, nil
}

// mdChannelList checks the channels chns of a composition's members
// against its panes: at most panes members (20546), each chn_idx inside
// the layout (20546) and given once (90400).
func mdChannelList(chns []int, panes, layout int, path string) error {
	if len(chns) > panes {
		return wire.Errorf(CodeVMPMembersRefused, "%s: layout %d has %d panes; %d members do not fit", path, layout, panes, len(chns))
	}
	seen := map[int]bool{}
	for i, chn := range chns {
		p := fmt.Sprintf("%s[%d].chn_idx", path, i)
		if chn < 0 || chn >= panes {
			return wire.Errorf(CodeVMPMembersRefused, "%s: channel %d is outside layout %d (channels 0 to %d)", p, chn, layout, panes-1)
		}
		if seen[chn] {
			return wire.InvalidParam(p, fmt.Sprintf("channel %d is given twice", chn))
		}
		seen[chn] = true
	}
	return nil
}
