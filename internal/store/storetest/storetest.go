// Package storetest is the one test suite that every store.Store
// implementation must pass.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Run runs the suite against a new, empty store from open.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		f    func(t *testing.T, st store.Store)
	}{
		{"domains", testDomains},
		{"licenses", testLicenses},
		{"accounts", testAccounts},
		{"failed logins", testFailLogin},
		{"tokens", testTokens},
		{"sessions", testSessions},
		{"records", testRecords},
		{"counters", testCounters},
		{"directory", testDirectory},
		{"account management", testAccountManagement},
		{"departments", testDepartments},
		{"live sessions", testListSessions},
		{"recent events", testRecentEvents},
		{"count records", testCountRecords},
		{"atomic", testAtomic},
		{"atomic batches", testBatchTx},
		{"concurrent writes", testConcurrentWrites},
		{"guarded writes", testGuarded},
		{"batch reads", testBatchRead},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.f(t, open(t)) })
	}
}

var ctx = context.Background()

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testDomains(t *testing.T, st store.Store) {
	d := store.Domain{Moid: "d1", Name: "north", CreatedAt: t0}
	must(t, st.CreateDomain(ctx, d))
	if err := st.CreateDomain(ctx, store.Domain{Moid: "d2", Name: "north", CreatedAt: t0}); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateDomain(same name) = %v, want ErrDuplicate", err)
	}
	got, err := st.DomainByName(ctx, "north")
	must(t, err)
	if got.Moid != "d1" || !got.CreatedAt.Equal(t0) {
		t.Fatalf("DomainByName = %+v", got)
	}
	if _, err := st.DomainByMoid(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DomainByMoid(nope) = %v, want ErrNotFound", err)
	}
}

func testLicenses(t *testing.T, st store.Store) {
	if n, err := st.CountLicenses(ctx); err != nil || n != 0 {
		t.Fatalf("CountLicenses on empty = %d, %v", n, err)
	}
	must(t, st.PutLicense(ctx, store.License{Key: "k", SecretHash: "h1", CreatedAt: t0}))
	must(t, st.PutLicense(ctx, store.License{Key: "k", SecretHash: "h2", CreatedAt: t0}))
	l, err := st.LicenseByKey(ctx, "k")
	must(t, err)
	if l.SecretHash != "h2" {
		t.Fatalf("re-imported license hash = %q, want h2", l.SecretHash)
	}
	if n, _ := st.CountLicenses(ctx); n != 1 {
		t.Fatalf("CountLicenses = %d, want 1", n)
	}
	if _, err := st.LicenseByKey(ctx, "other"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("LicenseByKey(other) = %v, want ErrNotFound", err)
	}
}

func newAccount(t *testing.T, st store.Store, moid, user string) store.Account {
	t.Helper()
	if _, err := st.DomainByMoid(ctx, "dom"); errors.Is(err, store.ErrNotFound) {
		must(t, st.CreateDomain(ctx, store.Domain{Moid: "dom", Name: "dom", CreatedAt: t0}))
	}
	a := store.Account{Moid: moid, DomainMoid: "dom", Username: user, PasswordHash: "ph", Admin: true, CreatedAt: t0}
	must(t, st.CreateAccount(ctx, a))
	return a
}

func testAccounts(t *testing.T, st store.Store) {
	newAccount(t, st, "a1", "alice")
	err := st.CreateAccount(ctx, store.Account{Moid: "a2", DomainMoid: "dom", Username: "alice", PasswordHash: "x", CreatedAt: t0})
	if !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateAccount(same user name) = %v, want ErrDuplicate", err)
	}
	a, err := st.AccountByUsername(ctx, "alice")
	must(t, err)
	if a.Moid != "a1" || a.DomainName != "dom" || !a.Admin || a.Disabled || a.PasswordHash != "ph" {
		t.Fatalf("AccountByUsername = %+v", a)
	}
	b, err := st.AccountByMoid(ctx, "a1")
	must(t, err)
	if b.Username != "alice" {
		t.Fatalf("AccountByMoid = %+v", b)
	}
	if n, _ := st.CountAccounts(ctx); n != 1 {
		t.Fatalf("CountAccounts = %d, want 1", n)
	}
	if _, err := st.AccountByUsername(ctx, "ALICE"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("user names are case sensitive; got %v", err)
	}
}

func testFailLogin(t *testing.T, st store.Store) {
	newAccount(t, st, "a1", "alice")
	lock := 10 * time.Minute
	for i := 1; i <= 2; i++ {
		at, err := st.FailLogin(ctx, "a1", t0, 3, lock)
		must(t, err)
		if at.Failed != i || !at.LockedUntil.IsZero() {
			t.Fatalf("failure %d: %+v", i, at)
		}
	}
	at, err := st.FailLogin(ctx, "a1", t0, 3, lock)
	must(t, err)
	if at.Failed != 3 || !at.LockedUntil.Equal(t0.Add(lock)) {
		t.Fatalf("third failure: %+v, want locked until %v", at, t0.Add(lock))
	}
	a, _ := st.AccountByMoid(ctx, "a1")
	if a.FailedLogins != 3 || !a.LockedUntil.Equal(t0.Add(lock)) {
		t.Fatalf("stored lock: %+v", a)
	}
	// After the lock ends the count starts again.
	at, err = st.FailLogin(ctx, "a1", t0.Add(lock+time.Second), 3, lock)
	must(t, err)
	if at.Failed != 1 || !at.LockedUntil.IsZero() {
		t.Fatalf("failure after lock ended: %+v", at)
	}
	must(t, st.ResetLogin(ctx, "a1"))
	a, _ = st.AccountByMoid(ctx, "a1")
	if a.FailedLogins != 0 || !a.LockedUntil.IsZero() {
		t.Fatalf("after ResetLogin: %+v", a)
	}
	if _, err := st.FailLogin(ctx, "nope", t0, 3, lock); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("FailLogin(nope) = %v", err)
	}
}

func testTokens(t *testing.T, st store.Store) {
	must(t, st.PutLicense(ctx, store.License{Key: "k", SecretHash: "h", CreatedAt: t0}))
	must(t, st.CreateToken(ctx, store.Token{Hash: "t1", LicenseKey: "k", ExpiresAt: t0.Add(time.Minute)}))
	must(t, st.CreateToken(ctx, store.Token{Hash: "t2", LicenseKey: "k", ExpiresAt: t0.Add(time.Hour)}))
	must(t, st.RenewToken(ctx, "t1", t0, t0.Add(30*time.Minute)))
	tok, err := st.TokenByHash(ctx, "t1")
	must(t, err)
	if !tok.ExpiresAt.Equal(t0.Add(30 * time.Minute)) {
		t.Fatalf("renewed expiry = %v", tok.ExpiresAt)
	}
	if err := st.RenewToken(ctx, "t1", t0.Add(31*time.Minute), t0.Add(time.Hour)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RenewToken(expired) = %v, want ErrNotFound", err)
	}
	n, err := st.DeleteExpired(ctx, t0.Add(40*time.Minute))
	must(t, err)
	if n != 1 {
		t.Fatalf("DeleteExpired removed %d, want 1", n)
	}
	if _, err := st.TokenByHash(ctx, "t1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired token still there: %v", err)
	}
	if _, err := st.TokenByHash(ctx, "t2"); err != nil {
		t.Fatalf("live token removed: %v", err)
	}
}

func testSessions(t *testing.T, st store.Store) {
	newAccount(t, st, "a1", "alice")
	must(t, st.CreateSession(ctx, store.Session{Hash: "s1", AccountMoid: "a1", ExpiresAt: t0.Add(time.Minute)}))
	must(t, st.CreateSession(ctx, store.Session{Hash: "s2", AccountMoid: "a1", ExpiresAt: t0.Add(time.Minute)}))
	if err := st.CreateSession(ctx, store.Session{Hash: "s1", AccountMoid: "a1", ExpiresAt: t0}); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateSession(dup) = %v", err)
	}
	must(t, st.RenewSession(ctx, "s1", t0, t0.Add(time.Hour)))
	s, err := st.SessionByHash(ctx, "s1")
	must(t, err)
	if s.AccountMoid != "a1" || !s.ExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("SessionByHash = %+v", s)
	}
	must(t, st.DeleteSessionsOf(ctx, "a1"))
	if _, err := st.SessionByHash(ctx, "s2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session survived DeleteSessionsOf: %v", err)
	}
}

func testRecords(t *testing.T, st store.Store) {
	rec := func(id, domain, owner, state string, updated time.Duration) store.Record {
		return store.Record{Kind: "tpl", ID: id, DomainMoid: domain, OwnerMoid: owner, State: state,
			Data: []byte(`{"id":"` + id + `"}`), CreatedAt: t0, UpdatedAt: t0.Add(updated)}
	}
	must(t, st.CreateRecord(ctx, rec("1", "d1", "a", "", 3*time.Second)))
	must(t, st.CreateRecord(ctx, rec("2", "d1", "b", "", 1*time.Second)))
	must(t, st.CreateRecord(ctx, rec("3", "d1", "a", "", 2*time.Second)))
	must(t, st.CreateRecord(ctx, rec("4", "d2", "a", "", 0)))
	if err := st.CreateRecord(ctx, rec("1", "d2", "a", "", 0)); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateRecord(dup id) = %v", err)
	}
	ids := func(rs []store.Record) string {
		s := ""
		for _, r := range rs {
			s += r.ID
		}
		return s
	}
	rs, total, err := st.ListRecords(ctx, store.RecordQuery{Kind: "tpl", DomainMoid: "d1"})
	must(t, err)
	if total != 3 || ids(rs) != "231" {
		t.Fatalf("ListRecords asc = %s (total %d), want 231 (3)", ids(rs), total)
	}
	rs, total, _ = st.ListRecords(ctx, store.RecordQuery{Kind: "tpl", DomainMoid: "d1", Desc: true, Start: 1, Count: 1})
	if total != 3 || ids(rs) != "3" {
		t.Fatalf("ListRecords desc page = %s (total %d)", ids(rs), total)
	}
	rs, _, _ = st.ListRecords(ctx, store.RecordQuery{Kind: "tpl", DomainMoid: "d1", Start: 1})
	if ids(rs) != "31" {
		t.Fatalf("ListRecords from 1 = %s", ids(rs))
	}
	rs, total, _ = st.ListRecords(ctx, store.RecordQuery{Kind: "tpl", DomainMoid: "d1", OwnerMoid: "a"})
	if total != 2 || ids(rs) != "31" {
		t.Fatalf("ListRecords owner a = %s", ids(rs))
	}
	// Another domain's record is not found through this domain.
	if _, err := st.GetRecord(ctx, "tpl", "d1", "4"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetRecord across domains = %v", err)
	}
	if err := st.DeleteRecord(ctx, "tpl", "d1", "4"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteRecord across domains = %v", err)
	}
	r := rec("1", "d1", "a", "running", 5*time.Second)
	r.Data = []byte(`{"x":1}`)
	must(t, st.UpdateRecord(ctx, r, ""))
	got, err := st.GetRecord(ctx, "tpl", "d1", "1")
	must(t, err)
	if string(got.Data) != `{"x":1}` || got.State != "running" || !got.UpdatedAt.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("after UpdateRecord: %+v", got)
	}
	// Conditional state change happens once.
	r.State = "ended"
	must(t, st.UpdateRecord(ctx, r, "running"))
	if err := st.UpdateRecord(ctx, r, "running"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second conditional update = %v, want ErrNotFound", err)
	}
	// Due records.
	b := rec("5", "d2", "", "booked", 0)
	b.DueAt = t0.Add(time.Hour)
	must(t, st.CreateRecord(ctx, b))
	due, err := st.DueRecords(ctx, "tpl", "booked", t0.Add(59*time.Minute))
	must(t, err)
	if len(due) != 0 {
		t.Fatalf("due early: %v", due)
	}
	due, _ = st.DueRecords(ctx, "tpl", "booked", t0.Add(time.Hour))
	if len(due) != 1 || due[0].ID != "5" {
		t.Fatalf("DueRecords = %v", due)
	}
	// Optimistic swap: the first writer over a version wins.
	cur, err := st.GetRecord(ctx, "tpl", "d1", "3")
	must(t, err)
	a, b2 := cur, cur
	a.Data, b2.Data = []byte(`{"w":"a"}`), []byte(`{"w":"b"}`)
	must(t, st.SwapRecord(ctx, a))
	if err := st.SwapRecord(ctx, b2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second SwapRecord over the same version = %v, want ErrConflict", err)
	}
	cur, _ = st.GetRecord(ctx, "tpl", "d1", "3")
	if string(cur.Data) != `{"w":"a"}` || cur.Version != a.Version+1 {
		t.Fatalf("after swap: %s version %d", cur.Data, cur.Version)
	}
	gone := cur
	gone.ID = "nope"
	if err := st.SwapRecord(ctx, gone); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SwapRecord of a missing record = %v", err)
	}
	must(t, st.DeleteRecord(ctx, "tpl", "d1", "2"))
	if _, err := st.GetRecord(ctx, "tpl", "d1", "2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted record still there: %v", err)
	}
}

func testCounters(t *testing.T, st store.Store) {
	for _, want := range []int64{100, 101, 102, 100} {
		got, err := st.NextNumber(ctx, "c", 100, 102)
		must(t, err)
		if got != want {
			t.Fatalf("NextNumber = %d, want %d", got, want)
		}
	}
}

func testDirectory(t *testing.T, st store.Store) {
	e := store.DirectoryEntry{Account: "222123", Alias: "mt_shanghai", E164: "222123", IP: "172.16.55.4",
		AccountType: 5, MtType: 1, Behaviour: "answer", AnswerAfter: 1500 * time.Millisecond}
	must(t, st.PutDirectoryEntry(ctx, e))
	got, err := st.DirectoryEntry(ctx, "222123")
	must(t, err)
	if got != e {
		t.Fatalf("DirectoryEntry = %+v, want %+v", got, e)
	}
	e.Behaviour = "busy"
	must(t, st.PutDirectoryEntry(ctx, e))
	must(t, st.PutDirectoryEntry(ctx, store.DirectoryEntry{Account: "111", Behaviour: "offline"}))
	all, err := st.ListDirectory(ctx)
	must(t, err)
	if len(all) != 2 || all[0].Account != "111" || all[1].Behaviour != "busy" {
		t.Fatalf("ListDirectory = %+v", all)
	}
	must(t, st.DeleteDirectoryEntry(ctx, "111"))
	if _, err := st.DirectoryEntry(ctx, "111"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted entry: %v", err)
	}
}

func testAccountManagement(t *testing.T, st store.Store) {
	must(t, st.CreateDomain(ctx, store.Domain{Moid: "dom", Name: "dom", CreatedAt: t0}))
	must(t, st.CreateDomain(ctx, store.Domain{Moid: "other", Name: "other", CreatedAt: t0}))
	must(t, st.CreateDepartment(ctx, store.Department{Moid: "dep1", DomainMoid: "dom", ParentMoid: "dom", Name: "sales", CreatedAt: t0}))
	must(t, st.CreateDepartment(ctx, store.Department{Moid: "dep2", DomainMoid: "dom", ParentMoid: "dom", Name: "ops", CreatedAt: t0}))
	must(t, st.CreateDepartment(ctx, store.Department{Moid: "depx", DomainMoid: "other", ParentMoid: "other", Name: "x", CreatedAt: t0}))
	a := store.Account{Moid: "a1", DomainMoid: "dom", Username: "Alice", PasswordHash: "ph", CreatedAt: t0,
		Name: "Alice A", E164: "1200001", Email: "a@x.org", Mobile: "555", Profile: []byte(`{"sex":0}`),
		Departments: []store.Membership{{DepartmentMoid: "dep2", Position: "lead"}, {DepartmentMoid: "dep1"}}}
	must(t, st.CreateAccount(ctx, a))
	must(t, st.CreateAccount(ctx, store.Account{Moid: "a2", DomainMoid: "dom", Username: "bob", PasswordHash: "ph", CreatedAt: t0.Add(time.Second)}))
	must(t, st.CreateAccount(ctx, store.Account{Moid: "a3", DomainMoid: "other", Username: "carol", PasswordHash: "ph", CreatedAt: t0}))
	got, err := st.AccountByMoid(ctx, "a1")
	must(t, err)
	if got.Name != "Alice A" || got.E164 != "1200001" || got.Email != "a@x.org" || got.Mobile != "555" || string(got.Profile) != `{"sex":0}` {
		t.Fatalf("AccountByMoid = %+v", got)
	}
	if b, _ := st.AccountByMoid(ctx, "a2"); string(b.Profile) != "{}" {
		t.Fatalf("profile of an account without one = %q, want {}", b.Profile)
	}
	// Unique fields name the field at fault.
	for _, tc := range []struct {
		a     store.Account
		field string
	}{
		{store.Account{Username: "alice2", E164: "1200001"}, "e164"},
		{store.Account{Username: "alice2", Email: "a@x.org"}, "email"},
		{store.Account{Username: "alice2", Mobile: "555"}, "mobile"},
		{store.Account{Username: "alice2", Mobile: "1200001"}, "mobile_e164"},
		{store.Account{Username: "alice2", E164: "555"}, "e164_mobile"},
		{store.Account{Username: "bob"}, "account"},
	} {
		tc.a.Moid, tc.a.DomainMoid, tc.a.PasswordHash, tc.a.CreatedAt = "n1", "dom", "x", t0
		err := st.CreateAccount(ctx, tc.a)
		var de *store.DuplicateError
		if !errors.Is(err, store.ErrDuplicate) || !errors.As(err, &de) || de.Field != tc.field {
			t.Fatalf("CreateAccount(%+v) = %v, want duplicate %s", tc.a, err, tc.field)
		}
	}
	if _, err := st.AccountByMoid(ctx, "n1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused account was stored: %v", err)
	}
	// A department of another domain is refused, and nothing is kept.
	err = st.CreateAccount(ctx, store.Account{Moid: "n2", DomainMoid: "dom", Username: "dave", PasswordHash: "x", CreatedAt: t0,
		Departments: []store.Membership{{DepartmentMoid: "depx"}}})
	if !errors.Is(err, store.ErrNoDepartment) {
		t.Fatalf("CreateAccount(other domain's department) = %v", err)
	}
	if _, err := st.AccountByUsername(ctx, "dave"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("account with a refused department was stored: %v", err)
	}

	// Lists: paging, search, department filters, memberships in order.
	names := func(as []store.Account) string {
		var s []string
		for _, a := range as {
			s = append(s, a.Username)
		}
		return strings.Join(s, ",")
	}
	as, total, err := st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom"})
	must(t, err)
	if total != 2 || names(as) != "Alice,bob" {
		t.Fatalf("ListAccounts = %s (%d)", names(as), total)
	}
	if len(as[0].Departments) != 2 || as[0].Departments[0].DepartmentMoid != "dep2" || as[0].Departments[0].DepartmentName != "ops" ||
		as[0].Departments[0].Position != "lead" || as[0].Departments[1].DepartmentName != "sales" {
		t.Fatalf("memberships = %+v", as[0].Departments)
	}
	as, total, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", Start: 1, Count: 1})
	if total != 2 || names(as) != "bob" {
		t.Fatalf("page = %s (%d)", names(as), total)
	}
	as, total, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", Search: "LIC"})
	if total != 1 || names(as) != "Alice" {
		t.Fatalf("search = %s (%d)", names(as), total)
	}
	if as, total, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", Search: "%"}); total != 0 {
		t.Fatalf("search %% = %s, want none (wildcards are literal)", names(as))
	}
	as, _, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", DepartmentMoid: "dep1"})
	if names(as) != "Alice" {
		t.Fatalf("department dep1 = %s", names(as))
	}
	as, _, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", NoDepartment: true})
	if names(as) != "bob" {
		t.Fatalf("no department = %s", names(as))
	}
	as, _, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", Moid: "a3"})
	if len(as) != 0 {
		t.Fatalf("another domain's account listed: %s", names(as))
	}

	// Update: fields, memberships replaced, sessions ended on request.
	must(t, st.CreateSession(ctx, store.Session{Hash: "s1", AccountMoid: "a1", ExpiresAt: t0.Add(time.Hour)}))
	got.Name, got.Email, got.Disabled, got.PasswordHash = "Alice B", "", true, "ph2"
	got.Departments = []store.Membership{{DepartmentMoid: "dep1", Position: "p"}}
	must(t, st.UpdateAccount(ctx, got, false))
	if _, err := st.SessionByHash(ctx, "s1"); err != nil {
		t.Fatalf("session ended without endSessions: %v", err)
	}
	must(t, st.UpdateAccount(ctx, got, true))
	if _, err := st.SessionByHash(ctx, "s1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session survived UpdateAccount(endSessions): %v", err)
	}
	after, _ := st.AccountByMoid(ctx, "a1")
	if after.Name != "Alice B" || after.Email != "" || !after.Disabled || after.PasswordHash != "ph2" || after.Username != "Alice" {
		t.Fatalf("after UpdateAccount: %+v", after)
	}
	as, _, _ = st.ListAccounts(ctx, store.AccountQuery{DomainMoid: "dom", Moid: "a1"})
	if len(as) != 1 || len(as[0].Departments) != 1 || as[0].Departments[0].Position != "p" {
		t.Fatalf("memberships after update: %+v", as)
	}
	// The freed e-mail is free for another account; a taken one is not.
	must(t, st.CreateAccount(ctx, store.Account{Moid: "a4", DomainMoid: "dom", Username: "erin", PasswordHash: "x", CreatedAt: t0, Email: "a@x.org"}))
	b, _ := st.AccountByMoid(ctx, "a2")
	b.E164 = "1200001"
	var de *store.DuplicateError
	if err := st.UpdateAccount(ctx, b, false); !errors.As(err, &de) || de.Field != "e164" {
		t.Fatalf("UpdateAccount(taken e164) = %v", err)
	}
	// Another domain's account is not found through this domain.
	c, _ := st.AccountByMoid(ctx, "a3")
	c.DomainMoid = "dom"
	if err := st.UpdateAccount(ctx, c, false); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UpdateAccount across domains = %v", err)
	}
	if err := st.DeleteAccount(ctx, "dom", "a3"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteAccount across domains = %v", err)
	}
	// Delete: sessions and memberships go too; the E164 number is free.
	must(t, st.CreateSession(ctx, store.Session{Hash: "s2", AccountMoid: "a1", ExpiresAt: t0.Add(time.Hour)}))
	must(t, st.DeleteAccount(ctx, "dom", "a1"))
	if _, err := st.SessionByHash(ctx, "s2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("session survived DeleteAccount: %v", err)
	}
	if _, err := st.AccountByMoid(ctx, "a1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted account: %v", err)
	}
	must(t, st.UpdateAccount(ctx, b, false))
	must(t, st.DeleteDepartment(ctx, "dom", "dep1")) // its only member is gone
}

func testDepartments(t *testing.T, st store.Store) {
	must(t, st.CreateDomain(ctx, store.Domain{Moid: "dom", Name: "dom", CreatedAt: t0}))
	must(t, st.CreateDomain(ctx, store.Domain{Moid: "other", Name: "other", CreatedAt: t0}))
	dep := func(moid, domain, parent, name string, at time.Duration) store.Department {
		return store.Department{Moid: moid, DomainMoid: domain, ParentMoid: parent, Name: name, CreatedAt: t0.Add(at)}
	}
	must(t, st.CreateDepartment(ctx, dep("d1", "dom", "dom", "sales", 0)))
	must(t, st.CreateDepartment(ctx, dep("d2", "dom", "d1", "north", time.Second)))
	must(t, st.CreateDepartment(ctx, dep("d3", "dom", "dom", "north", 2*time.Second))) // same name, other parent
	must(t, st.CreateDepartment(ctx, dep("x1", "other", "other", "sales", 0)))
	if err := st.CreateDepartment(ctx, dep("d4", "dom", "d1", "north", 0)); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("CreateDepartment(sibling name) = %v", err)
	}
	if err := st.CreateDepartment(ctx, dep("d4", "dom", "x1", "y", 0)); !errors.Is(err, store.ErrNoDepartment) {
		t.Fatalf("CreateDepartment(parent of another domain) = %v", err)
	}
	ds, err := st.ListDepartments(ctx, "dom")
	must(t, err)
	if len(ds) != 3 || ds[0].Moid != "d1" || ds[1].ParentMoid != "d1" || ds[2].Moid != "d3" {
		t.Fatalf("ListDepartments = %+v", ds)
	}
	if err := st.RenameDepartment(ctx, "dom", "d3", "sales"); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("RenameDepartment(sibling name) = %v", err)
	}
	must(t, st.RenameDepartment(ctx, "dom", "d3", "south"))
	must(t, st.RenameDepartment(ctx, "dom", "d3", "south")) // its own name
	if err := st.RenameDepartment(ctx, "dom", "x1", "z"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("RenameDepartment across domains = %v", err)
	}
	// A department with a sub-department or an account is not deleted.
	if err := st.DeleteDepartment(ctx, "dom", "d1"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("DeleteDepartment(with child) = %v", err)
	}
	must(t, st.CreateAccount(ctx, store.Account{Moid: "a1", DomainMoid: "dom", Username: "u", PasswordHash: "x", CreatedAt: t0,
		Departments: []store.Membership{{DepartmentMoid: "d2"}}}))
	if err := st.DeleteDepartment(ctx, "dom", "d2"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("DeleteDepartment(with member) = %v", err)
	}
	if err := st.DeleteDepartment(ctx, "dom", "x1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteDepartment across domains = %v", err)
	}
	must(t, st.DeleteAccount(ctx, "dom", "a1"))
	must(t, st.DeleteDepartment(ctx, "dom", "d2"))
	must(t, st.DeleteDepartment(ctx, "dom", "d1"))
	ds, _ = st.ListDepartments(ctx, "dom")
	if len(ds) != 1 || ds[0].Name != "south" {
		t.Fatalf("after deletes: %+v", ds)
	}
}

func testListSessions(t *testing.T, st store.Store) {
	newAccount(t, st, "a1", "alice")
	newAccount(t, st, "a2", "bob")
	must(t, st.CreateDomain(ctx, store.Domain{Moid: "other", Name: "other", CreatedAt: t0}))
	must(t, st.CreateAccount(ctx, store.Account{Moid: "a3", DomainMoid: "other", Username: "carol", PasswordHash: "x", CreatedAt: t0}))
	must(t, st.CreateSession(ctx, store.Session{Hash: "s1", AccountMoid: "a1", ExpiresAt: t0.Add(time.Hour)}))
	must(t, st.CreateSession(ctx, store.Session{Hash: "s2", AccountMoid: "a2", ExpiresAt: t0.Add(time.Minute)}))
	must(t, st.CreateSession(ctx, store.Session{Hash: "s3", AccountMoid: "a3", ExpiresAt: t0.Add(time.Hour)}))
	must(t, st.RenewSession(ctx, "s1", t0, t0.Add(2*time.Hour)))
	ss, err := st.ListSessions(ctx, "dom", t0.Add(30*time.Minute))
	must(t, err)
	if len(ss) != 1 || ss[0].AccountMoid != "a1" || !ss[0].ExpiresAt.Equal(t0.Add(2*time.Hour)) || !ss[0].LoginExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("ListSessions = %+v", ss)
	}
}

func testRecentEvents(t *testing.T, st store.Store) {
	rec := func(id, domain string, at time.Duration) store.Record {
		return store.Record{Kind: "mt", ID: id, DomainMoid: domain, State: "idle", Data: []byte(`{}`), CreatedAt: t0, UpdatedAt: t0.Add(at)}
	}
	for i := 0; i < 40; i++ {
		must(t, st.CreateRecord(ctx, rec(fmt.Sprint("r", i), "d1", time.Duration(i)*time.Minute)))
	}
	must(t, st.CreateRecord(ctx, rec("other", "d2", 39*time.Minute)))
	must(t, st.CreateRecord(ctx, store.Record{Kind: "conf", ID: "c", DomainMoid: "d1", Data: []byte(`{}`), CreatedAt: t0, UpdatedAt: t0.Add(39 * time.Minute)}))
	evs, err := st.RecentEvents(ctx, "mt", "d1", t0.Add(30*time.Minute))
	must(t, err)
	// From 29 minutes on: the minute's margin for clocks of several nodes.
	if len(evs) != 11 || evs[0].ID != "r29" || evs[10].ID != "r39" || !evs[10].At.Equal(t0.Add(39*time.Minute)) || evs[0].Op != store.OpCreate {
		t.Fatalf("RecentEvents = %d events %+v", len(evs), evs)
	}
	if evs, _ := st.RecentEvents(ctx, "mt", "d1", t0.Add(time.Hour)); len(evs) != 0 {
		t.Fatalf("RecentEvents after the last = %+v", evs)
	}
	if evs, _ := st.RecentEvents(ctx, "mt", "d1", time.Time{}); len(evs) != 40 {
		t.Fatalf("RecentEvents from the start = %d", len(evs))
	}
}
