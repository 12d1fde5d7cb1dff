package krtc_test

import (
	"context"
	"flag"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateStored = flag.Bool("update-stored", false, "rewrite testdata/conf_stored.golden")

// randomIDs are the random meeting ids and moids of a dump, masked.
var randomIDs = regexp.MustCompile(`[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// The stored bytes of a room's conference, created with the defaults and
// with every setting, and changed with the room, are those of
// testdata/conf_stored.golden, written by the map creation before it was
// typed (issue 40), at two releases.
func TestRoomConfStoredBytes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		var out strings.Builder
		for _, rel := range []string{"6.0.0.3.0", "5.2.0.2.0"} {
			env := testserver.Start(t, dsn, testserver.Options{Release: rel})
			c := env.LoggedIn(t)
			me, err := env.Store.AccountByUsername(context.Background(), testserver.AdminUser)
			if err != nil {
				t.Fatal(err)
			}
			w := func(s string) { out.WriteString(rel + " " + s + "\n") }
			dump := func(roomID string) {
				t.Helper()
				got := testserver.MustOK(t, c.Do("GET", roomsPath, nil))
				var id string
				for _, r := range rooms(got) {
					if r["room_id"] == roomID {
						id, _ = r["conf_id"].(string)
					}
				}
				rec, err := env.Store.GetRecord(context.Background(), record.KindConf, me.DomainMoid, id)
				if err != nil {
					t.Fatal(err)
				}
				w("stored: " + string(rec.Data))
				w("read: " + string(c.Do("GET", "/api/v1/vc/confs/"+id, nil).Raw))
			}
			create := func(step string, body map[string]any) string {
				r := jsonReq(t, env, c, "POST", roomsPath, body)
				w(step + ": " + string(r.Raw))
				id, _ := r.Body["room_id"].(string)
				if id != "" {
					dump(id)
				}
				return id
			}
			create("defaults", map[string]any{"room_name": "d " + rel})
			id := create("every setting", room("all 一 "+rel, map[string]any{"max_join_mt": 64, "frame": 25, "resolution": 13, "bitrate": 4096}))
			if id == "" {
				t.Fatalf("room not created: %s", out.String())
			}
			w("update: " + string(jsonReq(t, env, c, "PUT", roomsPath+"/"+id, map[string]any{"room_name": "changed " + rel, "max_join_mt": 192, "bitrate": 1024}).Raw))
			dump(id)
			create("refused", room("bad", map[string]any{"bitrate": 1}))
		}
		golden.Check(t, filepath.Join("testdata", "conf_stored.golden"), randomIDs.ReplaceAllString(out.String(), "<id>"), *updateStored)
	})
}
