package vc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// crfMember is a creation member named by account: 10.0.1.<n>, the
// terminal that answers as mt_id n when invited n-th (mdAccounts).
func crfMember(n int) map[string]any {
	return map[string]any{"name": fmt.Sprint("mt", n), "account": fmt.Sprintf("10.0.1.%d", n), "account_type": 7}
}

func crfMembers(ns ...int) []any {
	out := []any{}
	for _, n := range ns {
		out = append(out, crfMember(n))
	}
	return out
}

// crfCreate creates a conference through mc inviting 10.0.1.1 to
// 10.0.1.<invited> (they answer 2 s after their call) with the extra
// settings, and returns it as a tlConf.
func crfCreate(t *testing.T, env *testserver.Env, c *testserver.Client, invited int, extra map[string]any) tlConf {
	t.Helper()
	var invite []any
	for i := 1; i <= invited; i++ {
		m := crfMember(i)
		m["bitrate"], m["protocol"] = 1024, 0
		invite = append(invite, m)
	}
	p := map[string]any{"create_type": 1, "name": "created", "bitrate": 1024, "max_join_mt": 8, "duration": 0,
		"call_mode": 2, "call_times": 1, "call_interval": 10, "invite_members": invite,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	for k, v := range extra {
		p[k] = v
	}
	id := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	k := tlConf{env: env, c: c, id: id}
	if extra["x_confer_start_time"] == nil {
		k.domain, _ = k.ok(t, "GET", "", nil)["user_domain_moid"].(string)
	}
	return k
}

// crfEnable reads the conference's mix_enable, vmp_enable and poll_enable.
func crfEnable(t *testing.T, k tlConf) []int {
	t.Helper()
	info := k.ok(t, "GET", "", nil)
	return []int{ctNum(info["mix_enable"]), ctNum(info["vmp_enable"]), ctNum(info["poll_enable"])}
}

// crfHangup hangs terminals up; crfCall calls them again and waits for the
// answer.
func crfHangup(t *testing.T, k tlConf, ids ...string) {
	t.Helper()
	testserver.MustOK(t, mtsDelete(t, k.env, k.c, k.path("/online_mts"), mtsIDs(t, ids...)))
}

func crfCall(t *testing.T, k tlConf, ids ...string) {
	t.Helper()
	testserver.MustOK(t, k.c.Do("POST", k.path("/online_mts"), mtsIDs(t, ids...)))
	k.env.Advance(t, 3*time.Second)
}

// A conference created with mix and vmp settings mixes and composes from
// its start: the places named by account are empty until their terminal
// joins, taken when it joins, emptied when it leaves and taken again when
// it rejoins; a member that never joins leaves its place empty. An
// operator's changes through vc apply to the started features as to any.
func TestCreatedMixAndVMP(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3"
		single := map[string]any{"member_type": 6, "chn_idx": 2,
			"poll": map[string]any{"mode": 1, "num": 0, "keep_time": 10, "members": crfMembers(2, 3)}}
		chosen := func(chn, n int) map[string]any {
			m := crfMember(n)
			m["member_type"], m["chn_idx"] = 1, chn
			return m
		}
		vmp := map[string]any{"mode": 1, "layout": 5, "voice_hint": 0, "broadcast": 1, "show_mt_name": 1,
			"mt_name_style": map[string]any{"font_size": 2, "font_color": "#00FF00", "position": 3},
			"members": []any{chosen(0, 1), map[string]any{"member_type": 2, "chn_idx": 1}, single, chosen(3, 9),
				chosen(7, 2)}} // channel 7 is outside layout 5: left out
		k := crfCreate(t, env, admin, 3, map[string]any{"speaker": crfMember(3),
			"mix": map[string]any{"mode": 2, "members": crfMembers(1, 2, 9)}, "vmp": vmp})

		// Started before any terminal answered: every place is empty.
		tlEq(t, "mix at the start", k.ok(t, "GET", "/mixs/1", nil), map[string]any{"success": 1, "mode": 2, "members": []any{}})
		tlEq(t, "panes at the start", mdPanes(t, k), map[int]string{0: "", 1: "", 2: "", 3: ""})
		tlEq(t, "enable flags", crfEnable(t, k), []int{1, 1, 0})

		env.Advance(t, 3*time.Second)
		tlEq(t, "mix after the answers", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1", "2"))
		got := k.ok(t, "GET", "/vmps/1", nil)
		for _, f := range []string{"mode", "layout", "broadcast", "voice_hint", "show_mt_name", "except_self"} {
			tlEq(t, "composition "+f, got[f], map[string]any{"mode": 1, "layout": 5, "broadcast": 1, "voice_hint": 0,
				"show_mt_name": 1, "except_self": 0}[f])
		}
		tlEq(t, "name style", got["mt_name_style"], map[string]any{"font_size": 2, "font_color": "#00FF00", "position": 3})
		tlEq(t, "panes after the answers", mdPanes(t, k), map[int]string{0: "1", 1: "3", 2: "2", 3: ""})
		poll := got["members"].([]any)[2].(map[string]any)["poll"]
		tlEq(t, "single-channel poll", poll, map[string]any{"num": 0, "keep_time": 10, "poll_index": 1, "members": mdAccounts("2", "3")})
		tlEq(t, "flags", []any{mdFlags(t, k, "mix", "1", "2", "3"), mdFlags(t, k, "vmp", "1", "2", "3")},
			[]any{[]int{1, 1, 0}, []int{1, 1, 1}})
		env.Advance(t, 10*time.Second)
		tlEq(t, "single-channel poll turns", mdPanes(t, k)[2], "3")

		// Terminal 1 leaves: its places empty; it rejoins: it has them back.
		crfHangup(t, k, "1")
		tlEq(t, "mix without 1", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("2"))
		tlEq(t, "panes without 1", mdPanes(t, k), map[int]string{0: "", 1: "3", 2: "3", 3: ""})
		tlEq(t, "flags of 1 gone", []any{mdFlags(t, k, "mix", "1"), mdFlags(t, k, "vmp", "1")}, []any{[]int{0}, []int{0}})
		crfCall(t, k, "1")
		tlEq(t, "mix with 1 again", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("2", "1"))
		tlEq(t, "panes with 1 again", mdPanes(t, k), map[int]string{0: "1", 1: "3", 2: "3", 3: ""})
		tlEq(t, "flags of 1 again", []any{mdFlags(t, k, "mix", "1"), mdFlags(t, k, "vmp", "1")}, []any{[]int{1}, []int{1}})

		// Terminal 3 is removed: it leaves the single-channel poll, which
		// goes on with 2; added again (a new mt_id), it polls again.
		testserver.MustOK(t, mtsDelete(t, env, admin, k.path("/mts"), mtsIDs(t, "3")))
		tlEq(t, "poll without 3", k.ok(t, "GET", "/vmps/1", nil)["members"].([]any)[2].(map[string]any)["poll"].(map[string]any)["members"],
			mdAccounts("2"))
		testserver.MustOK(t, mtsAdd(t, admin, k.id, mtsEntry("10.0.1.3")))
		env.Advance(t, 3*time.Second)
		members := k.ok(t, "GET", "/vmps/1", nil)["members"].([]any)[2].(map[string]any)["poll"].(map[string]any)["members"]
		tlEq(t, "poll with 3 again", members, []any{map[string]any{"account": "10.0.1.2", "mt_id": "2"},
			map[string]any{"account": "10.0.1.3", "mt_id": "4"}})

		// An operator removes 2 from the mix: it does not come back.
		testserver.MustOK(t, tlDelete(t, env, admin, k.path("/mixs/1/members"), map[string]any{"members": mdMembers("2")}))
		crfHangup(t, k, "2")
		crfCall(t, k, "2")
		tlEq(t, "mix after the operator's removal", k.ok(t, "GET", "/mixs/1", nil)["members"], mdAccounts("1"))
		// A composition the operator modifies holds what was sent: 1 leaving
		// and rejoining no longer takes channel 0.
		k.ok(t, "PUT", "/vmps/1", mdVMP(1, 5, mdChn(0, 1, "1")))
		crfHangup(t, k, "1")
		crfCall(t, k, "1")
		tlEq(t, "panes of the operator's composition", mdPanes(t, k), map[int]string{})
		// A stopped mix stays stopped.
		k.ok(t, "DELETE", "/mixs/1", nil)
		crfHangup(t, k, "1")
		crfCall(t, k, "1")
		k.fail(t, 20812, "GET", "/mixs/1", nil)
		tlEq(t, "enable flags at the end", crfEnable(t, k), []int{0, 1, 0})
	})
}

// A booked conference starts its creation's poll, automatic composition
// and recording when it starts. The poll waits for its members, takes
// them as they join, skips one that is gone and stops when none is left;
// settings vc would refuse start nothing, and the rest still starts.
func TestCreatedBookedPollAndRecorder(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		admin.Level = "3"
		start := env.Clock.Now().Add(10 * time.Minute)
		k := crfCreate(t, env, admin, 2, map[string]any{"name": "board: weekly",
			"x_confer_start_time": start.Format(time.RFC3339), "duration": 60,
			"poll":     map[string]any{"mode": 3, "num": 0, "keep_time": 20, "members": crfMembers(2, 1, 9)},
			"vmp":      map[string]any{"mode": 2, "layout": 2, "voice_hint": 1, "broadcast": 0, "show_mt_name": 0, "members": []any{}},
			"recorder": map[string]any{"publish_mode": 1, "dual_stream": 0, "anonymous": 1, "recorder_mode": 1, "vrs_id": ""}})
		k.fail(t, 12103, "GET", "/mixs/1", nil)

		env.Advance(t, 10*time.Minute)
		k.domain, _ = k.ok(t, "GET", "", nil)["user_domain_moid"].(string)
		tlEq(t, "enable flags at the start", crfEnable(t, k), []int{0, 1, 1})
		tlEq(t, "poll waiting", k.ok(t, "GET", "/poll", nil), map[string]any{"success": 1, "state": 1, "mode": 3,
			"num": 0, "keep_time": 20, "poll_index": 0, "cur_poll_mt": map[string]any{"mt_id": ""},
			"members": []any{map[string]any{"account": "10.0.1.2", "mt_id": ""}, map[string]any{"account": "10.0.1.1", "mt_id": ""},
				map[string]any{"account": "10.0.1.9", "mt_id": ""}}})
		recs := k.ok(t, "GET", "/recorders", nil)["recorders"].([]any)
		if len(recs) != 1 {
			t.Fatalf("recordings at the start: %v", recs)
		}
		rec := recs[0].(map[string]any)
		want := "board weekly-" + k.id + "-" + start.UTC().Format("20060102150405")
		tlEq(t, "recording", []any{rec["video_name"], rec["recorder_type"], rec["recorder_mode"], rec["publish_mode"], rec["anonymous"], rec["state"]},
			[]any{want, 1, 1, 1, 1, 1})

		env.Advance(t, 3*time.Second)
		got := k.ok(t, "GET", "/poll", nil)
		tlEq(t, "poll members joined", got["members"], []any{map[string]any{"account": "10.0.1.2", "mt_id": "2"},
			map[string]any{"account": "10.0.1.1", "mt_id": "1"}, map[string]any{"account": "10.0.1.9", "mt_id": ""}})
		first := got["cur_poll_mt"].(map[string]any)["mt_id"]
		// The first to join (1) is polled first; 9 never joins and is skipped.
		tlEq(t, "polled first", []any{got["poll_index"], first}, []any{2, "1"})
		tlEq(t, "automatic panes", mdPanes(t, k), map[int]string{0: "1", 1: "2"})
		env.Advance(t, 20*time.Second)
		tlEq(t, "polled next", k.ok(t, "GET", "/poll", nil)["cur_poll_mt"], map[string]any{"mt_id": "2"})

		crfHangup(t, k, "2")
		tlEq(t, "poll without 2", k.ok(t, "GET", "/poll", nil)["cur_poll_mt"], map[string]any{"mt_id": "1"})
		crfHangup(t, k, "1")
		tlEq(t, "poll without members stops", k.ok(t, "GET", "/poll", nil)["state"], 0)
		tlEq(t, "enable flags at the end", crfEnable(t, k), []int{0, 1, 0})

		// Settings vc refuses: a batch-poll mode without its poll.
		bad := crfCreate(t, env, admin, 1, map[string]any{
			"vmp":  map[string]any{"mode": 3, "layout": 2, "voice_hint": 0, "broadcast": 0, "show_mt_name": 0, "members": []any{}},
			"mix":  map[string]any{"mode": 1},
			"poll": map[string]any{"mode": 1, "num": 0, "keep_time": 0, "members": crfMembers(1)}})
		bad.fail(t, 20823, "GET", "/vmps/1", nil)
		tlEq(t, "smart mix", bad.ok(t, "GET", "/mixs/1", nil), map[string]any{"success": 1, "mode": 1, "members": []any{}})
		tlEq(t, "enable flags of refused settings", crfEnable(t, bad), []int{1, 0, 0})
		if strings.Contains(fmt.Sprint(bad.ok(t, "GET", "/recorders", nil)["recorders"]), "rec_id") {
			t.Error("a conference without recorder settings records")
		}
	})
}
