package engine

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// TerminalOwn are the engine's own members of a terminal document: the
// call's bookkeeping, the cascade link, the occupancy that refused the
// call, how the terminal joined and whose its mute is. No reply shows
// them (their names start with "_"). A document is decoded once into
// Terminal.Doc (the other members) and these fields, and written back
// under the same member names, so the stored JSON keeps its shape and a
// node of an earlier release reads it as before: a document read and
// written unchanged keeps its bytes (TestTerminalKeepsTheStoredBytes). An
// unset field is no member; a member of another type than the engine
// writes stays in Doc, as it was. The fields are declared in the byte
// order of their member names, the order in which a document is written
// (TestStoredFormsInNameOrder).
type TerminalOwn struct {
	Attempts       model.Opt[int]    `json:"_attempts"`        // the calls placed since the last call by request
	CascadeConf    model.Opt[string] `json:"_cascade_conf"`    // DocCascadeConf: the subordinate a link terminal answers for
	Chase          model.Opt[bool]   `json:"_chase"`           // called again until it answers (added in chase)
	Lost           model.Opt[bool]   `json:"_lost"`            // DocLost: its connection was lost
	OccupyCode     model.Opt[int]    `json:"_occupy_code"`     // DocOccupyCode: why the call was refused (busy elsewhere)
	OccupyConfName model.Opt[string] `json:"_occupy_confname"` // DocOccupyConfName: the conference that has it
	Outcome        model.Opt[int]    `json:"_outcome"`         // the last call's media.Outcome
	Participant    model.Opt[string] `json:"_participant"`     // DocParticipant: how it joined on its own
	Redial         model.Opt[bool]   `json:"_redial"`          // a failed call to be placed again when due
	SelfMute       model.Opt[bool]   `json:"_self_mute"`       // DocSelfMute: its mute is its own
	Uplink         model.Opt[string] `json:"_uplink"`          // DocUplink: the superior it stands for
}

// The stored member names of TerminalOwn's fields, in their order.
var terminalOwnMembers = [...]string{"_attempts", DocCascadeConf, "_chase", DocLost, DocOccupyCode, DocOccupyConfName,
	"_outcome", DocParticipant, "_redial", DocSelfMute, DocUplink}

// ownValue is a field of TerminalOwn: its value when set.
type ownValue struct {
	v   any
	set bool
}

// splitOwn moves the own members of the engine's types out of t.Doc
// into t.Own.
func (t *Terminal) splitOwn() {
	m, doc, o := terminalOwnMembers, t.Doc, &t.Own
	take := func(i int, ok bool) {
		if ok {
			delete(doc, m[i])
		}
	}
	take(0, intMember(doc[m[0]], &o.Attempts))
	take(1, member(doc[m[1]], &o.CascadeConf))
	take(2, member(doc[m[2]], &o.Chase))
	take(3, member(doc[m[3]], &o.Lost))
	take(4, intMember(doc[m[4]], &o.OccupyCode))
	take(5, member(doc[m[5]], &o.OccupyConfName))
	take(6, intMember(doc[m[6]], &o.Outcome))
	take(7, member(doc[m[7]], &o.Participant))
	take(8, member(doc[m[8]], &o.Redial))
	take(9, member(doc[m[9]], &o.SelfMute))
	take(10, member(doc[m[10]], &o.Uplink))
}

// values are the fields as stored, in terminalOwnMembers' order.
func (o *TerminalOwn) values() [len(terminalOwnMembers)]ownValue {
	return [...]ownValue{opt(o.Attempts), opt(o.CascadeConf), opt(o.Chase), opt(o.Lost), opt(o.OccupyCode),
		opt(o.OccupyConfName), opt(o.Outcome), opt(o.Participant), opt(o.Redial), opt(o.SelfMute), opt(o.Uplink)}
}

// opt is a field's stored value; an unset one is not boxed.
func opt[T any](o model.Opt[T]) ownValue {
	if !o.Set {
		return ownValue{}
	}
	return ownValue{o.Value, true}
}

// intMember sets f from a stored integer (as decoding or the engine
// gives it) and tells whether v was one.
func intMember(v any, f *model.Opt[int]) bool {
	var n int
	switch x := v.(type) {
	case int:
		n = x
	case json.Number:
		y, err := strconv.Atoi(string(x))
		if err != nil || strconv.Itoa(y) != string(x) {
			return false // written as it was read: 1.0, -0, 1e2
		}
		n = y
	default:
		return false
	}
	*f = model.Some(n)
	return true
}

// member sets f from a stored string or boolean and tells whether v was
// one.
func member[T string | bool](v any, f *model.Opt[T]) bool {
	x, ok := v.(T)
	if ok {
		*f = model.Some(x)
	}
	return ok
}

// DecodeTerminal is a terminal record with its decoded document, as the
// engine reads it (Get, List); other modules reading stored terminals
// (nms) read them so too.
func DecodeTerminal(rec store.Record) (Terminal, error) {
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		return Terminal{}, err
	}
	return terminalOf(rec, doc), nil
}

// terminalOf is a terminal record with its document, decoded or built:
// the engine's own members are taken out of it into Own.
func terminalOf(rec store.Record, doc map[string]any) Terminal {
	t := Terminal{Rec: rec, Doc: doc}
	if doc != nil {
		t.splitOwn()
	}
	return t
}

// errNoDocument refuses to write own members without a document (a zero
// Terminal).
var errNoDocument = errors.New("engine: a terminal without a document")

// encodeTerminal writes a terminal's document with its own members, as
// the one JSON object it was decoded from. They are put into t.Doc for the
// encoding and taken out again (the document is the caller's, used by one
// goroutine at a time).
func encodeTerminal(t Terminal) ([]byte, error) {
	doc := t.Doc
	vals := t.Own.values()
	some := false
	for _, v := range vals {
		some = some || v.set
	}
	if !some {
		return shape.Encode(doc)
	}
	if doc == nil {
		return nil, errNoDocument
	}
	for i, v := range vals {
		if v.set {
			doc[terminalOwnMembers[i]] = v.v
		}
	}
	data, err := shape.Encode(doc)
	for i, v := range vals {
		if v.set {
			delete(doc, terminalOwnMembers[i])
		}
	}
	return data, err
}
