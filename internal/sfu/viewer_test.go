package sfu

import (
	"slices"
	"testing"
)

// A plain WHEP viewer (a player) receives what it asks for and is no
// participant (issue 35): the engine hears of no join, the room does not
// list it, and a full conference still admits it; a join page that
// watches (kind=browser) is a participant.
func TestWHEPViewerWatches(t *testing.T) {
	t.Parallel()
	rg := newRig(t, nil)
	a := rg.publish("c1", idA, false, "?name=alice")
	a.run(idA, &sendOpts{level: 30})
	joined, _, _ := rg.ev.snapshot()
	v := rg.viewer("c1", "?mt_id="+a.mtID+"&name=Viewer", "sub")
	v.flowing(t, "audio/65", 20)
	v.flowing(t, "video/65", 20)
	if n, _, _ := rg.ev.snapshot(); n != joined {
		t.Errorf("the viewer was announced: %d joins, want %d", n, joined)
	}
	if ps := rg.sfu.Participants("c1"); !slices.Equal(ps, []string{a.mtID}) {
		t.Errorf("participants %v, want only the publisher %s", ps, a.mtID)
	}
	for _, p := range rg.state(t, "c1", "").Participants {
		if p.Name == "Viewer" {
			t.Errorf("the state lists the viewer: %+v", p)
		}
	}
	page := rg.subscribe("c1", "?mt_id="+a.mtID+"&name=Watcher", "sub")
	page.flowing(t, "audio/65", 20)
	if n, _, _ := rg.ev.snapshot(); n != joined+1 {
		t.Errorf("a watching join page was not announced: %d joins, want %d", n, joined+1)
	}

	// "small" holds one participant: a viewer is still admitted.
	s := rg.publish("small", 67, false, "")
	s.run(67, &sendOpts{})
	sv := rg.viewer("small", "?mt_id="+s.mtID, "sub")
	sv.flowing(t, "audio/67", 20)
}
