package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// The terminal replies (reference 05 items 5 and 6, "获取本级会议终端列表",
// "获取与会终端信息"; vc.confs.cascades.mts.list) are the generated reply
// types, filled from the stored terminal: its strings as record.Str reads
// them and its numbers as record.Int does (an absent member is "" or 0,
// as the schema projection gave it). The compat rules take out what an
// older release lacks (account, account_type, the channels' picture).
// TestMtsRepliesKeepTheirBytes holds them to the projection's bytes.

// The terminal document's flags, as the reply schemas name them (1 yes,
// 0 no): the engine writes online, silence, mute and poll; vc the others
// (termFlags).
const (
	flagOnline     = "online"
	flagSilence    = "silence"
	flagMute       = "mute"
	flagPoll       = "poll"
	flagDual       = "dual"
	flagMix        = "mix"
	flagVMP        = "vmp"
	flagInspection = "inspection"
	flagRec        = "rec"
	flagUpload     = "upload"
)

// mtItem is a terminal as the list shows it.
func mtItem(t engine.Terminal) model.VCConfsMtsListReplyMt {
	d := t.Doc
	return model.VCConfsMtsListReplyMt{Alias: t.Alias(), MtID: record.Str(d, "mt_id"), IP: t.IP(),
		Online: record.Int(d, flagOnline), E164: t.E164(), Type: t.Type(), Bitrate: t.Bitrate(),
		Silence: record.Int(d, flagSilence), Mute: record.Int(d, flagMute), Dual: record.Int(d, flagDual),
		Mix: record.Int(d, flagMix), VMP: record.Int(d, flagVMP), Inspection: record.Int(d, flagInspection),
		Rec: record.Int(d, flagRec), Poll: record.Int(d, flagPoll), Upload: record.Int(d, flagUpload),
		Protocol: t.Protocol(), CallMode: t.CallMode(), Account: t.Account(), AccountType: record.Int(d, "account_type")}
}

// mtItems is the list reply of terminals.
func mtItems(ts []engine.Terminal) *model.VCConfsMtsListReply {
	out := &model.VCConfsMtsListReply{Mts: make([]model.VCConfsMtsListReplyMt, len(ts))}
	for i, t := range ts {
		out.Mts[i] = mtItem(t)
	}
	return out
}

// cascadeItems is the list reply of a cascade's terminals: the list's
// members but inspection, protocol and call_mode.
func cascadeItems(ts []engine.Terminal) *model.VCConfsCascadesMtsListReply {
	out := &model.VCConfsCascadesMtsListReply{Mts: make([]model.VCConfsCascadesMtsListReplyMt, len(ts))}
	for i, t := range ts {
		e := mtItem(t)
		out.Mts[i] = model.VCConfsCascadesMtsListReplyMt{Alias: e.Alias, MtID: e.MtID, IP: e.IP, Online: e.Online,
			E164: e.E164, Type: e.Type, Bitrate: e.Bitrate, Silence: e.Silence, Mute: e.Mute, Dual: e.Dual, Mix: e.Mix,
			VMP: e.VMP, Rec: e.Rec, Poll: e.Poll, Upload: e.Upload, Account: e.Account, AccountType: e.AccountType}
	}
	return out
}

// mtDetail is a terminal as its details show it: the list's members, its
// channels and volumes.
func mtDetail(t engine.Terminal) *model.VCConfsMtsGetReply {
	e, d := mtItem(t), t.Doc
	return &model.VCConfsMtsGetReply{Alias: e.Alias, MtID: e.MtID, IP: e.IP, Online: e.Online, E164: e.E164,
		Type: e.Type, Bitrate: e.Bitrate, Silence: e.Silence, Mute: e.Mute, Dual: e.Dual, Mix: e.Mix, VMP: e.VMP,
		Inspection: e.Inspection, Rec: e.Rec, Poll: e.Poll, Upload: e.Upload, Protocol: e.Protocol,
		CallMode: e.CallMode, Account: e.Account, AccountType: e.AccountType,
		VSndChn: sendChannels(d["v_snd_chn"]), VRcvChn: videoChannels(d["v_rcv_chn"]),
		DvSndChn: videoChannels(d["dv_snd_chn"]), DvRcvChn: videoChannels(d["dv_rcv_chn"]),
		ASndChn: audioChannels(d["a_snd_chn"]), ARcvChn: audioChannels(d["a_rcv_chn"]),
		RcvVolume: record.Int(d, "rcv_volume"), SndVolume: record.Int(d, "snd_volume")}
}

// storedChannel is a stored channel as the details read it (engine's
// channel; an element of another form reads as zeros).
type storedChannel struct {
	ChnID       record.Integer `json:"chn_id"`
	ChnAlias    record.Text    `json:"chn_alias"`
	ChnLabel    record.Integer `json:"chn_label"`
	Bitrate     record.Integer `json:"bitrate"`
	Resolution  record.Integer `json:"resolution"`
	Format      record.Integer `json:"format"`
	CurVideoIdx record.Integer `json:"cur_video_idx"`
}

// storedChannels reads a stored channel list (none when it is not a
// list).
func storedChannels(v any) []storedChannel {
	l, _ := v.([]any)
	out := make([]storedChannel, len(l))
	for i, e := range l {
		record.Member(e, &out[i])
	}
	return out
}

// sendChannels are the video send channels, with the source they send.
func sendChannels(v any) []model.VCConfsMtsGetReplyVSndChnItem {
	l := storedChannels(v)
	out := make([]model.VCConfsMtsGetReplyVSndChnItem, len(l))
	for i, c := range l {
		out[i] = model.VCConfsMtsGetReplyVSndChnItem{ChnID: int(c.ChnID), ChnAlias: string(c.ChnAlias),
			Bitrate: int(c.Bitrate), Resolution: int(c.Resolution), Format: int(c.Format),
			CurVideoIdx: int(c.CurVideoIdx), ChnLabel: int(c.ChnLabel)}
	}
	return out
}

// videoChannels are the other video channels.
func videoChannels(v any) []model.VCConfsMtsGetReplyVRcvChnItem {
	l := storedChannels(v)
	out := make([]model.VCConfsMtsGetReplyVRcvChnItem, len(l))
	for i, c := range l {
		out[i] = model.VCConfsMtsGetReplyVRcvChnItem{ChnID: int(c.ChnID), ChnAlias: string(c.ChnAlias),
			Bitrate: int(c.Bitrate), Resolution: int(c.Resolution), Format: int(c.Format), ChnLabel: int(c.ChnLabel)}
	}
	return out
}

// audioChannels are the audio channels.
func audioChannels(v any) []model.VCConfsMtsGetReplyASndChnItem {
	l := storedChannels(v)
	out := make([]model.VCConfsMtsGetReplyASndChnItem, len(l))
	for i, c := range l {
		out[i] = model.VCConfsMtsGetReplyASndChnItem{ChnID: int(c.ChnID), ChnAlias: string(c.ChnAlias), ChnLabel: int(c.ChnLabel)}
	}
	return out
}

// termFlags are a change of the flags vc writes in a terminal document
// (1 yes, 0 no): it sends the dual stream, is in the mix or the
// composition, views another, is recorded, uploads. A flag not set is
// left as it is.
type termFlags struct{ Dual, Mix, VMP, Inspection, Rec, Upload model.Opt[int] }

// changed tells whether the change sets a flag.
func (f termFlags) changed() bool {
	return f.Dual.Set || f.Mix.Set || f.VMP.Set || f.Inspection.Set || f.Rec.Set || f.Upload.Set
}

// apply writes the flags that are set into a terminal's document.
func (f termFlags) apply(t *engine.Terminal) {
	for _, x := range [...]struct {
		name string
		v    model.Opt[int]
	}{{flagDual, f.Dual}, {flagMix, f.Mix}, {flagVMP, f.VMP}, {flagInspection, f.Inspection}, {flagRec, f.Rec}, {flagUpload, f.Upload}} {
		if n, ok := x.v.Get(); ok {
			t.Doc[x.name] = n
		}
	}
}

// setTermFlags writes the flags f of a terminal; a terminal that is gone
// meanwhile is skipped.
func (m *Module) setTermFlags(ctx context.Context, ec engine.Conf, mtID string, f termFlags) error {
	_, err := m.engine.Update(ctx, ec, mtID, func(t *engine.Terminal) error {
		f.apply(t)
		return nil
	})
	if errors.Is(err, engine.ErrNotFound) {
		return nil
	}
	return err
}
