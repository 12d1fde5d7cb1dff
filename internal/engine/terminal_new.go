package engine

import (
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// newTerminalDoc is the document of a terminal the engine creates: an
// invitee, idle (newTerminal), or a terminal in the call from the start
// (onlineTerminal). record.Encode writes its members in name order, the
// absent ones left out, so the stored bytes are those the map documents
// had (TestArrivalKeepsTheStoredBytes, TestNewTerminalKeepsTheStoredBytes).
type newTerminalDoc struct {
	Attempts    int               `json:"_attempts"`
	Caller      model.Opt[string] `json:"_caller,omitzero"` // DocCaller
	Chase       bool              `json:"_chase"`
	Participant model.Opt[string] `json:"_participant,omitzero"` // DocParticipant
	Rejoin      model.Opt[string] `json:"_rejoin,omitzero"`      // DocRejoin
	Uplink      model.Opt[string] `json:"_uplink,omitzero"`      // DocUplink
	ARcvChn     []channel         `json:"a_rcv_chn,omitempty"`
	ASndChn     []channel         `json:"a_snd_chn,omitempty"`
	Account     string            `json:"account"`
	AccountType int               `json:"account_type"`
	Alias       string            `json:"alias"`
	Bitrate     int               `json:"bitrate"`
	CallMode    int               `json:"call_mode"`
	Dual        int               `json:"dual"`
	DvRcvChn    []channel         `json:"dv_rcv_chn,omitempty"`
	DvSndChn    []channel         `json:"dv_snd_chn,omitempty"`
	E164        string            `json:"e164"`
	Inspection  int               `json:"inspection"`
	IP          string            `json:"ip"`
	Mix         int               `json:"mix"`
	MtID        string            `json:"mt_id"`
	Mute        int               `json:"mute"`
	Online      int               `json:"online"`
	Poll        int               `json:"poll"`
	Protocol    int               `json:"protocol"`
	RcvVolume   int               `json:"rcv_volume"`
	Rec         int               `json:"rec"`
	Silence     int               `json:"silence"`
	SndVolume   int               `json:"snd_volume"`
	Type        int               `json:"type"`
	Upload      int               `json:"upload"`
	VRcvChn     []channel         `json:"v_rcv_chn,omitempty"`
	VSndChn     []channel         `json:"v_snd_chn,omitempty"`
	Vmp         int               `json:"vmp"`
}

// newTerminalOf is the document of a new terminal: idle, its volumes at
// 15, no feature on.
func newTerminalOf(mtID string, bitrate, callMode int) newTerminalDoc {
	return newTerminalDoc{MtID: mtID, Bitrate: bitrate, CallMode: callMode, RcvVolume: 15, SndVolume: 15}
}

// arrive writes a's members (arrival.apply's) into d.
func (d *newTerminalDoc) arrive(a arrival) {
	d.Account, d.AccountType, d.Protocol, d.Type = a.Account, a.AccountType, a.Protocol, a.Type
	d.Alias, d.E164, d.IP = a.Alias, a.E164, a.IP
	d.Participant, d.Uplink = a.Participant, a.Uplink
	switch a.KeyField {
	case DocRejoin:
		d.Rejoin = model.Some(a.Key)
	case DocCaller:
		d.Caller = model.Some(a.Key)
	}
}

// channels gives d the simulation's media channels (setChannels).
func (d *newTerminalDoc) channels(bitrate int) {
	s := simChannels(bitrate)
	d.VSndChn, d.VRcvChn, d.DvSndChn, d.DvRcvChn, d.ASndChn, d.ARcvChn = s.vSnd, s.vRcv, s.dvSnd, s.dvRcv, s.aSnd, s.aRcv
}

// terminal is the terminal rec holds with d as its document, read back
// as a stored one is.
func (d newTerminalDoc) terminal(rec store.Record) (Terminal, error) {
	data, err := record.Encode(d)
	if err != nil {
		return Terminal{}, err
	}
	rec.Data = data
	return DecodeTerminal(rec)
}
