package mc_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateRepliesGolden = flag.Bool("update-replies-golden", false, "rewrite testdata/replies_golden.txt with the replies given now")

// replyIDs names the members whose values a run chooses (ids, numbers,
// the stored file's name and time): the golden file holds a name for
// each, numbered in the order first seen.
var replyIDs = regexp.MustCompile(`"(id|template_id|conf_id|meeting_id|file_id|file_url|create_time|creator_moid|account)":"([^"]*)"`)

// The replies of mc's changes (areas, rooms, personal and public
// templates, conferences instant and booked, meeting files), of a
// booked conference's detail and of its resources and
// platforms have the bytes of testdata/replies_golden.txt, captured from
// the code that wrote them as wire objects (issue 40), at releases
// 5.0.0.4.1, 5.1.0.1.0, 5.2.0.4.0, 6.0.0.3.0 and 6.1.0.4.0: a template's deletion
// carries template_id before 5.1.0.2.0, areas and rooms are not served
// before their releases (only the creation is asked then: the 90405 of
// a later call lists the allowed methods in no fixed order).
func TestChangeRepliesKeepTheirBytes(t *testing.T) {
	var got strings.Builder
	for _, rel := range []string{"5.0.0.4.1", "5.1.0.1.0", "5.2.0.4.0", "6.0.0.3.0", "6.1.0.4.0"} {
		env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Auth: cfLongAuth(), Release: rel,
			MC: mc.Config{FilesDir: filepath.Join(t.TempDir(), "files")}})
		c := env.LoggedIn(t)
		names := map[string]string{}   // "member value": its name
		byValue := map[string]string{} // value: its name
		named := func(raw string) string {
			return replyIDs.ReplaceAllStringFunc(raw, func(m string) string {
				kv := replyIDs.FindStringSubmatch(m)
				key := kv[1] + " " + kv[2]
				if _, ok := names[key]; !ok {
					names[key] = fmt.Sprintf("{%s %d}", kv[1], len(names))
					byValue[kv[2]] = names[key]
				}
				return fmt.Sprintf("%q:%q", kv[1], names[key])
			})
		}
		var body map[string]any
		call := func(method, path string, params map[string]any) {
			t.Helper()
			var r testserver.Reply
			if params == nil {
				r = c.Do(method, path, nil)
			} else {
				r = c.Do(method, path, testserver.Params(t, params))
			}
			body = r.Body
			shown := path
			if i := strings.LastIndexByte(path, '/'); i > 0 && byValue[path[i+1:]] != "" {
				shown = path[:i+1] + byValue[path[i+1:]]
			}
			fmt.Fprintf(&got, "%s %s %s\n%s\n", rel, method, shown, named(r.Raw))
		}
		str := func(k string) string { s, _ := body[k].(string); return s }

		call("POST", areaPath, map[string]any{"area": "hall"})
		if area := str("id"); area != "" {
			call("POST", areaPath+"/"+area, map[string]any{"area": "hall 2"})
			call("DELETE", areaPath+"/"+area, nil)
		}

		call("POST", vmrPath, vmrBody("room", nil))
		if room := str("id"); room != "" {
			call("POST", vmrPath+"/"+room, vmrBody("room 2", nil))
			call("DELETE", vmrPath+"/"+room, nil)
		}

		for _, p := range []struct {
			path string
			body map[string]any
		}{{tplPath, tplPersonalBody("personal", nil)}, {tplPublicPath, tplPublicBody("public", map[string]any{"max_join_mt": 8})}} {
			call("POST", p.path, p.body)
			if tpl := str("template_id"); tpl != "" {
				p.body["name"] = "renamed"
				call("POST", p.path+"/"+tpl, p.body)
				call("DELETE", p.path+"/"+tpl, nil)
			}
		}

		call("POST", cfPath, cfInstant("conference", nil))
		conf, meeting := str("conf_id"), str("meeting_id")
		if meeting != "" { // meeting files are kept from 6.1.0.4.0, by meeting_id
			up := mfUpload(t, env, c, meeting, "file", "notes.txt", []byte("notes"))
			fmt.Fprintf(&got, "%s upload\n%s\n", rel, named(up.Raw))
			f, _ := up.Body["meeting_file"].(map[string]any)
			file, _ := f["file_id"].(string)
			call("DELETE", mfPath+file, nil)
		}
		call("DELETE", cfPath+"/"+conf, nil)
		call("POST", cfPath, cfInstant("booked", map[string]any{"x_confer_start_time": "2026-03-01T10:00:00+00:00", "duration": 60}))
		booked := str("conf_id")
		call("GET", cfBooked+"/"+booked, nil)
		call("DELETE", cfPath+"/"+booked, nil)

		call("GET", "/api/v1/mc/resources", nil)
		call("GET", "/api/v1/mc/platforms", nil)
	}
	golden.Check(t, filepath.Join("testdata", "replies_golden.txt"), got.String(), *updateRepliesGolden)
}
