package amc_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/testserver"
)

var updatePendingGolden = flag.Bool("update-pending-golden", false, "rewrite testdata/pending_list_golden.txt with the replies given now")

// The pending list has the bytes of testdata/pending_list_golden.txt,
// captured from the code that projected the stored documents with the
// reply schema (issue 40), at releases 5.2.0.4.0 (the first with
// approval), 6.0.0.3.0 and 6.1.0.4.0: two conferences of an account
// that is not an administrator, seen by an administrator and by their
// creator, all and paged.
func TestPendingListKeepsItsBytes(t *testing.T) {
	var got strings.Builder
	for _, rel := range []string{"5.2.0.4.0", "6.0.0.3.0", "6.1.0.4.0"} {
		env, admin := start(t, testserver.Options{Auth: longAuth(), Release: rel})
		user := env.Account(t, "default", "bob", false)
		setApproval(t, admin, 1)
		pairs := []string{account(t, env, "bob").Moid, "{bob}"}
		for i, extra := range []map[string]any{{}, {"duration": 30, "max_join_mt": 192}} {
			body := ok(t, user, "POST", confPath, confBody(fmt.Sprintf("pending %d", i), extra))
			pairs = append(pairs, body["conf_id"].(string), fmt.Sprintf("{conf %d}", i))
		}
		for i, p := range list(ok(t, admin, "GET", pendPath, nil), "confs") { // 5.2.0.4.0's creation shows no meeting_id
			pairs = append(pairs, p["meeting_id"].(string), fmt.Sprintf("{meeting %d}", i))
		}
		name := strings.NewReplacer(pairs...)
		for _, c := range []struct {
			who string
			cl  *testserver.Client
		}{{"admin", admin}, {"bob", user}} {
			for _, q := range []string{"", "?start=1&count=1"} {
				r := c.cl.Do("GET", pendPath+q, nil)
				fmt.Fprintf(&got, "%s %s GET %s\n%s\n", rel, c.who, q, name.Replace(r.Raw))
			}
		}
	}
	golden.Check(t, filepath.Join("testdata", "pending_list_golden.txt"), got.String(), *updatePendingGolden)
}
