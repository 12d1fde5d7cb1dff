package mc_test

import (
	"context"
	"testing"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// enable_rtc, multi_stream and conf_level exist on personal templates from
// 6.1.0.4.0 (seed 001), i.e. API-Level 3: kept and shown at level 3, absent
// at level 1, and untouched by a level-1 modification.
func TestPersonalTemplateAPILevels(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	c.Level = "3"
	id := tplCreate(t, c, tplPersonalBody("rtc", map[string]any{"enable_rtc": 1, "multi_stream": 1, "conf_level": 5}))
	want := map[string]any{"enable_rtc": 1.0, "multi_stream": 1.0, "conf_level": 5.0}
	check := func(level string, present bool) {
		t.Helper()
		c.Level = level
		g := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id, nil))
		it := testserver.MustOK(t, c.Do("GET", tplPath, nil))["personal_templates"].([]any)[0].(map[string]any)
		s := testserver.MustOK(t, c.Do("GET", tplPath+"/"+id+"/simple", nil))
		for k, w := range want {
			for what, m := range map[string]map[string]any{"detail": g, "list": it, "simple": s} {
				if k == "multi_stream" && what != "detail" {
					continue // multi_stream is on the detail only
				}
				v, ok := m[k]
				if present && v != w {
					t.Errorf("level %s %s: %s = %v, want %v", level, what, k, v, w)
				}
				if !present && ok {
					t.Errorf("level %s %s carries %s", level, what, k)
				}
			}
		}
	}
	check("3", true)
	check("1", false)
	c.Level = "" // no header: level 1
	testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("rtc", map[string]any{"enable_rtc": 0, "conf_level": 9}))))
	check("3", true)
	c.Level = "3"
	testserver.MustOK(t, c.Do("POST", tplPath+"/"+id, testserver.Params(t, tplPersonalBody("rtc", map[string]any{"enable_rtc": 0}))))
	want["enable_rtc"] = 0.0
	check("3", true)
}

// Before 5.1.0.2.0 the delete reply carried template_id (seed 001
// 5.1.0.2.0; reference A1). The record is stored directly: creating a
// template through the API of those releases fails validation today (the
// compatibility rules drop call_mode, one_reforming and bind_e164 from such
// requests while the schema still requires them).
func TestPersonalTemplateDeleteReplyByRelease(t *testing.T) {
	for rel, want := range map[string]bool{"5.1.0.1.0": true, "5.1.0.2.0": false} {
		env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Release: rel})
		ctx := context.Background()
		acc, err := env.Store.AccountByUsername(ctx, testserver.AdminUser)
		if err != nil {
			t.Fatal(err)
		}
		now := env.Clock.Now()
		if err := env.Store.CreateRecord(ctx, store.Record{Kind: record.KindPersonalTemplate, ID: "9000042",
			DomainMoid: acc.DomainMoid, OwnerMoid: acc.Moid, Data: []byte(`{"template_id":"9000042","name":"old"}`),
			CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		c := env.LoggedIn(t)
		if g := testserver.MustOK(t, c.Do("GET", tplPath+"/9000042", nil)); g["name"] != "old" {
			t.Fatalf("%s: detail = %v", rel, g)
		}
		r := testserver.MustOK(t, c.Do("DELETE", tplPath+"/9000042", nil))
		if got, ok := r["template_id"]; ok != want || (want && got != "9000042") {
			t.Errorf("%s: delete reply = %v, want template_id present: %v", rel, r, want)
		}
		testserver.MustFail(t, c.Do("GET", tplPath+"/9000042", nil), 99998)
	}
}
