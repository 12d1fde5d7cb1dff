package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// Notices: appended on their own, or with a record write in its
// transaction (store.WithNotices) — after the record's event, once, and
// not at all when the write is refused.
func TestNotices(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		notice := func(ch, mt string) store.Notice {
			n, err := store.NewNotice("d", "7", ch, map[string]any{"mt_id": mt}, now)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if err := db.AppendNotice(ctx, notice("/applyspeaker", "1")); err != nil {
			t.Fatal(err)
		}
		if err := db.AppendNotice(ctx, store.Notice{DomainMoid: "d", ConfID: "7", Channel: "applyspeaker", Data: []byte(`{}`)}); err == nil {
			t.Fatal("a notice without a channel path was appended")
		}
		rec := store.Record{Kind: "conf", ID: "7", DomainMoid: "d", State: "running", Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
		nctx, ns := store.WithNotices(ctx)
		ns.Set(notice("/playback", "2"))
		if err := db.CreateRecord(nctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := db.SwapRecord(nctx, rec); err != nil { // the notice went with the create
			t.Fatal(err)
		}
		ns.Set(notice("/alarm", "3"))
		if err := db.SwapRecord(nctx, rec); err != store.ErrConflict { // stale version: refused
			t.Fatalf("stale swap = %v", err)
		}
		evs, err := db.EventsSince(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range evs {
			got = append(got, fmt.Sprintf("%s:%s:%s:%s", e.Kind, e.Op, e.ID, e.Data))
		}
		want := `[notice:notify:/applyspeaker:{"mt_id":"1"} conf:create:7: notice:notify:/playback:{"mt_id":"2"} conf:update:7:]`
		if fmt.Sprint(got) != want {
			t.Fatalf("events:\n got %v\nwant %s", got, want)
		}
		if evs[0].OwnerMoid != "7" || evs[0].DomainMoid != "d" || !evs[0].At.Equal(now) {
			t.Fatalf("notice event = %+v", evs[0])
		}
	})
}
