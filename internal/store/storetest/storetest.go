// Package storetest is the one test suite that every store.Store
// implementation must pass.
package storetest

import (
	"context"
	"errors"
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
