package vc

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
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
	return model.VCConfsMtsListReplyMt{Alias: t.Alias(), MtID: t.MtIDText(), IP: t.IP(),
		Online: t.Online(), E164: t.E164(), Type: t.Type(), Bitrate: t.Bitrate(),
		Silence: t.Silence(), Mute: t.Mute(), Dual: t.Dual(),
		Mix: t.Mix(), VMP: t.VMP(), Inspection: t.Inspection(),
		Rec: t.Recorded(), Poll: t.Poll(), Upload: t.Upload(),
		Protocol: t.Protocol(), CallMode: t.CallMode(), Account: t.Account(), AccountType: t.AccountType()}
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
	e := mtItem(t)
	return &model.VCConfsMtsGetReply{Alias: e.Alias, MtID: e.MtID, IP: e.IP, Online: e.Online, E164: e.E164,
		Type: e.Type, Bitrate: e.Bitrate, Silence: e.Silence, Mute: e.Mute, Dual: e.Dual, Mix: e.Mix, VMP: e.VMP,
		Inspection: e.Inspection, Rec: e.Rec, Poll: e.Poll, Upload: e.Upload, Protocol: e.Protocol,
		CallMode: e.CallMode, Account: e.Account, AccountType: e.AccountType,
		VSndChn: sendChannels(t.Channels("v_snd_chn")), VRcvChn: videoChannels(t.Channels("v_rcv_chn")),
		DvSndChn: videoChannels(t.Channels("dv_snd_chn")), DvRcvChn: videoChannels(t.Channels("dv_rcv_chn")),
		ASndChn: audioChannels(t.Channels("a_snd_chn")), ARcvChn: audioChannels(t.Channels("a_rcv_chn")),
		RcvVolume: t.RcvVolume(), SndVolume: t.SndVolume()}
}

// sendChannels are the video send channels, with the source they send.
func sendChannels(l []engine.StoredChannel) []model.VCConfsMtsGetReplyVSndChnItem {
	out := make([]model.VCConfsMtsGetReplyVSndChnItem, len(l))
	for i, c := range l {
		out[i] = model.VCConfsMtsGetReplyVSndChnItem{ChnID: int(c.ChnID), ChnAlias: string(c.ChnAlias),
			Bitrate: int(c.Bitrate), Resolution: int(c.Resolution), Format: int(c.Format),
			CurVideoIdx: int(c.CurVideoIdx), ChnLabel: int(c.ChnLabel)}
	}
	return out
}

// videoChannels are the other video channels.
func videoChannels(l []engine.StoredChannel) []model.VCConfsMtsGetReplyVRcvChnItem {
	out := make([]model.VCConfsMtsGetReplyVRcvChnItem, len(l))
	for i, c := range l {
		out[i] = model.VCConfsMtsGetReplyVRcvChnItem{ChnID: int(c.ChnID), ChnAlias: string(c.ChnAlias),
			Bitrate: int(c.Bitrate), Resolution: int(c.Resolution), Format: int(c.Format), ChnLabel: int(c.ChnLabel)}
	}
	return out
}

// audioChannels are the audio channels.
func audioChannels(l []engine.StoredChannel) []model.VCConfsMtsGetReplyASndChnItem {
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
	d := &t.Doc
	for _, x := range [...]struct {
		field *model.Opt[int]
		v     model.Opt[int]
	}{{&d.Dual, f.Dual}, {&d.Mix, f.Mix}, {&d.VMP, f.VMP}, {&d.Inspection, f.Inspection}, {&d.Rec, f.Rec}, {&d.Upload, f.Upload}} {
		if x.v.Set {
			*x.field = x.v
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
