package engine

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

// TermDoc is a terminal's document as a type that keeps presence and
// bytes, beside the engine's own bookkeeping (TerminalOwn): the members
// the terminal replies show (model.VCConfsMtsGetReply, reference 05
// "获取与会终端信息"; TestTermDocDeclaresTheReplyMembers), each a
// model.Opt or a list nil when absent, since the reply types declare
// every member as always there and a stored document may lack one; the
// server's members no reply shows (the rejoin key, the caller, the last
// camera command); and in Extra every stored member no field holds
// exactly, as its JSON: one no field declares (the video inputs a
// backend stores, a vendor's member), or one of a form its field does
// not hold (a flag stored as "1", a float bitrate, a channel with a
// member the type lacks, a null).
//
// A document read and written back unchanged keeps its bytes
// (TestTermDocKeepsStoredBytes, over golden creations and joins and
// hand-edited documents). A field set wins over a kept member of its
// name. The readers (Terminal.Mute, ...) read a kept member of another
// form leniently, as record.Int and record.Str read the map document.
type TermDoc struct {
	Caller  model.Opt[string] `json:"_caller,omitzero"` // DocCaller
	Camera  *cameraCommand    `json:"_camera,omitempty"`
	Rejoin  model.Opt[string] `json:"_rejoin,omitzero"` // DocRejoin
	ARcvChn []channel         `json:"a_rcv_chn,omitempty"`
	ASndChn []channel         `json:"a_snd_chn,omitempty"`

	Account     model.Opt[string] `json:"account,omitzero"`
	AccountType model.Opt[int]    `json:"account_type,omitzero"`
	Alias       model.Opt[string] `json:"alias,omitzero"`
	Bitrate     model.Opt[int]    `json:"bitrate,omitzero"`
	CallMode    model.Opt[int]    `json:"call_mode,omitzero"`
	Dual        model.Opt[int]    `json:"dual,omitzero"`
	DvRcvChn    []channel         `json:"dv_rcv_chn,omitempty"`
	DvSndChn    []channel         `json:"dv_snd_chn,omitempty"`
	E164        model.Opt[string] `json:"e164,omitzero"`
	Inspection  model.Opt[int]    `json:"inspection,omitzero"`
	IP          model.Opt[string] `json:"ip,omitzero"`
	Mix         model.Opt[int]    `json:"mix,omitzero"`
	MtID        model.Opt[string] `json:"mt_id,omitzero"`
	Mute        model.Opt[int]    `json:"mute,omitzero"`
	Online      model.Opt[int]    `json:"online,omitzero"`
	Poll        model.Opt[int]    `json:"poll,omitzero"`
	Protocol    model.Opt[int]    `json:"protocol,omitzero"`
	RcvVolume   model.Opt[int]    `json:"rcv_volume,omitzero"`
	Rec         model.Opt[int]    `json:"rec,omitzero"`
	Silence     model.Opt[int]    `json:"silence,omitzero"`
	SndVolume   model.Opt[int]    `json:"snd_volume,omitzero"`
	Type        model.Opt[int]    `json:"type,omitzero"`
	Upload      model.Opt[int]    `json:"upload,omitzero"`
	VRcvChn     []channel         `json:"v_rcv_chn,omitempty"`
	VSndChn     []channel         `json:"v_snd_chn,omitempty"`
	VMP         model.Opt[int]    `json:"vmp,omitzero"`

	// Extra holds the stored members no field holds exactly, by name, in
	// the bytes the map document wrote for them.
	Extra map[string]json.RawMessage `json:"-"`
}

// storedTerminal is a terminal document as stored: its members and the
// engine's own, one JSON object.
type storedTerminal struct {
	TermDoc
	TerminalOwn
}

// decodeTermDoc reads a stored terminal document into its members and
// the engine's own.
func decodeTermDoc(data []byte) (TermDoc, TerminalOwn, error) {
	var s storedTerminal
	extra, err := record.DecodeKept(data, &s)
	if err != nil {
		return TermDoc{}, TerminalOwn{}, err
	}
	s.Extra = extra
	return s.TermDoc, s.TerminalOwn, nil
}

// encodeTermDoc writes a terminal document with the engine's own members
// as the store holds it: every member in name order, the kept ones with
// them.
func encodeTermDoc(d TermDoc, own TerminalOwn) ([]byte, error) {
	return record.EncodeKept(&storedTerminal{d, own}, d.Extra)
}

// kept is the kept member name decoded as the map document held it
// (numbers as json.Number), nil when there is none.
func (d *TermDoc) kept(name string) any { return keptValue(d.Extra[name]) }

// intOf reads an integer member as record.Int reads the map document: its
// field when set, else the kept member of another form ("1", 2.0), 0 when
// absent or not a number.
func (d *TermDoc) intOf(f model.Opt[int], name string) int {
	n, _ := d.intOK(f, name)
	return n
}

// intOK is intOf telling whether the member is a number.
func (d *TermDoc) intOK(f model.Opt[int], name string) (int, bool) {
	if f.Set {
		return f.Value, true
	}
	if d.Extra == nil {
		return 0, false
	}
	return record.IntOK(d.kept(name))
}

// strOf reads a string member as record.Str reads the map document: its
// field when set, else a kept number as its text, "" otherwise.
func (d *TermDoc) strOf(f model.Opt[string], name string) string {
	if f.Set || d.Extra == nil {
		return f.Value
	}
	if n, ok := d.kept(name).(json.Number); ok {
		return n.String()
	}
	return ""
}

// channels is the channel list key (one of channelKeys) of the document.
func (d *TermDoc) channels(key string) *[]channel {
	switch key {
	case "v_snd_chn":
		return &d.VSndChn
	case "v_rcv_chn":
		return &d.VRcvChn
	case "dv_snd_chn":
		return &d.DvSndChn
	case "dv_rcv_chn":
		return &d.DvRcvChn
	case "a_snd_chn":
		return &d.ASndChn
	}
	return &d.ARcvChn
}

// key is the rejoin key field (DocRejoin, DocCaller) of the document, a
// string only.
func (d *TermDoc) key(field string) string {
	if field == DocCaller {
		return d.Caller.Value
	}
	return d.Rejoin.Value
}

// channelsOf reads the channel list key as channelsOf reads the map
// document's: the field's (a copy), else the kept member when it decodes
// as a list of channels, nil otherwise.
func (d *TermDoc) channelsOf(key string) []channel {
	if l := *d.channels(key); l != nil {
		return slices.Clone(l)
	}
	raw, ok := d.Extra[key]
	if !ok {
		return nil
	}
	var l []channel
	if json.Unmarshal(raw, &l) != nil {
		return nil
	}
	return l
}

// setChannelList writes the channel list key (an empty one is [], nil is
// left as it is).
func (d *TermDoc) setChannelList(key string, l []channel) { *d.channels(key) = l }

// setChannels gives an online terminal of the simulation its media
// channels (simChannels).
func (d *TermDoc) setChannels(bitrate int) {
	s := simChannels(bitrate)
	d.VSndChn, d.VRcvChn, d.DvSndChn, d.DvRcvChn, d.ASndChn, d.ARcvChn = s.vSnd, s.vRcv, s.dvSnd, s.dvRcv, s.aSnd, s.aRcv
}

// clone is a copy of d that changes apart from it (its kept members
// copied; the lists are replaced, not changed, by the writers).
func (d TermDoc) clone() TermDoc {
	d.Extra = maps.Clone(d.Extra)
	return d
}

// StoredChannel is an element of a terminal's channel list as the replies
// read it: each member as record.Int and record.Str read the map
// document (an element of another form reads as zeros).
type StoredChannel struct {
	ChnID       record.Integer `json:"chn_id"`
	ChnAlias    record.Text    `json:"chn_alias"`
	ChnLabel    record.Integer `json:"chn_label"`
	Bitrate     record.Integer `json:"bitrate"`
	Resolution  record.Integer `json:"resolution"`
	Format      record.Integer `json:"format"`
	CurVideoIdx record.Integer `json:"cur_video_idx"`
}

// Channels reads the terminal's channel list key (v_snd_chn, v_rcv_chn,
// dv_snd_chn, dv_rcv_chn, a_snd_chn, a_rcv_chn): one element per stored
// one, none when the member is no list.
func (t Terminal) Channels(key string) []StoredChannel {
	if l := *t.Doc.channels(key); l != nil {
		out := make([]StoredChannel, len(l))
		for i, c := range l {
			out[i] = StoredChannel{ChnID: record.Integer(c.ChnID), ChnAlias: record.Text(c.ChnAlias),
				ChnLabel: record.Integer(c.ChnLabel), Bitrate: record.Integer(c.Bitrate.Value),
				Resolution: record.Integer(c.Resolution.Value), Format: record.Integer(c.Format.Value),
				CurVideoIdx: record.Integer(c.CurVideoIdx.Value)}
		}
		return out
	}
	var l []json.RawMessage
	if raw, ok := t.Doc.Extra[key]; !ok || json.Unmarshal(raw, &l) != nil {
		return nil
	}
	out := make([]StoredChannel, len(l))
	for i, e := range l {
		_ = json.Unmarshal(e, &out[i]) // an element of another form: zeros
	}
	return out
}

// MuteOK is the terminal's mute flag and whether the member is a number.
func (t Terminal) MuteOK() (int, bool) { return t.Doc.intOK(t.Doc.Mute, "mute") }

// SilenceOK is the terminal's silence flag and whether the member is a
// number.
func (t Terminal) SilenceOK() (int, bool) { return t.Doc.intOK(t.Doc.Silence, "silence") }
