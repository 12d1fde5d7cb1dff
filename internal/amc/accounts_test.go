package amc_test

import (
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/amc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// An account made through amc has every field of the reference's detail,
// logs in through the unified login, and can be found, paged, edited and
// deleted; on both stores.
func TestAccountLifecycle(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		root := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)
		dep := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "44442"})["department_moid"].(string)
		// The reference's example, with binded 2: a number from the automatic range.
		moid := createAcct(t, admin, "ooooooooo", map[string]any{
			"name": "ooooowowowowow", "email": "o@example.org", "mobile": "139 0000-1111", "password": "888888", "binded": 2,
			"e164": "", "sex": 0, "date_of_birth": "2016-11-11T15:30:00+08:00", "ext_num": "025-1252563-222", "fax": "025-1",
			"office_location": "Nanjing", "job_num": "A17", "limited": 0,
			"departments": []any{map[string]any{"department_moid": dep, "department_name": "ignored", "department_position": "C++ engineer"}},
		})
		d := ok(t, admin, "GET", acctPath+"/"+moid, nil)
		want := map[string]any{"account": "ooooooooo", "account_moid": moid, "account_jid": moid + "@confer", "name": "ooooowowowowow",
			"email": "o@example.org", "mobile": "139 0000-1111", "e164": "1200000", "binded": float64(1), "enable": float64(1),
			"sex": float64(0), "date_of_birth": "2016-11-11T15:30:00+08:00", "ext_num": "025-1252563-222", "fax": "025-1",
			"office_location": "Nanjing", "job_num": "A17", "limited": float64(0), "password": ""}
		for k, v := range want {
			if d[k] != v {
				t.Errorf("detail %s = %v, want %v", k, d[k], v)
			}
		}
		deps := list(d, "departments")
		if len(deps) != 1 || deps[0]["department_moid"] != dep || deps[0]["department_name"] != "44442" || deps[0]["department_position"] != "C++ engineer" {
			t.Fatalf("departments = %v", deps)
		}
		// It logs in with its password.
		user := loginAs(t, env, "ooooooooo", "888888")
		// It reads its own account, not others.
		ok(t, user, "GET", acctPath+"/"+moid, nil)
		fail(t, user, wire.CodeNoPermission, "GET", acctPath+"/"+ok(t, admin, "GET", acctPath, map[string]any{"account": "admin"})["accounts"].([]any)[0].(map[string]any)["account_moid"].(string), nil)

		// Manual number, defaults (sex 1, limited 0, enable 1), no number.
		m2 := createAcct(t, admin, "manual", map[string]any{"binded": 1, "e164": "5550001"})
		d2 := ok(t, admin, "GET", acctPath+"/"+m2, nil)
		if d2["e164"] != "5550001" || num(d2["binded"]) != 1 || num(d2["sex"]) != 1 || num(d2["limited"]) != 0 || len(list(d2, "departments")) != 0 {
			t.Fatalf("manual account = %v", d2)
		}
		m3 := createAcct(t, admin, "nonumber", map[string]any{"binded": 0})
		if d3 := ok(t, admin, "GET", acctPath+"/"+m3, nil); d3["e164"] != "" || num(d3["binded"]) != 0 {
			t.Fatalf("account without number = %v", d3)
		}
		// Next automatic number.
		m4 := createAcct(t, admin, "auto2", nil)
		if d4 := ok(t, admin, "GET", acctPath+"/"+m4, nil); d4["e164"] != "1200001" {
			t.Fatalf("second automatic number = %v", d4["e164"])
		}

		// List: every account of the domain, oldest first (then by name:
		// the fake clock stands still), paged; account searches.
		r := ok(t, admin, "GET", acctPath, map[string]any{"count": 0})
		if num(r["total"]) != 5 || len(list(r, "accounts")) != 5 || list(r, "accounts")[0]["account"] != testserver.AdminUser {
			t.Fatalf("list = %v", r)
		}
		r = ok(t, admin, "GET", acctPath, map[string]any{"start": 1, "count": 2})
		if as := list(r, "accounts"); num(r["total"]) != 5 || len(as) != 2 || as[0]["account"] != "auto2" || as[1]["account"] != "manual" {
			t.Fatalf("page = %v", r)
		}
		r = ok(t, admin, "GET", acctPath, map[string]any{"account": "OOO"})
		if as := list(r, "accounts"); num(r["total"]) != 1 || as[0]["account_moid"] != moid || len(list(as[0], "departments")) != 1 {
			t.Fatalf("search = %v", r)
		}

		// Edit: only the fields sent change.
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"name": "New Name", "sex": 1, "departments": []any{}})
		d = ok(t, admin, "GET", acctPath+"/"+moid, nil)
		if d["name"] != "New Name" || num(d["sex"]) != 1 || d["email"] != "o@example.org" || d["job_num"] != "A17" || len(list(d, "departments")) != 0 {
			t.Fatalf("after edit = %v", d)
		}
		// binded 0 frees the number; binded 2 gives a new one.
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"binded": 0})
		if d = ok(t, admin, "GET", acctPath+"/"+moid, nil); d["e164"] != "" {
			t.Fatalf("unbound: %v", d["e164"])
		}
		ok(t, admin, "PUT", acctPath+"/"+m3, map[string]any{"binded": 1, "e164": "1200000"}) // the freed number
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"binded": 2})
		if d = ok(t, admin, "GET", acctPath+"/"+moid, nil); d["e164"] != "1200002" {
			t.Fatalf("rebound automatically: %v", d["e164"])
		}

		// Delete: gone, and its number and e-mail are free.
		ok(t, admin, "DELETE", acctPath+"/"+moid, nil)
		fail(t, admin, wire.CodeUserNotFound, "GET", acctPath+"/"+moid, nil)
		fail(t, admin, wire.CodeUserNotFound, "DELETE", acctPath+"/"+moid, nil)
		createAcct(t, admin, "reuse", map[string]any{"binded": 1, "e164": "1200002", "email": "o@example.org"})
		// POST with _method=DELETE.
		ok(t, admin, "POST", acctPath+"/"+m4+"?_method=DELETE", nil)
		fail(t, admin, wire.CodeUserNotFound, "GET", acctPath+"/"+m4, nil)
	})
}

// The reference's codes for values that are taken or malformed; nothing is
// created.
func TestAccountValidation(t *testing.T) {
	_, admin := start(t, testserver.Options{})
	createAcct(t, admin, "taken", map[string]any{"email": "t@x.org", "mobile": "123", "binded": 1, "e164": "777"})
	for _, tc := range []struct {
		body map[string]any
		code int
		text string
	}{
		{acct("taken", nil), amc.CodeAccountUsed, "taken"},
		{acct(testserver.AdminUser, nil), amc.CodeAccountUsed, ""},
		{acct("123456", nil), amc.CodeDigitsOnly, ""},
		{acct("u1", map[string]any{"email": "t@x.org"}), amc.CodeEmailUsed, ""},
		{acct("u1", map[string]any{"mobile": "123"}), amc.CodeMobileUsed, ""},
		{acct("u1", map[string]any{"mobile": "777"}), amc.CodeMobileIsE164, ""},
		{acct("u1", map[string]any{"binded": 1, "e164": "123"}), amc.CodeMobileIsE164, ""},
		{acct("u1", map[string]any{"binded": 1, "e164": "777"}), amc.CodeE164Exists, ""},
		{acct("u1", map[string]any{"binded": 1}), wire.CodeInvalidParam, "parameter e164"},
		{acct("u1", map[string]any{"binded": 1, "e164": "12a"}), wire.CodeInvalidParam, "parameter e164"},
		{acct("u1", map[string]any{"binded": 3}), wire.CodeInvalidParam, "parameter binded"},
		{acct("u1", map[string]any{"email": "a b@x"}), wire.CodeInvalidParam, "parameter email"},
		{acct("u1", map[string]any{"mobile": "12+3"}), wire.CodeInvalidParam, "parameter mobile"},
		{acct("u1", map[string]any{"fax": "1x"}), wire.CodeInvalidParam, "parameter fax"},
		{acct("u1", map[string]any{"job_num": "a-1"}), wire.CodeInvalidParam, "parameter job_num"},
		{acct("u1", map[string]any{"password": "pass word"}), wire.CodeInvalidParam, "parameter password"},
		{acct("u1", map[string]any{"date_of_birth": "yesterday"}), wire.CodeInvalidParam, "parameter date_of_birth"},
		{acct("u1", map[string]any{"sex": 2}), wire.CodeInvalidParam, "parameter sex"},
		{acct("u1", map[string]any{"departments": []any{map[string]any{"department_moid": "nope"}}}), amc.CodeNoGroup, "departments[0].department_moid"},
		{acct("u1", map[string]any{"departments": []any{map[string]any{"department_name": "x"}}}), wire.CodeInvalidParam, "departments[0].department_moid"},
		{acct("_u1", nil), wire.CodeInvalidParam, "parameter account"},
		{acct("u/1", nil), wire.CodeInvalidParam, "parameter account"},
		{acct(strings.Repeat("u", 65), nil), wire.CodeInvalidParam, "parameter account"},
		{map[string]any{"account": "u1", "password": "x"}, wire.CodeInvalidParam, "parameter name"},
		{map[string]any{"account": "u1", "name": "x"}, wire.CodeInvalidParam, "parameter password"},
	} {
		d := fail(t, admin, tc.code, "POST", acctPath, tc.body)
		if !strings.Contains(d, tc.text) {
			t.Errorf("%v: description %q does not name %q", tc.body, d, tc.text)
		}
	}
	if r := ok(t, admin, "GET", acctPath, nil); num(r["total"]) != 2 {
		t.Fatalf("refused creations left accounts: %v", r)
	}
	// Edits are checked the same way and change nothing when refused.
	moid := createAcct(t, admin, "edited", map[string]any{"binded": 0})
	fail(t, admin, amc.CodeEmailUsed, "PUT", acctPath+"/"+moid, map[string]any{"email": "t@x.org", "name": "changed"})
	fail(t, admin, amc.CodeE164Exists, "PUT", acctPath+"/"+moid, map[string]any{"e164": "777"})
	fail(t, admin, wire.CodeInvalidParam, "PUT", acctPath+"/"+moid, map[string]any{"password": ""})
	fail(t, admin, wire.CodeInvalidParam, "PUT", acctPath+"/"+moid, map[string]any{"name": ""})
	if d := ok(t, admin, "GET", acctPath+"/"+moid, nil); d["name"] != "Real edited" || d["email"] != "" || d["e164"] != "" {
		t.Fatalf("refused edits changed the account: %v", d)
	}
	fail(t, admin, wire.CodeInvalidParam, "PUT", acctPath+"/"+moid+"/password", map[string]any{"value": "a b"})
	fail(t, admin, wire.CodeInvalidParam, "PUT", acctPath+"/"+moid+"/password", map[string]any{})
}

// Only administrators manage accounts: every change by an ordinary account
// is refused with 20005 and changes nothing. Nobody reaches another
// domain's accounts (19001), and an administrator cannot delete or disable
// itself (19007).
func TestAccountPermissions(t *testing.T) {
	env, admin := start(t, testserver.Options{})
	moid := createAcct(t, admin, "target", nil)
	user := env.Account(t, "default", "bob", false)
	for _, tc := range []struct {
		method, path string
		body         map[string]any
	}{
		{"POST", acctPath, acct("new1", nil)},
		{"PUT", acctPath + "/" + moid, map[string]any{"name": "x"}},
		{"DELETE", acctPath + "/" + moid, nil},
		{"GET", acctPath, nil},
		{"GET", acctPath + "/" + moid, nil},
		{"PUT", acctPath + "/" + moid + "/disable", map[string]any{}},
		{"PUT", acctPath + "/" + moid + "/password", map[string]any{"value": "newpw"}},
	} {
		fail(t, user, wire.CodeNoPermission, tc.method, tc.path, tc.body)
	}
	if d := ok(t, admin, "GET", acctPath+"/"+moid, nil); d["name"] != "Real target" || num(d["enable"]) != 1 {
		t.Fatalf("refused changes changed the account: %v", d)
	}
	loginAs(t, env, "target", "pw_target") // password unchanged
	if r := ok(t, admin, "GET", acctPath, map[string]any{"account": "new1"}); num(r["total"]) != 0 {
		t.Fatalf("refused creation created: %v", r)
	}

	other := env.Account(t, "north", "nadmin", true)
	for _, tc := range []struct {
		method, path string
		body         map[string]any
	}{
		{"PUT", acctPath + "/" + moid, map[string]any{"name": "x"}},
		{"DELETE", acctPath + "/" + moid, nil},
		{"GET", acctPath + "/" + moid, nil},
		{"PUT", acctPath + "/" + moid + "/disable", map[string]any{}},
		{"PUT", acctPath + "/" + moid + "/password", map[string]any{"value": "newpw"}},
	} {
		fail(t, other, wire.CodeUserNotFound, tc.method, tc.path, tc.body)
	}
	r := ok(t, other, "GET", acctPath, map[string]any{"count": 0})
	if as := list(r, "accounts"); num(r["total"]) != 1 || as[0]["account"] != "nadmin" {
		t.Fatalf("another domain's list = %v", r)
	}
	loginAs(t, env, "target", "pw_target")

	self := ok(t, admin, "GET", acctPath, map[string]any{"account": testserver.AdminUser})["accounts"].([]any)[0].(map[string]any)["account_moid"].(string)
	fail(t, admin, amc.CodeSelf, "DELETE", acctPath+"/"+self, nil)
	fail(t, admin, amc.CodeSelf, "PUT", acctPath+"/"+self+"/disable", map[string]any{})
	fail(t, admin, amc.CodeSelf, "PUT", acctPath+"/"+self, map[string]any{"enable": 0})
	ok(t, admin, "GET", acctPath+"/"+self, nil)
}
