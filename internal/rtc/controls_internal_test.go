package rtc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
)

// calls records the Controls calls it takes, in order.
type calls struct{ got []string }

func (c *calls) add(op string, args ...any) error {
	c.got = append(c.got, fmt.Sprintf("%s%#v", op, args))
	return nil
}
func (c *calls) Hangup(conf, mt string) error { return c.add("Hangup", conf, mt) }
func (c *calls) SetMute(conf, mt string, on bool) error {
	return c.add("SetMute", conf, mt, on)
}
func (c *calls) SetSilence(conf, mt string, on bool) error {
	return c.add("SetSilence", conf, mt, on)
}
func (c *calls) SetVideoOff(conf, mt string, on bool) error {
	return c.add("SetVideoOff", conf, mt, on)
}
func (c *calls) SetVolume(conf, mt string, volume int) error {
	return c.add("SetVolume", conf, mt, volume)
}
func (c *calls) SetBroadcast(conf string, b sfu.Broadcast) error {
	return c.add("SetBroadcast", conf, b)
}
func (c *calls) SetMix(conf string, members []string, smart bool) error {
	return c.add("SetMix", conf, members, members == nil, smart)
}
func (c *calls) SetDual(conf, mt string) error   { return c.add("SetDual", conf, mt) }
func (c *calls) EndConference(conf string) error { return c.add("EndConference", conf) }

// everyControl calls every method of Controls once on cs.
func everyControl(cs Controls) {
	_ = cs.Hangup("c1", "3")
	_ = cs.SetMute("c1", "3", true)
	_ = cs.SetSilence("c1", "4", true)
	_ = cs.SetVideoOff("c1", "5", true)
	_ = cs.SetVolume("c1", "5", 0)
	_ = cs.SetVolume("c1", "6", 35)
	_ = cs.SetBroadcast("c1", sfu.Broadcast{Speaker: "3", Layout: 2, Panes: []string{"3", "", "4"},
		Selves: []sfu.SelfComposition{{MtID: "4", Layout: 1, Panes: []string{"5"}}}})
	_ = cs.SetMix("c1", nil, false)
	_ = cs.SetMix("c1", []string{}, false)
	_ = cs.SetMix("c1", []string{"3", "4"}, true)
	_ = cs.SetDual("c1", "")
	_ = cs.EndConference("c1")
}

// TestRemoteControlsArriveAsCalled: every control passed to the owner
// (remote, one envelope by method name) reaches the owner's Controls with
// the arguments it was called with, a nil mix (everyone) apart from an
// empty one (no one).
func TestRemoteControlsArriveAsCalled(t *testing.T) {
	t.Parallel()
	owner := &calls{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := decodeControl(r.Body)
		if err != nil {
			t.Errorf("decoding the control: %v", err)
		}
		conf := strings.TrimPrefix(r.URL.Path, PathOwner)
		if handled, err := applyControl(owner, conf, c); !handled || err != nil {
			t.Errorf("%s: handled %v, %v", c.Op, handled, err)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	everyControl(remote{ctx: context.Background(), client: srv.Client(), owner: ownerDoc{URL: srv.URL, Controls: controlsByName}})
	direct := &calls{}
	everyControl(direct)
	if !slices.Equal(owner.got, direct.got) {
		t.Fatalf("the owner took\n%s\nwant\n%s", strings.Join(owner.got, "\n"), strings.Join(direct.got, "\n"))
	}
}

// TestEveryControlTravels: every method of Controls can be passed by
// name: it takes the conference first and returns only an error.
func TestEveryControlTravels(t *testing.T) {
	t.Parallel()
	for i := range controlsType.NumMethod() {
		m := controlsType.Method(i)
		if m.Type.NumIn() == 0 || m.Type.In(0).Kind() != reflect.String {
			t.Errorf("%s does not take the conference first", m.Name)
		}
		if m.Type.NumOut() != 1 || m.Type.Out(0) != reflect.TypeFor[error]() {
			t.Errorf("%s does not return only an error", m.Name)
		}
	}
}

// TestBadControlRefused: an unknown op is not handled, and arguments that
// do not fit the method are errBadControl.
func TestBadControlRefused(t *testing.T) {
	t.Parallel()
	cs := &calls{}
	if handled, _ := applyControl(cs, "c1", control{Op: "Reboot"}); handled {
		t.Error("an unknown op was handled")
	}
	for _, c := range []control{
		{Op: "SetMute", Args: []json.RawMessage{[]byte(`"3"`)}},
		{Op: "SetMute", Args: []json.RawMessage{[]byte(`3`), []byte(`true`)}},
	} {
		if handled, err := applyControl(cs, "c1", c); !handled || !errors.Is(err, errBadControl) {
			t.Errorf("%s %s: handled %v, %v", c.Op, c.Args, handled, err)
		}
	}
	if len(cs.got) != 0 {
		t.Errorf("a bad control was applied: %v", cs.got)
	}
}

// TestVolumeControl: a loudspeaker volume (vol_mode 1) reaches the SFU,
// a microphone volume (vol_mode 2) does not: a browser's microphone is
// its own.
func TestVolumeControl(t *testing.T) {
	t.Parallel()
	cs := &calls{}
	apply := terminalControls[media.ControlVolume]
	_ = apply(cs, "c1", "3", media.Control{Kind: media.ControlVolume, Value: 9, Extra: map[string]int{"vol_mode": 1}})
	_ = apply(cs, "c1", "3", media.Control{Kind: media.ControlVolume, Value: 4, Extra: map[string]int{"vol_mode": 2}})
	if want := []string{`SetVolume[]interface {}{"c1", "3", 9}`}; !slices.Equal(cs.got, want) {
		t.Fatalf("got %q, want %q", cs.got, want)
	}
}
