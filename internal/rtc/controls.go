package rtc

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
)

// Controls is the SFU's control surface: what the engine's media
// contract (Backend) asks of the SFU that carries a conference's media.
// There is one surface and two ways to reach it: this node's SFU
// (*sfu.SFU) when this node owns the conference, and remote when another
// node does. remote sends every method as one envelope, {"op": the
// method's name, "args": its arguments after conf}, which the owner's
// Handler applies to its own SFU by that name (applyControl); no table
// of ops is kept on either side.
//
// Adding a control is one method here, its *sfu.SFU implementation, its
// remote one-liner below and, for a per-terminal control of the media
// contract, its row in terminalControls (docs/architecture.md "Adding a
// per-terminal control"). Every method takes the conference first and
// returns only an error; its other arguments travel as JSON.
type Controls interface {
	Hangup(conf, mt string) error
	SetMute(conf, mt string, on bool) error
	SetSilence(conf, mt string, on bool) error
	SetVideoOff(conf, mt string, on bool) error
	SetVolume(conf, mt string, volume int) error
	SetBroadcast(conf string, b sfu.Broadcast) error
	SetMix(conf string, members []string, smart bool) error
	SetDual(conf, mt string) error
	EndConference(conf string) error
}

var (
	_ Controls = (*sfu.SFU)(nil)
	_ Controls = remote{}
	_ Controls = nodeControls{}
)

// The remote side of Controls: each method is its name and arguments.

func (r remote) Hangup(conf, mt string) error { return r.call(conf, "Hangup", mt) }
func (r remote) SetMute(conf, mt string, on bool) error {
	return r.call(conf, "SetMute", mt, on)
}
func (r remote) SetSilence(conf, mt string, on bool) error {
	return r.call(conf, "SetSilence", mt, on)
}
func (r remote) SetVideoOff(conf, mt string, on bool) error {
	return r.call(conf, "SetVideoOff", mt, on)
}
func (r remote) SetVolume(conf, mt string, volume int) error {
	return r.call(conf, "SetVolume", mt, volume)
}
func (r remote) SetBroadcast(conf string, b sfu.Broadcast) error {
	return r.call(conf, "SetBroadcast", b)
}
func (r remote) SetMix(conf string, members []string, smart bool) error {
	return r.call(conf, "SetMix", members, smart) // nil (everyone) travels as null, none as []
}
func (r remote) SetDual(conf, mt string) error   { return r.call(conf, "SetDual", mt) }
func (r remote) EndConference(conf string) error { return r.call(conf, "EndConference") }

// call passes the Controls method op with args (after conf) to the owner,
// in the previous release's shape to an owner of that release.
func (r remote) call(conf, op string, args ...any) error {
	if r.owner.Controls < controlsByName {
		if c, ok := legacy(op, args); ok {
			return r.send(conf, c)
		}
	}
	c := control{Op: op, Args: make([]json.RawMessage, len(args))}
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			return fmt.Errorf("rtc: %s: %w", op, err)
		}
		c.Args[i] = b
	}
	return r.send(conf, c)
}

// terminalControls are the per-terminal controls of the media contract
// (media.Control, Backend.Apply) that the SFU acts on, by kind: each
// calls its Controls method.
var terminalControls = map[string]func(cs Controls, conf, mt string, c media.Control) error{
	media.ControlMute: func(cs Controls, conf, mt string, c media.Control) error {
		return cs.SetMute(conf, mt, c.Value == 1)
	},
	media.ControlSilence: func(cs Controls, conf, mt string, c media.Control) error {
		return cs.SetSilence(conf, mt, c.Value == 1)
	},
	media.ControlVideoOff: func(cs Controls, conf, mt string, c media.Control) error {
		return cs.SetVideoOff(conf, mt, c.Value == 1)
	},
	media.ControlVolume: func(cs Controls, conf, mt string, c media.Control) error {
		if c.Extra["vol_mode"] != 1 {
			return nil // the microphone's: a browser's is its own
		}
		return cs.SetVolume(conf, mt, c.Value)
	},
}

// errBadControl answers a control whose arguments do not fit its method
// (the owner's 400).
var errBadControl = errors.New("rtc: a control's arguments do not fit its method")

var controlsType = reflect.TypeFor[Controls]()

// applyControl applies a passed control to cs: the Controls method named
// by c.Op, called with conf and c.Args decoded into its parameters.
// handled is false when Controls has no such method.
func applyControl(cs Controls, conf string, c control) (handled bool, err error) {
	m, ok := controlsType.MethodByName(c.Op)
	if !ok {
		return false, nil
	}
	t := m.Type
	if t.NumIn() != len(c.Args)+1 {
		return true, fmt.Errorf("%w: %s takes %d, got %d", errBadControl, c.Op, t.NumIn()-1, len(c.Args))
	}
	in := []reflect.Value{reflect.ValueOf(conf)}
	for i, a := range c.Args {
		v := reflect.New(t.In(i + 1))
		if err := json.Unmarshal(a, v.Interface()); err != nil {
			return true, fmt.Errorf("%w: %s argument %d: %w", errBadControl, c.Op, i+1, err)
		}
		in = append(in, v.Elem())
	}
	out := reflect.ValueOf(&cs).Elem().MethodByName(c.Op).Call(in)
	err, _ = out[0].Interface().(error)
	return true, err
}

// nodeControls are the controls as the owner applies them for another
// node: a hang-up ends a SIP call of the owner's user agent first (CANCEL
// or BYE, and its bridge), the end of a conference ends its SIP calls,
// then the SFU.
type nodeControls struct {
	*sfu.SFU
	sip SIP // nil: none
}

func (n nodeControls) Hangup(conf, mt string) error {
	if n.sip != nil && n.sip.Hangup(conf, mt) {
		return nil
	}
	return n.SFU.Hangup(conf, mt)
}

func (n nodeControls) EndConference(conf string) error {
	if n.sip != nil {
		n.sip.EndConference(conf)
	}
	return n.SFU.EndConference(conf)
}
