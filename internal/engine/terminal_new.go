package engine

import (
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// newTerminalOf is a terminal the engine creates, before its record: an
// invitee, idle (newTerminal), or a terminal in the call from the start
// (onlineTerminal). Its document has every member of the terminal
// replies but the channels (an online one gets them, setChannels), idle,
// its volumes at 15, no feature on, and the call's bookkeeping at its
// start; stored (created), its members are written in name order, so the
// stored bytes are those the map documents had
// (TestArrivalKeepsTheStoredBytes, TestNewTerminalKeepsTheStoredBytes).
func newTerminalOf(mtID string, bitrate, callMode int) Terminal {
	zero, none := model.Some(0), model.Some("")
	return Terminal{
		Doc: TermDoc{MtID: model.Some(mtID), Bitrate: model.Some(bitrate), CallMode: model.Some(callMode),
			RcvVolume: model.Some(volDefault), SndVolume: model.Some(volDefault),
			Account: none, AccountType: zero, Alias: none, E164: none, IP: none, Protocol: zero, Type: zero,
			Online: zero, Silence: zero, Mute: zero, Dual: zero, Mix: zero, VMP: zero, Inspection: zero, Rec: zero,
			Poll: zero, Upload: zero},
		Own: TerminalOwn{Attempts: zero, Chase: model.Some(false)},
	}
}

// created is t as rec holds it, its document encoded and read back as a
// stored one is.
func (t Terminal) created(rec store.Record) (Terminal, error) {
	data, err := encodeTerminal(t)
	if err != nil {
		return Terminal{}, err
	}
	rec.Data = data
	return DecodeTerminal(rec)
}
