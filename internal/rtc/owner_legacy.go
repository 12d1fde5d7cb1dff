package rtc

import (
	"encoding/json"
	"io"

	"github.com/confer-platform/confer/internal/sfu"
)

// The previous release's control envelope (before issue 40's one control
// surface): an op per control in lower case with its own fields,
// {"op": "mute", "mt_id": "3", "on": true, "broadcast": {...}, "mix":
// null}. During a rolling upgrade a node of that release passes controls
// to an owner of this one, and the other way round: the owner's Handler
// takes both shapes (upgraded), and remote sends the legacy shape to an
// owner whose record does not say it takes controls by method name
// (ownerDoc.Controls).

// decodeControl reads a control passed to the owner, in either shape.
func decodeControl(r io.Reader) (control, error) {
	var c control
	if err := json.NewDecoder(r).Decode(&c); err != nil {
		return c, err
	}
	return c.upgraded(), nil
}

// controlsByName is the ownerDoc.Controls of an owner that takes the
// Controls methods by name ({"op": "SetMute", "args": [...]}).
const controlsByName = 2

// legacyControl is the previous release's fields of a control.
type legacyControl struct {
	On        bool           `json:"on,omitempty"`
	Broadcast *sfu.Broadcast `json:"broadcast,omitempty"`
	Mix       []string       `json:"mix,omitempty"`
	All       bool           `json:"all,omitempty"`   // mix: everyone's audio
	Smart     bool           `json:"smart,omitempty"` // mix: a smart mix, its loudest members
}

// upgraded is c as a Controls method by name when it is the previous
// release's op (c itself otherwise).
func (c control) upgraded() control {
	arg := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	var args []any
	switch c.Op {
	case "hangup":
		c.Op, args = "Hangup", []any{c.MtID}
	case "mute":
		c.Op, args = "SetMute", []any{c.MtID, c.On}
	case "silence":
		c.Op, args = "SetSilence", []any{c.MtID, c.On}
	case "video_off":
		c.Op, args = "SetVideoOff", []any{c.MtID, c.On}
	case "broadcast":
		b := sfu.Broadcast{}
		if c.Broadcast != nil {
			b = *c.Broadcast
		}
		c.Op, args = "SetBroadcast", []any{b}
	case "mix":
		members := c.Mix
		if c.All {
			members = nil
		} else if members == nil {
			members = []string{}
		}
		c.Op, args = "SetMix", []any{members, c.Smart}
	case "dual":
		c.Op, args = "SetDual", []any{c.MtID}
	case "end":
		c.Op, args = "EndConference", []any{}
	default:
		return c
	}
	c.Args = make([]json.RawMessage, len(args))
	for i, a := range args {
		c.Args[i] = arg(a)
	}
	c.MtID, c.legacyControl = "", legacyControl{}
	return c
}

// legacy is the Controls method op with args in the previous release's
// shape; false for a method that release did not have (sent by name, it
// refuses it as an unknown control).
func legacy(op string, args []any) (control, bool) {
	str := func(i int) string { s, _ := args[i].(string); return s }
	flag := func(i int) bool { b, _ := args[i].(bool); return b }
	switch op {
	case "Hangup":
		return control{Op: "hangup", MtID: str(0)}, true
	case "SetMute":
		return control{Op: "mute", MtID: str(0), legacyControl: legacyControl{On: flag(1)}}, true
	case "SetSilence":
		return control{Op: "silence", MtID: str(0), legacyControl: legacyControl{On: flag(1)}}, true
	case "SetVideoOff":
		return control{Op: "video_off", MtID: str(0), legacyControl: legacyControl{On: flag(1)}}, true
	case "SetBroadcast":
		b, _ := args[0].(sfu.Broadcast)
		return control{Op: "broadcast", legacyControl: legacyControl{Broadcast: &b}}, true
	case "SetMix":
		members, _ := args[0].([]string)
		return control{Op: "mix", legacyControl: legacyControl{Mix: members, All: members == nil, Smart: flag(1)}}, true
	case "SetDual":
		return control{Op: "dual", MtID: str(0)}, true
	case "EndConference":
		return control{Op: "end"}, true
	}
	return control{}, false
}
