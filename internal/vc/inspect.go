package vc

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Selective viewing (reference 05 items 81 to 86; inspection_channels
// from 6.0.0.3.0): a terminal (dst) views a terminal or a composition (src)
// instead of what the conference sends it, in video (mode 1) or audio
// (mode 2). Both terminals must be terminals of the conference (12104) in
// the call (20401); a composition can be viewed by the chairman only
// (20404). A viewing channel (dst mt_id, dst mt_chn_idx, mode) views one
// source: starting another replaces it. The viewing terminal's inspection
// flag is 1 while it views anything.
//
// Stored as the conference's engine.Inspection list (vc_inspections) as the
// inspection_channels list shows them: mode, src {type, mt_id,
// mt_chn_idx}, dst {mt_id, mt_chn_idx} (channels 0 when started through
// inspections: chosen automatically). Both lists show every viewing.

const inspSrcComposition = 2

// viewing is a stored viewing (an element of engine.Conference's
// Inspections), as inspection_channels lists it.
type viewing = engine.Inspection

// viewingsOf reads a copy of the stored viewings, which setViewings
// writes back.
func viewingsOf(c *engine.Conference) []viewing { return slices.Clone(c.Inspections) }

// setViewings stores the viewings (an empty list, never null).
func setViewings(c *engine.Conference, vs []viewing) { c.Inspections = nonNil(vs) }

// viewingKey names a viewing channel.
func viewingKey(v viewing) string {
	return fmt.Sprintf("%s/%d/%d", v.Dst.MtID, v.Dst.MtChnIdx, v.Mode)
}

// inspectLeave ends the viewings of terminals that left, and returns the
// viewers that lost a viewing.
func inspectLeave(c *engine.Conference, gone leftSet) (bool, []string) {
	all := viewingsOf(c)
	var kept []viewing
	var viewers []string
	for _, v := range all {
		if gone.has(v.Dst.MtID) || (v.Src.Type != inspSrcComposition && gone.has(v.Src.MtID)) {
			viewers = append(viewers, v.Dst.MtID)
			continue
		}
		kept = append(kept, v)
	}
	if len(kept) == len(all) {
		return false, nil
	}
	setViewings(c, kept)
	return true, viewers
}

// inspectFlags sets the inspection flag of the terminals mtIDs from the
// stored viewings.
func (m *Module) inspectFlags(ctx context.Context, c engine.Conference, mtIDs []string) error {
	viewing := map[string]bool{}
	for _, v := range viewingsOf(&c) {
		viewing[v.Dst.MtID] = true
	}
	done := map[string]bool{}
	for _, id := range mtIDs {
		if done[id] {
			continue
		}
		done[id] = true
		flag := 0
		if viewing[id] {
			flag = 1
		}
		if err := m.setTermFlags(ctx, engine.ConfOf(c), id, termFlags{Inspection: model.Some(flag)}); err != nil {
			return err
		}
	}
	return nil
}

// inspectList answers every viewing, without channels (inspections).
func (m *Module) inspectList(ctx context.Context, r *api.Request) (*model.VCConfsInspectionsListReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	return inspectionsReply(c.Inspections), nil
}

// inspectChannelList answers every viewing with its channels
// (inspection_channels).
func (m *Module) inspectChannelList(ctx context.Context, r *api.Request) (*model.VCConfsInspectionChannelsListReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	return inspectionChannelsReply(c.Inspections), nil
}

// inspectionsReply lists the viewings vs without their channels.
func inspectionsReply(vs []viewing) *model.VCConfsInspectionsListReply {
	out := &model.VCConfsInspectionsListReply{Inspections: make([]model.VCConfsInspectionsListReplyInspection, len(vs))}
	for i, v := range vs {
		out.Inspections[i] = model.VCConfsInspectionsListReplyInspection{Mode: v.Mode,
			Src: &model.VCConfsInspectionsListReplyInspectionSrc{Type: v.Src.Type, MtID: v.Src.MtID},
			Dst: &model.VCConfsInspectionsListReplyInspectionDst{MtID: v.Dst.MtID}}
	}
	return out
}

// inspectionChannelsReply lists the viewings vs as stored.
func inspectionChannelsReply(vs []viewing) *model.VCConfsInspectionChannelsListReply {
	out := &model.VCConfsInspectionChannelsListReply{Inspections: make([]model.VCConfsInspectionChannelsListReplyInspection, len(vs))}
	for i := range vs {
		out.Inspections[i] = model.VCConfsInspectionChannelsListReplyInspection{Mode: vs[i].Mode, Src: &vs[i].Src, Dst: &vs[i].Dst}
	}
	return out
}

// inspectStart lets a terminal channel view a source (inspectOf).
func (m *Module) inspectStart(ctx context.Context, r *api.Request) error {
	// A viewing's request is a channel viewing's without the channels
	// (0, automatic).
	var q model.VCConfsInspectionChannelsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	v, err := inspectOf(q)
	if err != nil {
		return err
	}
	srcID, dstID := v.Src.MtID, v.Dst.MtID
	c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		ts, err := m.tlTerminals(ctx, *c)
		if err != nil {
			return false, err
		}
		if err := tlMember(*c, ts, "dst.mt_id", dstID, true); err != nil {
			return false, err
		}
		if v.Src.Type == inspSrcComposition {
			if c.Roles.Chairman != dstID {
				return false, wire.Errorf(CodeNotChairman, "only the chairman views a composition; terminal %s is not the chairman", dstID)
			}
		} else if err := tlMember(*c, ts, "src.mt_id", srcID, true); err != nil {
			return false, err
		}
		var kept []viewing
		for _, old := range viewingsOf(c) {
			if viewingKey(old) != viewingKey(v) {
				kept = append(kept, old)
			}
		}
		setViewings(c, append(kept, v))
		return true, nil
	})
	if err != nil {
		return err
	}
	return m.inspectFlags(ctx, c, []string{dstID})
}

// inspectOf is the viewing a start stores: channels 0 (automatic) or a
// channel number, a terminal viewing another (a composition's viewing has
// no source channel).
func inspectOf(q model.VCConfsInspectionChannelsCreateRequest) (viewing, error) {
	srcChn, dstChn := q.Src.MtChnIdx.Or(0), q.Dst.MtChnIdx.Or(0)
	if srcChn < 0 || dstChn < 0 {
		return viewing{}, wire.InvalidParam("mt_chn_idx", "must be 0 (automatic) or a channel number")
	}
	if q.Src.Type != inspSrcComposition && q.Src.MtID == q.Dst.MtID {
		return viewing{}, wire.InvalidParam("src.mt_id", "a terminal cannot view itself")
	}
	if q.Src.Type == inspSrcComposition {
		srcChn = 0
	}
	return viewing{Mode: q.Mode,
		Src: model.VCConfsInspectionChannelsListReplyInspectionSrc{Type: q.Src.Type, MtID: q.Src.MtID, MtChnIdx: srcChn},
		Dst: model.VCConfsInspectionChannelsListReplyInspectionDst{MtID: q.Dst.MtID, MtChnIdx: q.Dst.MtChnIdx.Or(0)}}, nil
}

// inspectCancel ends the viewings of a terminal in a mode: every channel
// (inspections) or one channel (inspection_channels, path mt_chn_idx).
// A terminal that views nothing there is left as it is.
func (m *Module) inspectCancel(ctx context.Context, r *api.Request) error {
	mtID := r.Path("mt_id")
	mode, err := strconv.Atoi(r.Path("mode"))
	if err != nil || (mode != 1 && mode != 2) {
		return wire.InvalidParam("mode", fmt.Sprintf("%q is not 1 (video) or 2 (audio)", r.Path("mode")))
	}
	chn := -1 // every channel
	if s, ok := r.PathParams["mt_chn_idx"]; ok {
		if chn, err = strconv.Atoi(s); err != nil || chn < 0 {
			return wire.InvalidParam("mt_chn_idx", fmt.Sprintf("%q is not a channel number", s))
		}
	}
	c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		ts, err := m.tlTerminals(ctx, *c)
		if err != nil {
			return false, err
		}
		if err := tlMember(*c, ts, "mt_id", mtID, false); err != nil {
			return false, err
		}
		all := viewingsOf(c)
		var kept []viewing
		for _, v := range all {
			if v.Dst.MtID == mtID && v.Mode == mode && (chn < 0 || v.Dst.MtChnIdx == chn) {
				continue
			}
			kept = append(kept, v)
		}
		if len(kept) == len(all) {
			return false, nil
		}
		setViewings(c, kept)
		return true, nil
	})
	if err != nil {
		return err
	}
	return m.inspectFlags(ctx, c, []string{mtID})
}
