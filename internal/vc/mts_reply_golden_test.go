package vc_test

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

var updateMtsGolden = flag.Bool("update-mts-golden", false, "rewrite testdata/mts_replies_golden.txt with the replies given now")

// The terminal replies (the list, a terminal's details, a cascade's
// terminals) and the terminal documents the controls write have the
// bytes of testdata/mts_replies_golden.txt, captured from the code that
// projected the stored documents with the reply schemas (issue 40), at
// releases 5.1.0.2.0 and 5.2.0.4.0 and at 6.1.0.4.0's API levels 1 to 3:
// online, offline and subordinate terminals, a subordinate's terminal by
// its cascaded mt_id (both forms), terminals muted, silenced, uploading,
// sending the dual stream, in the mix, recorded and viewing, and one
// stored by an older release without account, account_type, upload, poll
// and its channels.
func TestMtsRepliesKeepTheirBytes(t *testing.T) {
	var got strings.Builder
	for _, rel := range []string{"5.1.0.2.0", "5.2.0.4.0", ""} {
		mtsReplies(t, rel, &got)
	}
	golden.Check(t, filepath.Join("testdata", "mts_replies_golden.txt"), got.String(), *updateMtsGolden)
}

// mtsReplies builds the conferences on a server of release rel (the
// newest when "") and writes their replies and stored terminals to out.
func mtsReplies(t *testing.T, rel string, out *strings.Builder) {
	env, admin := mtsEnv(t, testdb.SQLite(t), testserver.Options{Release: rel})
	var a, b string
	for _, id := range []*string{&a, &b} {
		*id = mtsConf(t, admin, map[string]any{"name": "level"})
	}
	testserver.MustOK(t, mtsAdd(t, admin, a, mtsEntry("10.9.0.1"), mtsEntry("10.9.0.2"), mtsEntry(mtsOffline)))
	testserver.MustOK(t, mtsAdd(t, admin, b, mtsEntry("10.9.0.4"), mtsEntry("10.9.0.5")))
	env.Advance(t, 3*time.Second) // the IP terminals answer
	testserver.MustOK(t, mtsAdd(t, admin, a, mtsEntry(b)))
	env.Advance(t, 3*time.Second)
	put := func(path string, p map[string]any) {
		t.Helper()
		testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+path, testserver.Params(t, p)))
	}
	put(a+"/mts/1/mute", map[string]any{"value": 1})
	put(a+"/mts/2/silence", map[string]any{"value": 1})
	put(a+"/upload", map[string]any{"mt_id": "2"})
	put(a+"/dualstream", map[string]any{"mt_id": "1"})
	put(b+"/upload", map[string]any{"mt_id": "1"})
	put(b+"/upload", map[string]any{"mt_id": "2"}) // 1 uploads no more
	testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+a+"/mixs", testserver.Params(t, map[string]any{"mode": 2,
		"members": []any{map[string]any{"mt_id": "1"}}})))
	if rel == "" { // the recording system's list is the newest's
		testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+a+"/recorders", testserver.Params(t, tlRec("golden", tlVRS(t, admin), 2, "2"))))
	}
	testserver.MustOK(t, admin.Do("POST", "/api/v1/vc/confs/"+a+"/inspections", testserver.Params(t, map[string]any{"mode": 1,
		"src": map[string]any{"type": 1, "mt_id": "1"}, "dst": map[string]any{"mt_id": "2"}})))
	mtsOlder(t, env, b, "2")

	name := func(s string) string { return strings.NewReplacer(a, "{a}", b, "{b}").Replace(s) }
	levels := []string{""}
	if rel == "" {
		levels = []string{"1", "2", "3"}
	}
	for _, level := range levels {
		admin.Level = level
		for _, path := range []string{a + "/mts", a + "/mts/1", a + "/mts/2", a + "/mts/3", a + "/mts/4", a + "/mts/4.1",
			a + "/mts/0.4.2", b + "/mts", b + "/mts/2", a + "/cascades/0/mts", a + "/cascades/4/mts", a + "/cascades/0.4/mts", a + "/upload", b + "/upload"} {
			r := admin.Do("GET", "/api/v1/vc/confs/"+path, nil)
			fmt.Fprintf(out, "%s level %s GET %s\n%s\n", rel, level, name(path), name(r.Raw))
		}
	}
	for _, k := range []struct{ conf, mt string }{{a, "1"}, {a, "2"}, {a, "3"}, {a, "4"}, {b, "1"}, {b, "2"}} {
		rec, err := env.Store.GetRecord(context.Background(), record.KindMT, ctDomainOf(t, env, k.conf), k.conf+"/"+k.mt)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(out, "%s stored %s/%s\n%s\n", rel, name(k.conf), k.mt, name(string(rec.Data)))
	}
}

// mtsOlder rewrites a stored terminal as an older release wrote it:
// without account, account_type, upload, poll and its channels.
func mtsOlder(t *testing.T, env *testserver.Env, confID, mtID string) {
	t.Helper()
	ctx := context.Background()
	rec, err := env.Store.GetRecord(ctx, record.KindMT, ctDomainOf(t, env, confID), confID+"/"+mtID)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"account", "account_type", "upload", "poll", "v_snd_chn", "a_rcv_chn"} {
		delete(doc, k)
	}
	if rec.Data, err = shape.Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := env.Store.SwapRecord(ctx, rec); err != nil {
		t.Fatal(err)
	}
}
