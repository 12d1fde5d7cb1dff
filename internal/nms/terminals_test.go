package nms_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

func member(account string, typ, protocol int) map[string]any {
	return map[string]any{"name": account, "account": account, "account_type": typ, "bitrate": 1024, "protocol": protocol}
}

// domainOf is the user domain moid of a client's account.
func domainOf(t *testing.T, c *testserver.Client) string {
	t.Helper()
	for _, d := range list(get(t, c, "/domains", nil)["domains"]) {
		if d["type"] == "user" {
			return d["moid"].(string)
		}
	}
	t.Fatal("no user domain")
	return ""
}

// Terminals come from the directory (managed) and the conferences
// (unmanaged); a terminal whose calls keep failing raises an alarm that
// clears when it answers; meetings and their terminals come from the
// running conferences; statistics are sampled every quarter hour.
func TestTerminalsAndMeetings(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		ctx := context.Background()
		domain := domainOf(t, c)
		bob := env.Account(t, "other", "bob", true)
		for _, e := range []store.DirectoryEntry{
			{Account: "0512110000001", DomainMoid: domain, Alias: "Room 1", E164: "0512110000001", IP: "10.1.0.1", Behaviour: "answer", AnswerAfter: time.Second},
			{Account: "0512110000002", DomainMoid: domain, Alias: "Room 2", E164: "0512110000002", IP: "10.1.0.2", Behaviour: "offline"},
			{Account: "0512110000009", DomainMoid: domainOf(t, bob), Alias: "Bob's", E164: "0512110000009", Behaviour: "answer"},
		} {
			if err := env.Store.PutDirectoryEntry(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		mts := func() map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, m := range list(get(t, c, "/user_domains/"+domain+"/terminals", nil)["terminals"]) {
				out[m["e164"].(string)] = m
			}
			return out
		}
		got := mts()
		eq(t, "managed terminals", []any{len(got), got["0512110000001"]["online"], got["0512110000002"]["online"], got["0512110000001"]["name"]},
			[]any{2, "online", "offline", "Room 1"})
		failing := got["0512110000002"]["moid"].(string)
		page := get(t, c, "/user_domains/"+domain+"/terminals", url.Values{"start": {"1"}, "count": {"5"}})
		eq(t, "paged", []any{page["total_count"], len(page["terminals"].([]any))}, []any{2, 1})
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/user_domains/"+domainOf(t, bob)+"/terminals", nil), 99992)

		// A conference calls a managed terminal, an unmanaged one (by IP,
		// over SIP) and the offline terminal, three times 10 s apart.
		id := create(t, c, "review", member("0512110000001", 5, 0), member("10.2.0.3", 7, 1), member("0512110000002", 5, 0))
		env.Advance(t, 3*time.Second)
		old := get(t, c, "/old_terminals", nil)
		eq(t, "unmanaged", old, map[string]any{"success": 1, "total_count": 1, "old_terminals": []any{
			map[string]any{"e164": "10.2.0.3", "type": "SIP", "api_level": "", "ip": "10.2.0.3", "online": "online"}}})
		eq(t, "bob's unmanaged", get(t, bob, "/old_terminals", nil)["total_count"], 0)
		warn := func() []map[string]any {
			return list(get(t, c, "/terminals/"+failing+"/unrepaired_warnings", nil)["unrepaired_warnings"])
		}
		eq(t, "one failed call", len(warn()), 0)
		env.Advance(t, 10*time.Second)
		eq(t, "two failed calls", len(warn()), 0)
		env.Advance(t, 10*time.Second)
		ws := warn()
		if len(ws) != 1 {
			t.Fatalf("warnings after three failed calls = %v", ws)
		}
		eq(t, "terminal alarm", []any{ws[0]["device_moid"], ws[0]["device_name"], ws[0]["device_e164"], ws[0]["device_ip"],
			ws[0]["domain_moid"], ws[0]["domain_name"], ws[0]["warning_level"]},
			[]any{failing, "Room 2", "0512110000002", "10.1.0.2", domain, "default", "important"})
		if d := ws[0]["description"].(string); !strings.Contains(d, "3 attempts") || !strings.Contains(d, "offline") {
			t.Errorf("description %q", d)
		}
		testserver.MustFail(t, bob.Do("GET", "/api/v1/nms/terminals/"+failing+"/unrepaired_warnings", nil), 22008)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/terminals/nope/unrepaired_warnings", nil), 22008)

		// Meetings of the service domain and the terminal detail.
		ms := list(get(t, c, "/service_domains/"+nms.ServiceMoid+"/meetings", nil)["meeting"])
		if len(ms) != 1 {
			t.Fatalf("meetings = %v", ms)
		}
		m := ms[0]
		eq(t, "meeting", []any{m["name"], m["e164"], m["bitrate"], m["conf_type"], m["domain_moid"], len(m["meeting_terminals"].([]any)), m["ip_e164"]},
			[]any{"review", id, 1024, 0, domain, 2, []any{"10.2.0.3"}})
		eq(t, "bob's meetings", get(t, bob, "/service_domains/"+nms.ServiceMoid+"/meetings", nil)["meeting"], []any{})
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/service_domains/"+nms.PlatformMoid+"/meetings", nil), 52010)
		detail := list(get(t, c, "/meetings/"+id+"/terminal_detail", nil)["terminals"])
		room1 := byName(t, detail, "e164", "0512110000001")
		eq(t, "terminal detail", []any{room1["name"], room1["ip"], room1["bitrate"], room1["type"], len(room1["primary_video"].([]any))},
			[]any{"Room 1", "10.1.0.1", 1024, "H323", 2})
		up := room1["primary_video"].([]any)[0].(map[string]any)
		eq(t, "uplink", []any{up["up_or_down"], up["video_format"], up["video_up_bitrate"]}, []any{1, "H264", 1024})
		testserver.MustFail(t, bob.Do("GET", "/api/v1/nms/meetings/"+id+"/terminal_detail", nil), 12103)

		// Statistics: a sample now and every quarter hour.
		stat := func(q url.Values) map[string]any {
			return get(t, c, "/service_domains/"+nms.ServiceMoid+"/terminal_online_statistic", q)
		}
		s := stat(nil)
		eq(t, "first sample", s["total_count"], 1)
		first := s["statistic"].([]any)[0].(map[string]any)
		eq(t, "counts", []any{first["domain_moid"], first["h323_online"], first["sip_online"], first["xmpp_online"], first["monitor_online"]},
			[]any{domain, 1, 1, 1, 0})
		env.Advance(t, 15*time.Minute)
		c = env.LoggedIn(t)
		testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+id, nil))
		env.Advance(t, 15*time.Minute)
		c = env.LoggedIn(t)
		s = stat(url.Values{"period": {"lastmonth"}})
		eq(t, "three samples", s["total_count"], 3)
		newest := s["statistic"].([]any)[0].(map[string]any)
		eq(t, "after the conference", []any{newest["h323_online"], newest["sip_online"], newest["xmpp_online"]}, []any{0, 0, 1})
		from := env.Clock.Now().Add(-10 * time.Minute).Format(time.RFC3339)
		eq(t, "window", stat(url.Values{"start_time": {from}})["total_count"], 1)
		eq(t, "paged", len(stat(url.Values{"start": {"1"}, "count": {"1"}})["statistic"].([]any)), 1)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/service_domains/"+nms.ServiceMoid+"/terminal_online_statistic", url.Values{"start_time": {"yesterday"}}), 90400)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/service_domains/x/terminal_online_statistic", nil), 52010)
		bob = env.Client(t)
		testserver.MustOK(t, bob.Login("bob", "pw"))
		for _, x := range list(get(t, bob, "/service_domains/"+nms.ServiceMoid+"/terminal_online_statistic", nil)["statistic"]) {
			eq(t, "bob's samples are his domain's", []any{x["domain_moid"], x["h323_online"]}, []any{domainOf(t, bob), 0})
		}

		// The conference ended: its terminals' alarm cleared.
		eq(t, "cleared with the conference", len(warn()), 0)
	})
}

// A failing terminal's alarm clears when a call to it is answered.
func TestFailingTerminalRecovers(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	ctx := context.Background()
	domain := domainOf(t, c)
	e := store.DirectoryEntry{Account: "0512110000002", DomainMoid: domain, Alias: "Room 2", E164: "0512110000002", Behaviour: "busy"}
	if err := env.Store.PutDirectoryEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	id := create(t, c, "retry", member("0512110000002", 5, 0))
	env.Advance(t, 2*time.Second)
	env.Advance(t, 10*time.Second)
	env.Advance(t, 2*time.Second)
	env.Advance(t, 10*time.Second)
	env.Advance(t, 2*time.Second)
	moid := list(get(t, c, "/user_domains/"+domain+"/terminals", nil)["terminals"])[0]["moid"].(string)
	ws := list(get(t, c, "/terminals/"+moid+"/unrepaired_warnings", nil)["unrepaired_warnings"])
	if len(ws) != 1 || !strings.Contains(ws[0]["description"].(string), "busy") {
		t.Fatalf("warnings = %v, want the busy terminal's", ws)
	}
	// The terminal is free now; calling it again gets an answer.
	e.Behaviour, e.AnswerAfter = "answer", time.Second
	if err := env.Store.PutDirectoryEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	mt := testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id+"/mts", nil))["mts"].([]any)[0].(map[string]any)
	testserver.MustOK(t, c.Do("POST", "/api/v1/vc/confs/"+id+"/online_mts", testserver.Params(t, map[string]any{
		"mts": []any{map[string]any{"mt_id": mt["mt_id"]}}})))
	env.Advance(t, time.Second)
	eq(t, "cleared by the answer", get(t, c, "/terminals/"+moid+"/unrepaired_warnings", nil)["unrepaired_warnings"], []any{})
}
