package vrs_test

import (
	"fmt"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The vrs lists read prgs1page and pageid from their generated requests
// (issue 40) as paging.ReadPage read them from the query: a value that is
// absent, 0 or negative is its default (20 a page, page 1), and so is a
// number with spaces around it; one that is not a number is refused by
// validation before the handler.
func TestListPagingEdges(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		v := newVR(t, env, env.LoggedIn(t))
		for i := 1; i <= 3; i++ {
			v.addRecRoom(fmt.Sprint("room", i), fmt.Sprint(200+i), 0, nil)
		}
		for _, c := range []struct {
			name         string
			q            map[string]any
			rows, pageID int
		}{
			{"absent", nil, 3, 1},
			{"size 0", map[string]any{"prgs1page": 0}, 3, 1},
			{"size negative", map[string]any{"prgs1page": -2}, 3, 1},
			{"page 0", map[string]any{"pageid": 0}, 3, 1},
			{"page negative", map[string]any{"pageid": -1}, 3, 1},
			{"both 0", map[string]any{"prgs1page": 0, "pageid": 0}, 3, 1},
			{"size 2 page 2", map[string]any{"prgs1page": 2, "pageid": 2}, 1, 2},
			{"size 2 page negative", map[string]any{"prgs1page": 2, "pageid": -5}, 2, 1},
			{"past the last page", map[string]any{"prgs1page": 2, "pageid": 9}, 0, 9},
			// Validation takes " 2" for 2; the lists read it as absent.
			{"size padded", map[string]any{"prgs1page": " 2"}, 3, 1},
			{"page padded", map[string]any{"prgs1page": 2, "pageid": "2 "}, 2, 1},
		} {
			for _, path := range []string{"/recroom", "/playroom", "/liveroom", "/resroom", "/transtask"} {
				l := v.ok("GET", path, c.q)
				if path != "/recroom" {
					// No rows in these lists: the page id is still read.
					eq(t, c.name+" "+path+" pageid", num(l["pageid"]), c.pageID)
					continue
				}
				eq(t, c.name+" rows", []int{len(l["roomstate"].([]any)), num(l["pageid"]), num(l["roomcount"])}, []int{c.rows, c.pageID, 3})
			}
			eq(t, c.name+" programs pageid", num(v.ok("GET", "/program", withFolder(c.q))["pageid"]), c.pageID)
		}
		for _, q := range []map[string]any{{"prgs1page": "x"}, {"pageid": "1.5"}, {"pageid": "two"}} {
			v.fail(90400, "GET", "/recroom", q)
			v.fail(90400, "GET", "/program", withFolder(q))
		}
	})
}

// withFolder is q with folderid 1 (all programs), which the program list requires.
func withFolder(q map[string]any) map[string]any {
	out := map[string]any{"folderid": 1}
	for k, x := range q {
		out[k] = x
	}
	return out
}
