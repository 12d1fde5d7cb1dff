package vc

import (
	"fmt"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Self compositions: the picture a terminal (mtvmps, mt_channel_vmps) or
// a TV wall (hduvmps) composes for itself (reference 05 items 57 to 66).
// Their stored form is {mode, layout, voice_hint, show_mt_name, members}
// with members {chn_idx, member_type, mt_id, mt_chn_idx}: member type 0 is
// an empty channel, 1 a chosen terminal; the reference's own example sends
// 2, so the types of the conference composition that follow a role (2, 3,
// 4, 5, 7) are accepted with the same meaning. In automatic mode (2) the
// panes are filled from the online terminals, as for the conference
// composition.

// selfConfig checks the parameters of a self composition in mode and
// returns its stored form and the terminals it names.
func (v *mdView) selfConfig(p map[string]any, mode int) (map[string]any, []string, error) {
	layout := record.Int(p, "layout")
	panes, err := vmpPanes(layout)
	if err != nil {
		return nil, nil, err
	}
	cfg := map[string]any{"mode": mode, "layout": layout, "voice_hint": record.Int(p, "voice_hint"),
		"show_mt_name": record.Int(p, "show_mt_name"), "members": []any{}}
	if mode != 1 {
		return cfg, nil, nil
	}
	members := mdObjs(p, "members")
	if err := mdChannels(members, panes, layout, "members"); err != nil {
		return nil, nil, err
	}
	var named []string
	chosen := map[string]bool{}
	out := make([]map[string]any, 0, len(members))
	for i, e := range members {
		path := fmt.Sprintf("members[%d]", i)
		typ, err := mdMemberType(e, path)
		if err != nil {
			return nil, nil, err
		}
		if typ < mtypeEmpty || typ > mtypeDual || typ == mtypeSingle {
			return nil, nil, wire.InvalidParam(path+".member_type", fmt.Sprintf("%d is not a member type of a self composition (0 to 5, 7)", typ))
		}
		ch := map[string]any{"chn_idx": record.Int(e, "chn_idx"), "member_type": typ, "mt_id": "", "mt_chn_idx": 0}
		if typ == mtypeChosen {
			id := record.Str(e, "mt_id")
			if id == "" {
				return nil, nil, wire.InvalidParam(path+".mt_id", "required when member_type is 1")
			}
			if err := v.member(path+".mt_id", id); err != nil {
				return nil, nil, err
			}
			if chosen[id] {
				return nil, nil, wire.Errorf(CodeVMPSameMt, "%s.mt_id: terminal %s takes two channels of the composition", path, id)
			}
			chosen[id] = true
			mtChn := record.Int(e, "mt_chn_idx")
			if err := v.channel(path+".mt_chn_idx", id, mtChn, "v_snd_chn"); err != nil {
				return nil, nil, err
			}
			ch["mt_id"], ch["mt_chn_idx"] = id, mtChn
			named = append(named, id)
		}
		out = append(out, ch)
	}
	cfg["members"] = mdAnys(out)
	return cfg, named, nil
}

// selfMembers are the reply members of a self composition as it is now:
// {chn_idx, member_type, mt_id, mt_chn_idx, account}.
func (v *mdView) selfMembers(cfg map[string]any) []any {
	auto := 0
	if record.Int(cfg, "mode") == 2 {
		auto = 2
	}
	out := []any{}
	for _, p := range v.compose(record.Int(cfg, "layout"), mdObjs(cfg, "members"), auto, nil) {
		out = append(out, v.paneReply(p))
	}
	return out
}

// dropSelfMembers removes the terminals in gone from the chosen channels
// of a self composition and reports whether it changed.
func dropSelfMembers(cfg map[string]any, gone leftSet) bool {
	members := mdObjs(cfg, "members")
	kept := make([]map[string]any, 0, len(members))
	for _, e := range members {
		if id := record.Str(e, "mt_id"); id == "" || !gone.has(id) {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(members) {
		return false
	}
	cfg["members"] = mdAnys(kept)
	return true
}

// selfDrop removes the terminals in gone from the self compositions of a
// conference document: a terminal's own compositions stop, channels it
// held become empty. It reports whether the document changed.
func selfDrop(doc map[string]any, gone leftSet, _ time.Time) bool {
	changed := false
	selfs := mdObjs(doc, docSelfVMPs)
	kept := make([]map[string]any, 0, len(selfs))
	for _, s := range selfs {
		if gone.has(record.Str(s, "mt_id")) {
			changed = true
			continue
		}
		changed = dropSelfMembers(s, gone) || changed
		kept = append(kept, s)
	}
	if changed {
		doc[docSelfVMPs] = mdAnys(kept)
	}
	for _, h := range mdObjs(doc, docHDUVMPs) {
		if dropSelfMembers(h, gone) {
			changed = true
		}
	}
	return changed
}
