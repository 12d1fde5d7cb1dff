package sfu

import (
	"net/http"
	"testing"
)

const (
	idA = 65 // 'A'
	idB = 66 // 'B'
)

// Two publishers, subscribers of each and of the broadcast; every engine
// control changes what arrives, counted in packets.
func TestForwardingAndControls(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "?name=alice")
	a.run(idA, &sendOpts{level: 30})
	b := rg.publish("c1", idB, false, "")
	b.run(idB, &sendOpts{level: 90})
	subA := rg.subscribe("c1", "?mt_id="+a.mtID, "sub")
	subB := rg.subscribe("c1", "?mt_id="+b.mtID, "both")

	subA.flowing(t, "audio/65", 50)
	subA.flowing(t, "video/65", 50)
	subB.flowing(t, "audio/66", 50)
	subB.flowing(t, "video/66", 50)
	if n := subA.total("audio/66") + subA.total("video/66"); n != 0 {
		t.Fatalf("subscriber of A got %d packets of B", n)
	}
	if st := rg.sfu.Stats(); st.Sessions != 4 || st.Participants != 4 || st.Conferences != 1 || st.Forwarded < 200 {
		t.Fatalf("Stats() = %+v, want 4 sessions and participants, 1 conference, 200+ packets", st)
	}

	t.Run("mute", func(t *testing.T) {
		if err := rg.sfu.SetMute("c1", a.mtID, true); err != nil {
			t.Fatal(err)
		}
		stopped(t, subA, "audio/65", subA, "video/65")
		subB.flowing(t, "audio/66", 50) // B unaffected
		if err := rg.sfu.SetMute("c1", a.mtID, false); err != nil {
			t.Fatal(err)
		}
		subA.flowing(t, "audio/65", 50)
	})

	t.Run("video off", func(t *testing.T) {
		_ = rg.sfu.SetVideoOff("c1", a.mtID, true)
		stopped(t, subA, "video/65", subA, "audio/65")
		_ = rg.sfu.SetVideoOff("c1", a.mtID, false)
		subA.flowing(t, "video/65", 50)
	})

	t.Run("silence", func(t *testing.T) {
		_ = rg.sfu.SetSilence("c1", subA.mtID, true)
		stopped(t, subA, "audio/65", subB, "audio/66")
		stopped(t, subA, "video/65", subB, "video/66")
		_ = rg.sfu.SetSilence("c1", subA.mtID, false)
		subA.flowing(t, "audio/65", 50)
		subA.flowing(t, "video/65", 50)
	})

	t.Run("mix", func(t *testing.T) {
		_ = rg.sfu.SetMix("c1", []string{b.mtID}, false)
		stopped(t, subA, "audio/65", subB, "audio/66")
		subA.flowing(t, "video/65", 50) // the mix is audio only
		_ = rg.sfu.SetMix("c1", nil, false)
		subA.flowing(t, "audio/65", 50)
	})

	t.Run("speaker", func(t *testing.T) {
		bc := rg.subscribe("c1", "", "sub")
		_ = rg.sfu.SetBroadcast("c1", Broadcast{Speaker: b.mtID})
		bc.flowing(t, "video/66", 50)
		bc.flowing(t, "audio/66", 50)
		stopped(t, bc, "video/65", bc, "video/66")
		_ = rg.sfu.SetBroadcast("c1", Broadcast{Speaker: a.mtID})
		bc.flowing(t, "video/65", 50)
		stopped(t, bc, "video/66", bc, "video/65")
		stopped(t, bc, "audio/66", bc, "audio/65")
		// Two sources on one outgoing track: one continuous numbering.
		bc.mu.Lock()
		seqs := bc.seqs["video"]
		bc.mu.Unlock()
		for i := 1; i < len(seqs); i++ {
			if d := seqs[i] - seqs[i-1]; d == 0 || d > 100 {
				t.Fatalf("video sequence jumps %d -> %d at packet %d", seqs[i-1], seqs[i], i)
			}
		}
	})

	t.Run("audio levels", func(t *testing.T) {
		waitFor(t, "audio levels of both publishers", func() bool {
			_, _, lv := rg.ev.snapshot()
			return lv[a.mtID] == 30 && lv[b.mtID] == 90
		})
	})

	t.Run("hangup", func(t *testing.T) {
		if err := rg.sfu.Hangup("c1", a.mtID); err != nil {
			t.Fatal(err)
		}
		stopped(t, subA, "video/65", subB, "video/66")
		for _, p := range rg.sfu.Participants("c1") {
			if p == a.mtID {
				t.Fatalf("participants after hangup still list %s", a.mtID)
			}
		}
		_, left, _ := rg.ev.snapshot()
		if len(left) != 0 {
			t.Fatalf("Left called for an engine hangup: %v", left)
		}
		if err := rg.sfu.Hangup("c1", a.mtID); err == nil {
			t.Fatal("second Hangup succeeded")
		}
	})

	t.Run("delete", func(t *testing.T) {
		if code := rg.do(http.MethodDelete, b.location, "both", "", ""); code != http.StatusUnauthorized {
			t.Fatalf("DELETE with another token = %d, want 401", code)
		}
		if code := rg.do(http.MethodDelete, b.location, "pub", "", ""); code != http.StatusOK {
			t.Fatalf("DELETE = %d, want 200", code)
		}
		_, left, _ := rg.ev.snapshot()
		if len(left) != 1 || left[0] != (leftEvent{b.mtID, false}) {
			t.Fatalf("Left events = %v, want [{%s false}]", left, b.mtID)
		}
		if code := rg.do(http.MethodDelete, b.location, "pub", "", ""); code != http.StatusNotFound {
			t.Fatalf("second DELETE = %d, want 404", code)
		}
	})
}

// H.264 (what OBS publishes over WHIP) is forwarded like VP8: a subscriber
// gets it from the first key frame on.
func TestForwardingH264(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	rg.h264 = true
	p := rg.publish("c1", idA, false, "")
	p.run(idA, &sendOpts{level: 127})
	sub := rg.subscribe("c1", "?mt_id="+p.mtID, "sub")
	sub.flowing(t, "video/65", 50)
	sub.flowing(t, "audio/65", 50)
	bc := rg.subscribe("c1", "", "sub")
	bc.flowing(t, "video/65", 50)
}
