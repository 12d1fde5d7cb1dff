package media_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// reports records the outcomes reported to it, with the clock's time.
type reports struct {
	media.Events
	clk *clock.Fake
	mu  sync.Mutex
	got map[string][]report
}

type report struct {
	outcome media.Outcome
	at      time.Duration // after the dial
	alias   string
}

var epoch = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func (r *reports) CallOutcome(ctx context.Context, conf, mt string, o media.Outcome, id media.Identity) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got[mt] = append(r.got[mt], report{o, r.clk.Now().Sub(epoch), id.Alias})
	return nil
}

// The simulation reports each call's outcome when the directory says,
// on the injected clock: at once for an offline terminal (before Dial
// returns), later through RunDue for the others; a call ringing when its
// node stops is reported by another node, once.
func TestSimulatedOutcomes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for _, e := range []store.DirectoryEntry{
			{Account: "1001", E164: "1001", Alias: "room-a", Behaviour: "answer", AnswerAfter: 3 * time.Second},
			{Account: "1002", E164: "1002", Behaviour: "offline"},
			{Account: "1003", E164: "1003", Behaviour: "busy"},
			{Account: "1004", E164: "1004", Behaviour: "noanswer"},
		} {
			if err := st.PutDirectoryEntry(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		clk := clock.NewFake(epoch)
		ev := &reports{clk: clk, got: map[string][]report{}}
		dialer := media.Simulation(st, clk)(ev)
		cases := []struct {
			account string
			outcome media.Outcome
			after   time.Duration
			alias   string
		}{
			{"1001", media.Answered, 3 * time.Second, "room-a"},
			{"1002", media.Offline, 0, ""},
			{"1003", media.Busy, time.Second, ""},
			{"1004", media.NoAnswer, media.RingTimeout, ""},
			{"172.16.55.4", media.Answered, media.DefaultAnswerAfter, "172.16.55.4"},
			{"desk@10.0.0.9", media.Answered, media.DefaultAnswerAfter, "desk"},
			{"lobby", media.Answered, media.DefaultAnswerAfter, "lobby"},
			{"9999", media.Answered, media.DefaultAnswerAfter, "9999"}, // issue 13: unknown numbers answer
		}
		for i, tc := range cases {
			id, err := dialer.Dial(ctx, "1110000", tc.account, media.Callee{Account: tc.account, Bitrate: 2048})
			if err != nil || id.Alias != tc.alias {
				t.Fatal(i, id, err)
			}
		}
		// The dialling node stops; two others run the due work each second.
		nodes := []media.DueRunner{
			media.Simulation(st, clk)(ev).(media.DueRunner),
			media.Simulation(st, clk)(ev).(media.DueRunner),
		}
		for s := 0; s <= 31; s++ {
			for _, n := range nodes {
				if err := n.RunDue(ctx); err != nil {
					t.Fatal(err)
				}
			}
			clk.Advance(time.Second)
		}
		for _, tc := range cases {
			got := ev.got[tc.account]
			if len(got) != 1 || got[0] != (report{tc.outcome, tc.after, tc.alias}) {
				t.Errorf("%s: reported %+v, want once %v after %v alias %q", tc.account, got, tc.outcome, tc.after, tc.alias)
			}
		}
		// A conference that ends forgets its calls.
		if _, err := dialer.Dial(ctx, "1110000", "9", media.Callee{Account: "lobby"}); err != nil {
			t.Fatal(err)
		}
		if err := dialer.EndConference(ctx, "1110000"); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Minute)
		if err := nodes[0].RunDue(ctx); err != nil || len(ev.got["9"]) != 0 {
			t.Errorf("a call of an ended conference was reported: %v %v", ev.got["9"], err)
		}
	})
}
