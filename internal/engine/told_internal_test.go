package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
)

// ownerMedia is the media owner as one node's engine reaches it: it keeps
// the broadcast it was told last, and fails while down is set.
type ownerMedia struct {
	media.Backend
	down    bool
	speaker map[string]string
	sends   int
}

var errOwnerDown = errors.New("media owner unreachable")

func (o *ownerMedia) SetBroadcast(_ context.Context, conf string, b media.Broadcast) error {
	if o.down {
		return errOwnerDown
	}
	o.sends++
	o.speaker[conf] = b.Speaker
	return nil
}

func (o *ownerMedia) SetMix(context.Context, string, media.Mix) error {
	if o.down {
		return errOwnerDown
	}
	o.sends++
	return nil
}

// node is one node's engine driving the shared owner.
func node(clk clock.Clock, owner *ownerMedia) *Engine {
	return New(nil, clk, Config{}, func(media.Events) media.Backend { return owner }, nil, nil)
}

// TestBroadcastRetriedAfterFailedSend: a broadcast the media plane did
// not take is sent again by the next call (issue 35 item 6: it was
// marked as told before it was sent).
func TestBroadcastRetriedAfterFailedSend(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	owner := &ownerMedia{speaker: map[string]string{}}
	e := node(clk, owner)
	c := Conf{ConfID: "1110000", Version: 4}
	owner.down = true
	if err := e.SetBroadcast(context.Background(), c, media.Broadcast{Speaker: "2"}); !errors.Is(err, errOwnerDown) {
		t.Fatalf("SetBroadcast with the owner down = %v", err)
	}
	owner.down = false
	if err := e.SetBroadcast(context.Background(), c, media.Broadcast{Speaker: "2"}); err != nil {
		t.Fatal(err)
	}
	if owner.speaker[c.ConfID] != "2" {
		t.Fatalf("owner shows %q after the retry, want 2", owner.speaker[c.ConfID])
	}
	// The same broadcast at the same version is not sent again.
	if err := e.SetBroadcast(context.Background(), c, media.Broadcast{Speaker: "2"}); err != nil || owner.sends != 1 {
		t.Fatalf("a repeated broadcast: err %v, %d sends, want 1", err, owner.sends)
	}
}

// TestBroadcastOfTwoNodes: node A sets speaker 2, node B sets 3, A sets 2
// again; each change is a new version of the conference record, so A's
// second 2 reaches the owner although A told it 2 before.
func TestBroadcastOfTwoNodes(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	owner := &ownerMedia{speaker: map[string]string{}}
	a, b := node(clk, owner), node(clk, owner)
	ctx := context.Background()
	for i, step := range []struct {
		e       *Engine
		speaker string
	}{{a, "2"}, {b, "3"}, {a, "2"}} {
		if err := step.e.SetBroadcast(ctx, Conf{ConfID: "1110000", Version: int64(i + 1)}, media.Broadcast{Speaker: step.speaker}); err != nil {
			t.Fatal(err)
		}
		if got := owner.speaker["1110000"]; got != step.speaker {
			t.Fatalf("step %d: owner shows %q, want %q", i, got, step.speaker)
		}
	}
}

// TestToldBounded: what was told of conferences idle for toldIdle is
// forgotten, on every node, not only on the one that ended them.
func TestToldBounded(t *testing.T) {
	clk := clock.NewFake(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	owner := &ownerMedia{speaker: map[string]string{}}
	e := node(clk, owner)
	ctx := context.Background()
	for i := range 100 {
		if err := e.SetMix(ctx, Conf{ConfID: fmt.Sprint(1110000 + i)}, media.Mix{All: true}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(toldIdle)
	if err := e.SetMix(ctx, Conf{ConfID: "1119999"}, media.Mix{All: true}); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	left := slices.Collect(maps.Keys(e.told))
	e.mu.Unlock()
	if len(left) != 1 || left[0] != "1119999" {
		t.Fatalf("told after %v idle: %v, want only the conference just told", toldIdle, left)
	}
}
