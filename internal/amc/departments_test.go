package amc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/amc"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// The department tree: create under the root (the user domain) and under
// a department, rename, delete, with the reference's codes for unknown
// departments and sibling names, on both stores.
func TestDepartments(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		rootMoid := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)

		sales := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": rootMoid, "department_name": "sales"})["department_moid"].(string)
		north := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": sales, "department_name": "north"})["department_moid"].(string)
		ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": rootMoid, "department_name": "north"}) // same name, other parent
		fail(t, admin, amc.CodeGroupExists, "POST", depPath, map[string]any{"parent_department_moid": sales, "department_name": "north"})
		fail(t, admin, amc.CodeNoGroup, "POST", depPath, map[string]any{"parent_department_moid": "no-such", "department_name": "x"})
		fail(t, admin, wire.CodeInvalidParam, "POST", depPath, map[string]any{"parent_department_moid": rootMoid, "department_name": "-x"})
		fail(t, admin, wire.CodeInvalidParam, "POST", depPath, map[string]any{"parent_department_moid": rootMoid})

		tree := ok(t, admin, "GET", depPath, nil)
		if tree["department_moid"] != rootMoid || tree["department_name"] != "default" || num(tree["seqencing"]) != 0 {
			t.Fatalf("tree root = %v", tree)
		}
		tops := list(tree, "departments")
		if len(tops) != 2 || tops[0]["department_name"] != "north" || tops[1]["department_name"] != "sales" {
			t.Fatalf("top-level departments (by name) = %v", tops)
		}
		subs := list(tops[1], "departments")
		if len(subs) != 1 || subs[0]["department_moid"] != north || len(list(subs[0], "departments")) != 0 {
			t.Fatalf("sub-departments of sales = %v", subs)
		}

		ok(t, admin, "PUT", depPath+"/"+north, map[string]any{"department_name": "south"})
		fail(t, admin, amc.CodeNoGroup, "PUT", depPath+"/nope", map[string]any{"department_name": "x"})
		fail(t, admin, wire.CodeInvalidParam, "PUT", depPath+"/"+rootMoid, map[string]any{"department_name": "x"})
		// POST with _method=PUT, as the reference allows.
		ok(t, admin, "POST", depPath+"/"+north+"?_method=PUT", map[string]any{"department_name": "south2"})
		tree = ok(t, admin, "GET", depPath, nil)
		if n := list(list(tree, "departments")[1], "departments")[0]["department_name"]; n != "south2" {
			t.Fatalf("renamed department = %v", n)
		}

		// Not empty: a sub-department, then an account.
		fail(t, admin, amc.CodeNotEmpty, "DELETE", depPath+"/"+sales, nil)
		moid := createAcct(t, admin, "dana", map[string]any{"departments": []any{map[string]any{"department_moid": north, "department_position": "lead"}}})
		fail(t, admin, amc.CodeNotEmpty, "DELETE", depPath+"/"+north, nil)
		ok(t, admin, "PUT", acctPath+"/"+moid, map[string]any{"departments": []any{}})
		ok(t, admin, "POST", depPath+"/"+north+"?_method=DELETE", nil)
		ok(t, admin, "DELETE", depPath+"/"+sales, nil)
		fail(t, admin, amc.CodeNoGroup, "DELETE", depPath+"/"+sales, nil)
		fail(t, admin, wire.CodeInvalidParam, "DELETE", depPath+"/"+rootMoid, nil)
		if tops := list(ok(t, admin, "GET", depPath, nil), "departments"); len(tops) != 1 || tops[0]["department_name"] != "north" {
			t.Fatalf("after deletes: %v", tops)
		}
	})
}

// Only administrators change departments (20005, nothing changed); every
// account reads the tree; nobody reaches another domain's departments.
func TestDepartmentPermissions(t *testing.T) {
	env, admin := start(t, testserver.Options{})
	root := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)
	dep := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "ops"})["department_moid"].(string)
	user := env.Account(t, "default", "bob", false)
	fail(t, user, wire.CodeNoPermission, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "x"})
	fail(t, user, wire.CodeNoPermission, "PUT", depPath+"/"+dep, map[string]any{"department_name": "x"})
	fail(t, user, wire.CodeNoPermission, "DELETE", depPath+"/"+dep, nil)
	fail(t, user, wire.CodeNoPermission, "GET", depPath+"/"+dep+"/accounts", nil)
	tops := list(ok(t, user, "GET", depPath, nil), "departments")
	if len(tops) != 1 || tops[0]["department_name"] != "ops" {
		t.Fatalf("tree seen by an ordinary account = %v", tops)
	}

	other := env.Account(t, "north", "nadmin", true)
	fail(t, other, amc.CodeNoGroup, "PUT", depPath+"/"+dep, map[string]any{"department_name": "x"})
	fail(t, other, amc.CodeNoGroup, "DELETE", depPath+"/"+dep, nil)
	fail(t, other, amc.CodeNoGroup, "GET", depPath+"/"+dep+"/accounts", nil)
	fail(t, other, amc.CodeNoGroup, "POST", depPath, map[string]any{"parent_department_moid": dep, "department_name": "x"})
	fail(t, other, amc.CodeNoGroup, "POST", acctPath, acct("nuser", map[string]any{"departments": []any{map[string]any{"department_moid": dep}}}))
	if tops := list(ok(t, other, "GET", depPath, nil), "departments"); len(tops) != 0 {
		t.Fatalf("another domain's tree shows %v", tops)
	}
	if tops := list(ok(t, admin, "GET", depPath, nil), "departments"); len(tops) != 1 || tops[0]["department_name"] != "ops" {
		t.Fatalf("refused changes changed the tree: %v", tops)
	}
}

// The accounts of a department, paged, with the department's fields; the
// root's accounts are those in no department.
func TestDepartmentAccounts(t *testing.T) {
	_, admin := start(t, testserver.Options{})
	root := ok(t, admin, "GET", depPath, nil)["department_moid"].(string)
	dep := ok(t, admin, "POST", depPath, map[string]any{"parent_department_moid": root, "department_name": "ops"})["department_moid"].(string)
	in := []any{map[string]any{"department_moid": dep, "department_position": "engineer"}}
	for _, u := range []string{"amy", "ben", "cat"} {
		createAcct(t, admin, u, map[string]any{"departments": in})
	}
	createAcct(t, admin, "dan", nil)
	r := ok(t, admin, "GET", depPath+"/"+dep+"/accounts", map[string]any{"start": 1, "count": 1})
	as := list(r, "accounts")
	if num(r["total"]) != 3 || len(as) != 1 || as[0]["account"] != "ben" || as[0]["department_moid"] != dep ||
		as[0]["department_name"] != "ops" || as[0]["department_position"] != "engineer" || as[0]["password"] != "" {
		t.Fatalf("page of department accounts = %v", r)
	}
	if r := ok(t, admin, "GET", depPath+"/"+dep+"/accounts", nil); len(list(r, "accounts")) != 3 {
		t.Fatalf("default count: %v", r)
	}
	// The root: admin (made by the fixture) and dan are in no department.
	r = ok(t, admin, "GET", depPath+"/"+root+"/accounts", map[string]any{"count": 0})
	as = list(r, "accounts")
	if num(r["total"]) != 2 || as[0]["account"] != testserver.AdminUser || as[1]["account"] != "dan" || as[1]["department_name"] != "default" {
		t.Fatalf("accounts of the root = %v", r)
	}
	fail(t, admin, amc.CodeNoGroup, "GET", depPath+"/nope/accounts", nil)
}
