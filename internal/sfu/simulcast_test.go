package sfu

import (
	"net/http"
	"testing"
)

// A subscriber asking for a larger size moves to a higher simulcast layer
// only on that layer's key frame.
func TestSimulcastLayerSwitchOnKeyFrame(t *testing.T) {
	rg := newRig(t, nil)
	p := rg.publish("c1", idA, true, "")
	opts := &sendOpts{level: 127, noKeyFor: map[int]bool{2: true}}
	p.run(idA, opts)
	sub := rg.subscribe("c1", "?mt_id="+p.mtID+"&width=320&height=180", "sub")
	sub.flowing(t, "video/65/0", 50)
	if n := sub.total("video/65/1") + sub.total("video/65/2"); n != 0 {
		t.Fatalf("a 320x180 subscriber got %d packets of higher layers", n)
	}

	// Ask for full size while layer f sends no key frame: q continues.
	if code := rg.do(http.MethodPost, sub.location+"/layer", "sub", "application/json", `{"width":1280,"height":720}`); code != http.StatusNoContent {
		t.Fatalf("POST layer = %d, want 204", code)
	}
	sub.flowing(t, "video/65/0", 100)
	if n := sub.total("video/65/2"); n != 0 {
		t.Fatalf("switched to layer f without its key frame (%d packets)", n)
	}

	// Layer f's next key frame (the PLI the switch sent, or the periodic
	// one) completes the switch; q stops.
	opts.mu.Lock()
	opts.noKeyFor = nil
	opts.mu.Unlock()
	sub.flowing(t, "video/65/2", 50)
	stopped(t, sub, "video/65/0", sub, "video/65/2")

	// Down again by layer name.
	if code := rg.do(http.MethodPost, sub.location+"/layer", "sub", "application/json", `{"layer":"h"}`); code != http.StatusNoContent {
		t.Fatalf("POST layer = %d, want 204", code)
	}
	sub.flowing(t, "video/65/1", 50)
	stopped(t, sub, "video/65/2", sub, "video/65/1")
}
