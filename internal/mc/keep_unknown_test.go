package mc_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A modification of a hand-edited template or room keeps what it did not
// change as stored: members no type declares, at the top and nested in a
// member the request did not send, and number text such as 8.0 (the
// typed update dropped them, issue 40; the map code kept them).
func TestUpdateKeepsHandEditedMembers(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Release: "6.0.0.3.0"})
		c := env.LoggedIn(t)
		domain := cfDomain(t, env, testserver.AdminUser).DomainMoid
		// edit adds hand-written members to a stored record.
		const top = `"x_old":{"k":[1,"v",null]}`
		const nested = `"x_nested":"kept"`
		edit := func(kind, id string) {
			t.Helper()
			rec, err := env.Store.GetRecord(context.Background(), kind, domain, id)
			if err != nil {
				t.Fatal(err)
			}
			d := bytes.Replace(rec.Data, []byte(`"mix":{`), []byte(`"mix":{`+nested+`,`), 1)
			rec.Data = append(d[:len(d)-1], []byte(`,`+top+`}`)...)
			if err := env.Store.SwapRecord(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
		}
		check := func(step, kind, id string) {
			t.Helper()
			rec, err := env.Store.GetRecord(context.Background(), kind, domain, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{top, nested} {
				if !bytes.Contains(rec.Data, []byte(want)) {
					t.Errorf("%s: the stored record lost %s: %s", step, want, rec.Data)
				}
			}
		}
		body := map[string]any{"mix": map[string]any{"mode": 1}}
		tpl := tplCreate(t, c, tplPersonalBody("hand", body))
		edit(record.KindPersonalTemplate, tpl)
		testserver.MustOK(t, c.Do("POST", tplPath+"/"+tpl, testserver.Params(t, tplPersonalBody("hand two", nil))))
		check("personal template", record.KindPersonalTemplate, tpl)

		pub := testserver.MustOK(t, c.Do("POST", tplPublicPath, testserver.Params(t, tplPublicBody("hand public", body))))["template_id"].(string)
		edit(record.KindPublicTemplate, pub)
		testserver.MustOK(t, c.Do("POST", tplPublicPath+"/"+pub, testserver.Params(t, tplPublicBody("hand public two", nil))))
		check("public template", record.KindPublicTemplate, pub)

		room := vmrCreate(t, c, vmrBody("hand room", nil))
		edit(record.KindRoom, room)
		testserver.MustOK(t, c.Do("POST", vmrPath+"/"+room, testserver.Params(t, map[string]any{"name": "hand room two", "max_join_mt": 8, "video_formats": []any{
			map[string]any{"format": 4, "resolution": 3, "frame": 30, "bitrate": 8128}}})))
		check("room", record.KindRoom, room)
	})
}
