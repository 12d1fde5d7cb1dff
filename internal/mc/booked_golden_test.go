package mc_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateBookedGolden = flag.Bool("update-booked-golden", false, "rewrite testdata/booked_list_golden.txt with the replies given now")

// The booked list has the bytes of testdata/booked_list_golden.txt,
// captured from the code that projected the stored documents with the
// reply schema (issue 40), at releases 5.1.0.4.0, 6.0.0.3.0 and
// 6.1.0.4.0: a plain conference, one with a password, key and members,
// latest first and paged.
func TestBookedListKeepsItsBytes(t *testing.T) {
	var got strings.Builder
	for _, rel := range []string{"5.1.0.4.0", "6.0.0.3.0", "6.1.0.4.0"} {
		env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Auth: cfLongAuth(), Release: rel})
		c := env.LoggedIn(t)
		pairs := []string{cfDomain(t, env, testserver.AdminUser).Moid, "{admin}"}
		for i, extra := range []map[string]any{
			{"x_confer_start_time": "2026-03-01T10:00:00+00:00", "duration": 60},
			{"x_confer_start_time": "2026-03-02T09:30:00+00:00", "duration": 0, "password": "1234", "mute": 1,
				"encrypted_type": 2, "encrypted_key": "k_1", "public_conf": 1, "max_join_mt": 192,
				"invite_members": []any{map[string]any{"name": "hall", "account": "1234567", "account_type": 5, "protocol": 0},
					map[string]any{"name": "room", "account": "10.1.1.1", "account_type": 7, "protocol": 0}}},
		} {
			body := testserver.MustOK(t, c.Do("POST", cfPath, testserver.Params(t, cfInstant(fmt.Sprintf("booked %d", i), extra))))
			pairs = append(pairs, body["conf_id"].(string), fmt.Sprintf("{conf %d}", i))
			if mid, _ := body["meeting_id"].(string); mid != "" {
				pairs = append(pairs, mid, fmt.Sprintf("{meeting %d}", i))
			}
		}
		name := strings.NewReplacer(pairs...)
		for _, q := range []string{"", "?order=1", "?start=1&count=1", "?end_time=2026-03-01T12:00:00%2B00:00"} {
			r := c.Do("GET", cfBooked+q, nil)
			fmt.Fprintf(&got, "%s GET %s\n%s\n", rel, q, name.Replace(r.Raw))
		}
	}
	golden.Check(t, filepath.Join("testdata", "booked_list_golden.txt"), got.String(), *updateBookedGolden)
}
