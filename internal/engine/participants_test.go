package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 8: every call-in, WHIP and WHEP session left a terminal
// record behind, and the records of participants that left counted
// toward max_join_mt: after a flood of calls the conference was full for
// the next caller (486, 409) and for POST /mts (20566). Now they do not
// count, and a conference keeps at most max_join_mt of them.
func TestParticipantsThatLeftNeitherFillNorPile(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env, w := startWatched(t, dsn)
		c := env.LoggedIn(t)
		id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "flood",
			"bitrate": 1024, "max_join_mt": 8, "duration": 0})))["conf_id"].(string)
		ctx := context.Background()
		for i := range 30 { // a flood of short calls
			mt, err := w.events.Joined(ctx, id, media.Participant{Name: fmt.Sprint("caller", i), Kind: "sip"})
			if err != nil {
				t.Fatalf("call %d: %v", i+1, err)
			}
			if err := w.events.Left(ctx, id, mt, false); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.events.Joined(ctx, id, media.Participant{Name: "next", Kind: "browser"}); err != nil {
			t.Fatalf("the next participant after the flood: %v", err)
		}
		testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, map[string]any{
			"mts": []any{map[string]any{"account": "192.0.2.7", "account_type": 7, "protocol": 1, "bitrate": 1024}}})))
		mts := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any)
		if len(mts) > 8+2 {
			t.Errorf("%d terminal records after 30 calls in a conference of 8, want at most 8 that left and the 2 in it", len(mts))
		}
	})
}
