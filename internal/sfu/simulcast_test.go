package sfu

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/lossy"
)

// overLoss runs a simulcast test directly and through a lossy relay per
// client (3 % loss, up to 20 ms of jitter: lost and reordered key frames,
// issue 35).
func overLoss(t *testing.T, test func(t *testing.T, rg *testRig)) {
	for _, n := range []struct {
		name string
		opts *lossy.Options
	}{{"direct", nil}, {"lossy", &lossy.Network}} {
		t.Run(n.name, func(t *testing.T) {
			rg := newRig(t, func(c *Config) { c.NoBandwidthLayers = true })
			rg.lossy.Store(n.opts)
			test(t, rg)
			if n.opts != nil {
				rg.relayed(t)
			}
		})
	}
}

// A subscriber asking for a larger size moves to a higher simulcast layer
// only on that layer's key frame.
func TestSimulcastLayerSwitchOnKeyFrame(t *testing.T) {
	t.Parallel()
	// Layers chosen by size here; the estimate is driven by hand below
	// (on a loaded loopback GCC's estimate of these tiny packets wanders).
	overLoss(t, testSimulcastLayerSwitch)
}

func testSimulcastLayerSwitch(t *testing.T, rg *testRig) {
	p := rg.publish("c1", idA, true, "")
	opts := &sendOpts{level: 127, noKeyFor: map[int]bool{2: true}}
	p.run(idA, opts)
	// Until the SFU has every layer, a subscriber gets the lowest it has
	// (a loaded machine sets up the q layer's track last at times).
	waitLayers(t, rg, "c1", p.mtID)
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

	// An estimate below what the track sends (congestion) steps the layer
	// down; one that carries the next layer's bitrate lifts it again.
	rg.sfu.mu.Lock()
	sess := rg.sfu.sessions[strings.TrimPrefix(sub.location, PathSession)]
	rg.sfu.mu.Unlock()
	video := sess.downs[1]
	video.setBandwidth(initialBitrate) // starts the rate measurement
	sub.flowing(t, "video/65/1", 50)
	video.setBandwidth(1) // far below the rate just sent
	sub.flowing(t, "video/65/0", 50)
	stopped(t, sub, "video/65/1", sub, "video/65/0")
	video.setBandwidth(initialBitrate)
	sub.flowing(t, "video/65/1", 50)
}

// A layer the publisher stops (CPU or bandwidth adaptation) is left for the
// best layer still sent, without waiting for a periodic key frame.
func TestSimulcastStoppedLayer(t *testing.T) { overLoss(t, testSimulcastStoppedLayer) }

func testSimulcastStoppedLayer(t *testing.T, rg *testRig) {
	p := rg.publish("c1", idA, true, "")
	opts := &sendOpts{level: 127, pliOnly: true}
	p.run(idA, opts)
	sub := rg.subscribe("c1", "?mt_id="+p.mtID, "sub")
	sub.flowing(t, "video/65/2", 50)
	opts.mu.Lock()
	opts.stopped = map[int]bool{2: true}
	opts.mu.Unlock()
	sub.flowing(t, "video/65/1", 50)
}

// waitLayers waits until the SFU receives all three simulcast layers of
// mtID's video.
func waitLayers(t *testing.T, rg *testRig, conf, mtID string) {
	t.Helper()
	waitFor(t, "the three simulcast layers at the SFU", func() bool {
		rm := rg.sfu.room(conf, false)
		if rm == nil {
			return false
		}
		rm.mu.Lock()
		m := rm.members[mtID]
		var r *receiver
		if m != nil {
			r = m.video
		}
		rm.mu.Unlock()
		if r == nil {
			return false
		}
		now := time.Now().UnixNano()
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.live(0, now) && r.live(1, now) && r.live(2, now)
	})
}
