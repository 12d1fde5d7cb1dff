package sfu

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The broadcast without a speaker follows the publisher that spoke last.
func TestBroadcastFollowsActivePublisher(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	first := rg.publish("c1", idB, false, "")
	firstOpts := &sendOpts{level: 127}
	first.run(idB, firstOpts)
	second := rg.publish("c1", idA, false, "")
	second.run(idA, &sendOpts{level: 127})
	bc := rg.subscribe("c1", "", "sub")
	// Nobody speaks: the latest publisher to join.
	bc.flowing(t, "video/65", 30)
	stopped(t, bc, "video/66", bc, "video/65")
	// The first one speaks (20 dB below full scale): it takes the broadcast.
	firstOpts.setLevel(20)
	bc.flowing(t, "video/66", 30)
	stopped(t, bc, "video/65", bc, "video/66")
}

// A screen share is the dual stream: ?dual=1 publishes it for the viewer's
// participant, WHEP ?dual=1 receives it, a second share replaces it.
func TestDualStream(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 127})
	sessA := strings.TrimPrefix(a.location, PathSession)
	screen := rg.publish("c1", 90, false, "?dual=1&viewer="+sessA)
	screen.run(90, &sendOpts{level: 127})
	if joined, _, _ := rg.ev.snapshot(); joined != 1 {
		t.Fatalf("a screen share registered a participant: %d joined", joined)
	}
	d := rg.subscribe("c1", "?dual=1", "sub")
	d.flowing(t, "video/90", 30)
	ref := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")

	b := rg.publish("c1", idB, false, "")
	b.run(idB, &sendOpts{level: 127})
	screenB := rg.publish("c1", 91, false, "?dual=1&viewer="+strings.TrimPrefix(b.location, PathSession))
	screenB.run(91, &sendOpts{level: 127})
	d.flowing(t, "video/91", 30)
	stopped(t, d, "video/90", d, "video/91")
	if st := rg.state(t, "c1", ""); st.Dual != b.mtID {
		t.Fatalf("state dual = %q, want %q", st.Dual, b.mtID)
	}
	// The engine takes the dual stream away.
	_ = rg.sfu.SetDual("c1", "")
	stopped(t, d, "video/91", ref, "video/65")
}

func (rg *testRig) state(t *testing.T, conf, query string) roomState {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, rg.srv.URL+"/rtc/state/"+conf+query, nil)
	req.Header.Set("Authorization", "Bearer sub")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET state = %d %q", resp.StatusCode, b)
	}
	var st roomState
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// The state endpoint answers a long poll when the room changes.
func TestStateLongPoll(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "?name=alice")
	st := rg.state(t, "c1", "")
	if len(st.Participants) != 1 || st.Participants[0].Name != "alice" || st.Participants[0].Muted {
		t.Fatalf("state participants = %+v", st.Participants)
	}
	done := make(chan roomState, 1)
	go func() { done <- rg.state(t, "c1", "?since="+jsonNum(st.Version)) }()
	_ = rg.sfu.SetMute("c1", a.mtID, true)
	got := <-done
	if got.Version == st.Version || !got.Participants[0].Muted {
		t.Fatalf("long poll returned version %d muted %v, want a new version with the mute", got.Version, got.Participants[0].Muted)
	}
	if code := rg.do(http.MethodGet, "/rtc/state/c1", "nope", "", ""); code != http.StatusUnauthorized {
		t.Fatalf("state with a bad token = %d, want 401", code)
	}
}

func jsonNum(v uint64) string { b, _ := json.Marshal(v); return string(b) }

// EndConference closes every session without reporting them as left.
// The loudspeaker volume the chair set reaches the participant's page in
// the state, kept under its mt_id.
func TestVolumeInState(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "?name=alice")
	if st := rg.state(t, "c1", ""); st.Participants[0].Volume != nil {
		t.Fatalf("volume %d before any was set", *st.Participants[0].Volume)
	}
	_ = rg.sfu.SetVolume("c1", a.mtID, 7)
	if st := rg.state(t, "c1", ""); st.Participants[0].Volume == nil || *st.Participants[0].Volume != 7 {
		t.Fatalf("state participants = %+v, want volume 7", st.Participants)
	}
}

func TestEndConference(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	if err := rg.sfu.EndConference("c1"); err != nil {
		t.Fatal(err)
	}
	if n := rg.sfu.Sessions(); n != 0 {
		t.Fatalf("sessions after EndConference = %d", n)
	}
	if _, left, _ := rg.ev.snapshot(); len(left) != 0 {
		t.Fatalf("Left reported for an ended conference: %v", left)
	}
	if code := rg.do(http.MethodDelete, a.location, "pub", "", ""); code != http.StatusNotFound {
		t.Fatalf("DELETE after EndConference = %d, want 404", code)
	}
}

// PATCH adds trickled candidates (204) and restarts ICE (200 with the
// server's new credentials); media flows after the restart.
func TestPatchTrickleAndICERestart(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "")
	a.run(idA, &sendOpts{level: 127})
	sub := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	sub.flowing(t, "video/65", 20)
	frag := "application/trickle-ice-sdpfrag"

	ufrag := sdpAttr(a.pc.LocalDescription().SDP, "ice-ufrag")
	cand := "a=ice-ufrag:" + ufrag + "\r\na=mid:0\r\na=candidate:1 1 udp 2130706431 127.0.0.1 9 typ host\r\n"
	if code := rg.do(http.MethodPatch, a.location, "pub", frag, cand); code != http.StatusNoContent {
		t.Fatalf("PATCH candidate = %d, want 204", code)
	}
	req0, _ := http.NewRequest(http.MethodPatch, rg.srv.URL+a.location, strings.NewReader(cand))
	req0.Header.Set("Content-Type", frag)
	req0.Header.Set("Authorization", "Bearer pub")
	req0.Header.Set("If-Match", `"stale"`)
	if resp, err := http.DefaultClient.Do(req0); err != nil || resp.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("PATCH with a stale If-Match = %v %v, want 412", resp, err)
	}
	if code := rg.do(http.MethodPatch, a.location, "pub", "text/plain", cand); code != http.StatusUnsupportedMediaType {
		t.Fatalf("PATCH text/plain = %d, want 415", code)
	}

	// ICE restart of the subscriber, as a WHEP client does it.
	rg.restartClientICE(sub)
	sub.flowing(t, "video/65", 100)
}
