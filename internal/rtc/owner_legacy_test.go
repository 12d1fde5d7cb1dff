package rtc

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/sfu"
)

// previousControl is the control envelope of the previous release, as
// internal/rtc/owner.go had it before the one control surface (commit
// 471d69b's parent): an op per control with its own fields.
type previousControl struct {
	Op        string        `json:"op"`
	MtID      string        `json:"mt_id,omitempty"`
	On        bool          `json:"on,omitempty"`
	Broadcast sfu.Broadcast `json:"broadcast"`
	Mix       []string      `json:"mix"`
	All       bool          `json:"all,omitempty"`
	Smart     bool          `json:"smart,omitempty"`
}

// previousRemote sends controls as a node of the previous release did
// (its remote's methods, copied).
type previousRemote struct {
	t   *testing.T
	url string
}

func (p previousRemote) send(conf string, c previousControl) error {
	body, _ := json.Marshal(c)
	resp, err := http.Post(p.url+PathOwner+conf, "application/json", bytes.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		p.t.Errorf("%s: %d", body, resp.StatusCode)
	}
	return nil
}

func (p previousRemote) Hangup(conf, mt string) error {
	return p.send(conf, previousControl{Op: "hangup", MtID: mt})
}
func (p previousRemote) SetMute(conf, mt string, on bool) error {
	return p.send(conf, previousControl{Op: "mute", MtID: mt, On: on})
}
func (p previousRemote) SetSilence(conf, mt string, on bool) error {
	return p.send(conf, previousControl{Op: "silence", MtID: mt, On: on})
}
func (p previousRemote) SetVideoOff(conf, mt string, on bool) error {
	return p.send(conf, previousControl{Op: "video_off", MtID: mt, On: on})
}
func (p previousRemote) SetBroadcast(conf string, b sfu.Broadcast) error {
	return p.send(conf, previousControl{Op: "broadcast", Broadcast: b})
}
func (p previousRemote) SetMix(conf string, members []string, smart bool) error {
	return p.send(conf, previousControl{Op: "mix", Mix: members, All: members == nil, Smart: smart})
}
func (p previousRemote) SetDual(conf, mt string) error {
	return p.send(conf, previousControl{Op: "dual", MtID: mt})
}
func (p previousRemote) EndConference(conf string) error {
	return p.send(conf, previousControl{Op: "end"})
}

// previousControls calls every control the previous release had (all but
// SetVolume) once on cs.
func previousControls(cs interface {
	Hangup(conf, mt string) error
	SetMute(conf, mt string, on bool) error
	SetSilence(conf, mt string, on bool) error
	SetVideoOff(conf, mt string, on bool) error
	SetBroadcast(conf string, b sfu.Broadcast) error
	SetMix(conf string, members []string, smart bool) error
	SetDual(conf, mt string) error
	EndConference(conf string) error
}) {
	_ = cs.Hangup("c1", "3")
	_ = cs.SetMute("c1", "3", true)
	_ = cs.SetMute("c1", "3", false)
	_ = cs.SetSilence("c1", "4", true)
	_ = cs.SetVideoOff("c1", "5", true)
	_ = cs.SetBroadcast("c1", sfu.Broadcast{Speaker: "3", Layout: 2, Panes: []string{"3", "", "4"},
		Selves: []sfu.SelfComposition{{MtID: "4", Layout: 1, Panes: []string{"5"}}}})
	_ = cs.SetMix("c1", nil, false)
	_ = cs.SetMix("c1", []string{}, false)
	_ = cs.SetMix("c1", []string{"3", "4"}, true)
	_ = cs.SetDual("c1", "")
	_ = cs.SetDual("c1", "4")
	_ = cs.EndConference("c1")
}

// ownerStub applies what arrives as the owner's Handler does (decodeControl,
// applyControl) to cs.
func ownerStub(t *testing.T, cs Controls, seen *[]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := decodeControl(r.Body)
		if err != nil {
			t.Errorf("decoding the control: %v", err)
		}
		if seen != nil {
			*seen = append(*seen, c.Op)
		}
		if handled, err := applyControl(cs, strings.TrimPrefix(r.URL.Path, PathOwner), c); !handled || err != nil {
			t.Errorf("%s: handled %v, %v", c.Op, handled, err)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
}

// TestOwnerTakesThePreviousEnvelope: a node of the previous release
// passing its controls to an owner of this one (a rolling upgrade) gets
// each applied as it called it.
func TestOwnerTakesThePreviousEnvelope(t *testing.T) {
	t.Parallel()
	owner := &calls{}
	srv := ownerStub(t, owner, nil)
	defer srv.Close()
	previousControls(previousRemote{t: t, url: srv.URL})
	direct := &calls{}
	previousControls(direct)
	if !slices.Equal(owner.got, direct.got) {
		t.Fatalf("the owner took\n%s\nwant\n%s", strings.Join(owner.got, "\n"), strings.Join(direct.got, "\n"))
	}
}

// TestPreviousOwnerGetsItsEnvelope: to an owner whose record does not say
// it takes controls by name (a node of the previous release), remote
// sends the previous release's ops, which that release's handler applied.
func TestPreviousOwnerGetsItsEnvelope(t *testing.T) {
	t.Parallel()
	var ops []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var c previousControl
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
			t.Errorf("decoding as the previous release: %v", err)
		}
		ops = append(ops, c.Op)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	previousControls(remote{ctx: context.Background(), client: srv.Client(), owner: ownerDoc{URL: srv.URL}})
	want := []string{"hangup", "mute", "mute", "silence", "video_off", "broadcast", "mix", "mix", "mix", "dual", "dual", "end"}
	if !slices.Equal(ops, want) {
		t.Fatalf("sent %v, want %v", ops, want)
	}
	// And what it sends is what the previous release's remote sent: the
	// owner of this release, reading it, applies the same calls.
	owner := &calls{}
	stub := ownerStub(t, owner, nil)
	defer stub.Close()
	previousControls(remote{ctx: context.Background(), client: stub.Client(), owner: ownerDoc{URL: stub.URL}})
	direct := &calls{}
	previousControls(direct)
	if !slices.Equal(owner.got, direct.got) {
		t.Fatalf("the owner took\n%s\nwant\n%s", strings.Join(owner.got, "\n"), strings.Join(direct.got, "\n"))
	}
}
