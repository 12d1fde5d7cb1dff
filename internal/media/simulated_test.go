package media_test

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

func TestSimulatedDial(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, testdb.SQLite(t))
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
	b := media.Simulated{Dir: st}
	for _, tc := range []struct {
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
	} {
		c, err := b.Dial(ctx, "1110000", media.Callee{Account: tc.account, Bitrate: 2048})
		if err != nil {
			t.Fatal(err)
		}
		if c.Outcome != tc.outcome || c.After != tc.after || c.Identity.Alias != tc.alias {
			t.Errorf("Dial(%s) = %+v, want %v after %v alias %q", tc.account, c, tc.outcome, tc.after, tc.alias)
		}
	}
}
