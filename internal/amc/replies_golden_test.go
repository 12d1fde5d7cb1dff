package amc_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateRepliesGolden = flag.Bool("update-replies-golden", false, "rewrite testdata/replies_golden.txt with the replies given now")

// version is the public group's version: a hash over the moids, which
// differ at every run.
var version = regexp.MustCompile(`"version":"[0-9]+"`)

// secret is a member that would show a password or its hash: the
// reference's account has a password member, always "" here.
var secret = regexp.MustCompile(`"password":"[^"]|hash`)

// amc's replies have the bytes of testdata/replies_golden.txt, captured
// from the handlers that wrote their replies as wire objects (issue 40),
// at releases 5.0.0.4.1, 5.2.0.4.0 (the first with approval) and
// 6.1.0.4.0: accounts (created, edited, read, listed, disabled, their
// password reset, deleted), departments (created, renamed, listed, their
// accounts, deleted), the public groups, the approval settings and a
// pending conference approved and one rejected. No reply shows a
// password or its hash (the account's password member is "").
func TestRepliesKeepTheirBytes(t *testing.T) {
	var got strings.Builder
	for _, rel := range []string{"5.0.0.4.1", "5.2.0.4.0", "6.1.0.4.0"} {
		env, admin := start(t, testserver.Options{Auth: longAuth(), Release: rel})
		var pairs []string // the moids, conference numbers and meeting ids, named once the release is done
		var out strings.Builder
		named := func(id, name string) { pairs = append(pairs, id, name) }
		named(account(t, env, "admin").Moid, "{admin}")
		do := func(c *testserver.Client, method, path string, body map[string]any) map[string]any {
			t.Helper()
			r := send(t, c, method, path, body)
			if strings.Contains(r.Raw, "pw_") || strings.Contains(r.Raw, "$2") || secret.MatchString(r.Raw) {
				t.Fatalf("%s %s shows a password: %s", method, path, r.Raw)
			}
			fmt.Fprintf(&out, "%s %s %s\n%s\n", rel, method, path, version.ReplaceAllString(r.Raw, `"version":"{version}"`))
			return testserver.MustOK(t, r)
		}
		root := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)
		named(root, "{root}")
		sales := do(admin, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "sales"})["department_moid"].(string)
		named(sales, "{sales}")
		north := do(admin, "POST", depPath, map[string]any{"parent_department_moid": sales, "department_name": "north"})["department_moid"].(string)
		named(north, "{north}")
		do(admin, "PUT", depPath+"/"+north, map[string]any{"department_name": "south"})
		ivy := do(admin, "POST", acctPath, acct("ivy", map[string]any{"email": "ivy@x.org", "mobile": "100", "binded": 1, "e164": "3330001",
			"ext_num": "025-1", "sex": 1, "departments": []any{map[string]any{"department_moid": sales, "department_position": "lead"}}}))["account_moid"].(string)
		named(ivy, "{ivy}")
		joe := do(admin, "POST", acctPath, acct("joe", nil))["account_moid"].(string)
		named(joe, "{joe}")
		do(admin, "PUT", acctPath+"/"+joe, map[string]any{"name": "Joe", "job_num": "J7", "password": "pw_joe2",
			"departments": []any{map[string]any{"department_moid": north}}})
		do(admin, "GET", acctPath+"/"+ivy, nil)
		do(admin, "GET", acctPath, nil)
		do(admin, "GET", depPath, nil)
		do(admin, "GET", depPath+"/"+sales+"/accounts", nil)
		do(admin, "GET", depPath+"/"+root+"/accounts", nil)
		do(admin, "GET", groupPath, nil)
		do(admin, "GET", groupPath+"/"+root, nil)
		do(admin, "GET", groupPath+"/"+root+"/users", nil)
		do(admin, "PUT", acctPath+"/"+ivy+"/password", map[string]any{"value": "pw_new"})
		do(admin, "PUT", acctPath+"/"+ivy+"/disable", map[string]any{"e164": "3330001"})
		do(admin, "DELETE", acctPath+"/"+joe, nil)
		do(admin, "DELETE", depPath+"/"+north, nil)
		if rel >= "5.2.0.4.0" {
			approval(t, env, admin, do, named)
		}
		got.WriteString(strings.NewReplacer(pairs...).Replace(out.String()))
	}
	golden.Check(t, filepath.Join("testdata", "replies_golden.txt"), got.String(), *updateRepliesGolden)
}

// approval runs the approval endpoints of TestRepliesKeepTheirBytes.
func approval(t *testing.T, env *testserver.Env, admin *testserver.Client,
	do func(*testserver.Client, string, string, map[string]any) map[string]any, named func(id, name string)) {
	do(admin, "GET", apprPath, nil)
	do(admin, "PUT", apprPath, map[string]any{"real_approval": 0, "video_approval": 1})
	user := env.Account(t, "default", "bob", false)
	do(user, "GET", apprPath, nil)
	var ids []string
	for i := range 2 {
		id := ok(t, user, "POST", confPath, confBody(fmt.Sprintf("pending %d", i), nil))["conf_id"].(string)
		named(id, fmt.Sprintf("{conf %d}", i))
		ids = append(ids, id)
	}
	for i, p := range list(ok(t, admin, "GET", pendPath, nil), "confs") {
		if m, _ := p["meeting_id"].(string); m != "" {
			named(m, fmt.Sprintf("{meeting %d}", i))
		}
	}
	do(admin, "POST", pendPath+"/"+ids[0]+"/approve", nil)
	do(user, "DELETE", pendPath+"/"+ids[1], nil)
}
