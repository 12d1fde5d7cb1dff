package amc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/amc"
	"github.com/confer-platform/confer/internal/testserver"
)

// The domain's public group: its departments as groups, its accounts as
// users in the group of each of their departments (the root group when
// none); a version that changes with them; nothing for guests or other
// domains.
func TestPublicGroups(t *testing.T) {
	env, admin := start(t, testserver.Options{})
	root := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)
	gs := list(ok(t, admin, "GET", groupPath, nil), "public_groups")
	if len(gs) != 1 || gs[0]["public_group_moid"] != root || gs[0]["name"] != "default" || gs[0]["version"] == "" {
		t.Fatalf("public groups = %v", gs)
	}
	v1 := gs[0]["version"]
	dep := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "ops"})["department_moid"].(string)
	sub := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": dep, "department_name": "night"})["department_moid"].(string)
	createAcct(t, admin, "ivy", map[string]any{"email": "ivy@x.org", "mobile": "100", "binded": 1, "e164": "3330001", "ext_num": "025-1",
		"departments": []any{map[string]any{"department_moid": dep}, map[string]any{"department_moid": sub}}})
	disabled := createAcct(t, admin, "off", map[string]any{"enable": 0})
	_ = disabled
	user := env.Account(t, "default", "bob", false)
	gs = list(ok(t, user, "GET", groupPath, nil), "public_groups")
	if len(gs) != 1 || gs[0]["version"] == v1 {
		t.Fatalf("version did not change: %v then %v", v1, gs)
	}
	if again := list(ok(t, admin, "GET", groupPath, nil), "public_groups")[0]["version"]; again != gs[0]["version"] {
		t.Fatalf("version changed without a change: %v, %v", gs[0]["version"], again)
	}

	g := ok(t, user, "GET", groupPath+"/"+root, nil)
	groups := list(g, "groups")
	if g["public_group_moid"] != root || len(groups) != 2 || groups[0]["moid"] != dep || groups[0]["parent_moid"] != root ||
		groups[1]["moid"] != sub || groups[1]["parent_moid"] != dep || groups[1]["name"] != "night" {
		t.Fatalf("group = %v", g)
	}
	us := list(ok(t, user, "GET", groupPath+"/"+root+"/users", nil), "users")
	byGroup := map[string][]string{}
	for _, u := range us {
		byGroup[u["group_moid"].(string)] = append(byGroup[u["group_moid"].(string)], u["account"].(string))
		if u["account"] == "ivy" && (u["email"] != "ivy@x.org" || u["e164"] != "3330001" || u["mobile"] != "100" ||
			u["ext_num"] != "025-1" || u["jid"] != u["moid"].(string)+"@confer" || u["name"] != "Real ivy") {
			t.Fatalf("user entry = %v", u)
		}
	}
	if len(us) != 4 || len(byGroup[dep]) != 1 || len(byGroup[sub]) != 1 || len(byGroup[root]) != 2 {
		t.Fatalf("users (disabled accounts left out) = %v", us)
	}

	// Guests see nothing.
	createAcct(t, admin, "guest", map[string]any{"limited": 1})
	g1 := loginAs(t, env, "guest", "pw_guest")
	if gs := list(ok(t, g1, "GET", groupPath, nil), "public_groups"); len(gs) != 0 {
		t.Fatalf("a guest sees %v", gs)
	}
	fail(t, g1, amc.CodeNoGroup, "GET", groupPath+"/"+root, nil)
	fail(t, g1, amc.CodeNoGroup, "GET", groupPath+"/"+root+"/users", nil)

	// Another domain sees its own group only.
	other := env.Account(t, "north", "nadmin", true)
	gs = list(ok(t, other, "GET", groupPath, nil), "public_groups")
	if len(gs) != 1 || gs[0]["public_group_moid"] == root || gs[0]["name"] != "north" {
		t.Fatalf("another domain's groups = %v", gs)
	}
	fail(t, other, amc.CodeNoGroup, "GET", groupPath+"/"+root, nil)
	fail(t, other, amc.CodeNoGroup, "GET", groupPath+"/"+root+"/users", nil)
}
