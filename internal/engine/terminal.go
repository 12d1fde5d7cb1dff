package engine

import (
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// TerminalOwn are the engine's own members of a terminal document: the
// call's bookkeeping, the cascade link, the occupancy that refused the
// call, how the terminal joined and whose its mute is. No reply shows
// them (their names start with "_"). A document is decoded once into
// Terminal.Doc (the other members, TermDoc) and these fields, and written
// back under the same member names, so the stored JSON keeps its shape
// and a node of an earlier release reads it as before: a document read
// and written unchanged keeps its bytes (TestTerminalKeepsTheStoredBytes).
// An unset field is no member; a member of another type than the engine
// writes stays in Doc.Extra, as it was. The fields are declared in the
// byte order of their member names (TestStoredFormsInNameOrder).
type TerminalOwn struct {
	Attempts       model.Opt[int]    `json:"_attempts,omitzero"`        // the calls placed since the last call by request
	CascadeConf    model.Opt[string] `json:"_cascade_conf,omitzero"`    // DocCascadeConf: the subordinate a link terminal answers for
	Chase          model.Opt[bool]   `json:"_chase,omitzero"`           // called again until it answers (added in chase)
	Lost           model.Opt[bool]   `json:"_lost,omitzero"`            // DocLost: its connection was lost
	OccupyCode     model.Opt[int]    `json:"_occupy_code,omitzero"`     // DocOccupyCode: why the call was refused (busy elsewhere)
	OccupyConfName model.Opt[string] `json:"_occupy_confname,omitzero"` // DocOccupyConfName: the conference that has it
	Outcome        model.Opt[int]    `json:"_outcome,omitzero"`         // the last call's media.Outcome
	Participant    model.Opt[string] `json:"_participant,omitzero"`     // DocParticipant: how it joined on its own
	Redial         model.Opt[bool]   `json:"_redial,omitzero"`          // a failed call to be placed again when due
	SelfMute       model.Opt[bool]   `json:"_self_mute,omitzero"`       // DocSelfMute: its mute is its own
	Uplink         model.Opt[string] `json:"_uplink,omitzero"`          // DocUplink: the superior it stands for
}

// DecodeTerminal is a terminal record with its decoded document, as the
// engine reads it (Get, List); other modules reading stored terminals
// (nms) read them so too.
func DecodeTerminal(rec store.Record) (Terminal, error) {
	doc, own, err := decodeTermDoc(rec.Data)
	if err != nil {
		return Terminal{}, err
	}
	return Terminal{Rec: rec, Doc: doc, Own: own}, nil
}

// encodeTerminal writes a terminal's document with its own members, as
// the one JSON object it was decoded from.
func encodeTerminal(t Terminal) ([]byte, error) {
	return encodeTermDoc(t.Doc, t.Own)
}
