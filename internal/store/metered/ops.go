package metered

import (
	"context"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// The measured operations of store.Store and the optional interfaces, in
// the order of their declarations. The operation label is the method name.

func (s *Store) CreateDomain(ctx context.Context, d store.Domain) error {
	return s.do("CreateDomain", func() error { return s.Full.CreateDomain(ctx, d) })
}

func (s *Store) DomainByName(ctx context.Context, name string) (store.Domain, error) {
	return val(s, "DomainByName", func() (store.Domain, error) { return s.Full.DomainByName(ctx, name) })
}

func (s *Store) DomainByMoid(ctx context.Context, moid string) (store.Domain, error) {
	return val(s, "DomainByMoid", func() (store.Domain, error) { return s.Full.DomainByMoid(ctx, moid) })
}

func (s *Store) PutLicense(ctx context.Context, l store.License) error {
	return s.do("PutLicense", func() error { return s.Full.PutLicense(ctx, l) })
}

func (s *Store) LicenseByKey(ctx context.Context, key string) (store.License, error) {
	return val(s, "LicenseByKey", func() (store.License, error) { return s.Full.LicenseByKey(ctx, key) })
}

func (s *Store) CountLicenses(ctx context.Context) (int, error) {
	return val(s, "CountLicenses", func() (int, error) { return s.Full.CountLicenses(ctx) })
}

func (s *Store) CreateAccount(ctx context.Context, a store.Account) error {
	return s.do("CreateAccount", func() error { return s.Full.CreateAccount(ctx, a) })
}

func (s *Store) AccountByUsername(ctx context.Context, username string) (store.Account, error) {
	return val(s, "AccountByUsername", func() (store.Account, error) { return s.Full.AccountByUsername(ctx, username) })
}

func (s *Store) AccountByMoid(ctx context.Context, moid string) (store.Account, error) {
	return val(s, "AccountByMoid", func() (store.Account, error) { return s.Full.AccountByMoid(ctx, moid) })
}

func (s *Store) CountAccounts(ctx context.Context) (int, error) {
	return val(s, "CountAccounts", func() (int, error) { return s.Full.CountAccounts(ctx) })
}

func (s *Store) FailLogin(ctx context.Context, accountMoid string, now time.Time, max int, lockFor time.Duration) (store.LoginAttempt, error) {
	return val(s, "FailLogin", func() (store.LoginAttempt, error) {
		return s.Full.FailLogin(ctx, accountMoid, now, max, lockFor)
	})
}

func (s *Store) ResetLogin(ctx context.Context, accountMoid string) error {
	return s.do("ResetLogin", func() error { return s.Full.ResetLogin(ctx, accountMoid) })
}

func (s *Store) UpdateAccount(ctx context.Context, a store.Account, endSessions bool) error {
	return s.do("UpdateAccount", func() error { return s.Full.UpdateAccount(ctx, a, endSessions) })
}

func (s *Store) DeleteAccount(ctx context.Context, domainMoid, moid string) error {
	return s.do("DeleteAccount", func() error { return s.Full.DeleteAccount(ctx, domainMoid, moid) })
}

func (s *Store) ListAccounts(ctx context.Context, q store.AccountQuery) ([]store.Account, int, error) {
	return val2(s, "ListAccounts", func() ([]store.Account, int, error) { return s.Full.ListAccounts(ctx, q) })
}

func (s *Store) CreateDepartment(ctx context.Context, d store.Department) error {
	return s.do("CreateDepartment", func() error { return s.Full.CreateDepartment(ctx, d) })
}

func (s *Store) RenameDepartment(ctx context.Context, domainMoid, moid, name string) error {
	return s.do("RenameDepartment", func() error { return s.Full.RenameDepartment(ctx, domainMoid, moid, name) })
}

func (s *Store) DeleteDepartment(ctx context.Context, domainMoid, moid string) error {
	return s.do("DeleteDepartment", func() error { return s.Full.DeleteDepartment(ctx, domainMoid, moid) })
}

func (s *Store) ListDepartments(ctx context.Context, domainMoid string) ([]store.Department, error) {
	return val(s, "ListDepartments", func() ([]store.Department, error) { return s.Full.ListDepartments(ctx, domainMoid) })
}

func (s *Store) CreateToken(ctx context.Context, t store.Token) error {
	return s.do("CreateToken", func() error { return s.Full.CreateToken(ctx, t) })
}

func (s *Store) TokenByHash(ctx context.Context, hash string) (store.Token, error) {
	return val(s, "TokenByHash", func() (store.Token, error) { return s.Full.TokenByHash(ctx, hash) })
}

func (s *Store) RenewToken(ctx context.Context, hash string, now, expires time.Time) error {
	return s.do("RenewToken", func() error { return s.Full.RenewToken(ctx, hash, now, expires) })
}

func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	return s.do("CreateSession", func() error { return s.Full.CreateSession(ctx, se) })
}

func (s *Store) SessionByHash(ctx context.Context, hash string) (store.Session, error) {
	return val(s, "SessionByHash", func() (store.Session, error) { return s.Full.SessionByHash(ctx, hash) })
}

func (s *Store) RenewSession(ctx context.Context, hash string, now, expires time.Time) error {
	return s.do("RenewSession", func() error { return s.Full.RenewSession(ctx, hash, now, expires) })
}

func (s *Store) DeleteSessionsOf(ctx context.Context, accountMoid string) error {
	return s.do("DeleteSessionsOf", func() error { return s.Full.DeleteSessionsOf(ctx, accountMoid) })
}

func (s *Store) ListSessions(ctx context.Context, domainMoid string, now time.Time) ([]store.Session, error) {
	return val(s, "ListSessions", func() ([]store.Session, error) { return s.Full.ListSessions(ctx, domainMoid, now) })
}

func (s *Store) CreateRecord(ctx context.Context, r store.Record) error {
	return s.do("CreateRecord", func() error { return s.Full.CreateRecord(ctx, r) })
}

func (s *Store) UpdateRecord(ctx context.Context, r store.Record, ifState string) error {
	return s.do("UpdateRecord", func() error { return s.Full.UpdateRecord(ctx, r, ifState) })
}

func (s *Store) SwapRecord(ctx context.Context, r store.Record) error {
	return s.do("SwapRecord", func() error { return s.Full.SwapRecord(ctx, r) })
}

func (s *Store) GetRecord(ctx context.Context, kind, domainMoid, id string) (store.Record, error) {
	return val(s, "GetRecord", func() (store.Record, error) { return s.Full.GetRecord(ctx, kind, domainMoid, id) })
}

func (s *Store) DeleteRecord(ctx context.Context, kind, domainMoid, id string) error {
	return s.do("DeleteRecord", func() error { return s.Full.DeleteRecord(ctx, kind, domainMoid, id) })
}

func (s *Store) ListRecords(ctx context.Context, q store.RecordQuery) ([]store.Record, int, error) {
	return val2(s, "ListRecords", func() ([]store.Record, int, error) { return s.Full.ListRecords(ctx, q) })
}

func (s *Store) DueRecords(ctx context.Context, kind, state string, now time.Time) ([]store.Record, error) {
	return val(s, "DueRecords", func() ([]store.Record, error) { return s.Full.DueRecords(ctx, kind, state, now) })
}

func (s *Store) RecentEvents(ctx context.Context, kind, domainMoid string, from time.Time) ([]store.Event, error) {
	return val(s, "RecentEvents", func() ([]store.Event, error) { return s.Full.RecentEvents(ctx, kind, domainMoid, from) })
}

func (s *Store) AppendNotice(ctx context.Context, n store.Notice) error {
	return s.do("AppendNotice", func() error { return s.Full.AppendNotice(ctx, n) })
}

func (s *Store) NextNumber(ctx context.Context, counter string, min, max int64) (int64, error) {
	return val(s, "NextNumber", func() (int64, error) { return s.Full.NextNumber(ctx, counter, min, max) })
}

func (s *Store) CountRecords(ctx context.Context, q store.RecordQuery) (int, error) {
	return val(s, "CountRecords", func() (int, error) { return s.Full.CountRecords(ctx, q) })
}

// Atomic is measured as a whole, the caller's function included.
func (s *Store) Atomic(ctx context.Context, f func(tx store.Tx) error) error {
	return s.do("Atomic", func() error { return s.Full.Atomic(ctx, f) })
}

func (s *Store) PutDirectoryEntry(ctx context.Context, e store.DirectoryEntry) error {
	return s.do("PutDirectoryEntry", func() error { return s.Full.PutDirectoryEntry(ctx, e) })
}

func (s *Store) DirectoryEntry(ctx context.Context, account string) (store.DirectoryEntry, error) {
	return val(s, "DirectoryEntry", func() (store.DirectoryEntry, error) { return s.Full.DirectoryEntry(ctx, account) })
}

func (s *Store) ListDirectory(ctx context.Context) ([]store.DirectoryEntry, error) {
	return val(s, "ListDirectory", func() ([]store.DirectoryEntry, error) { return s.Full.ListDirectory(ctx) })
}

func (s *Store) DeleteDirectoryEntry(ctx context.Context, account string) error {
	return s.do("DeleteDirectoryEntry", func() error { return s.Full.DeleteDirectoryEntry(ctx, account) })
}

func (s *Store) DeleteExpired(ctx context.Context, now time.Time) (int, error) {
	return val(s, "DeleteExpired", func() (int, error) { return s.Full.DeleteExpired(ctx, now) })
}

func (s *Store) Ping(ctx context.Context) error {
	return s.do("Ping", func() error { return s.Full.Ping(ctx) })
}

// store.EventLog.

func (s *Store) EventsSince(ctx context.Context, seq int64, limit int) ([]store.Event, error) {
	return val(s, "EventsSince", func() ([]store.Event, error) { return s.Full.EventsSince(ctx, seq, limit) })
}

func (s *Store) LastEventSeq(ctx context.Context) (int64, error) {
	return val(s, "LastEventSeq", func() (int64, error) { return s.Full.LastEventSeq(ctx) })
}

func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	return val(s, "PruneEvents", func() (int, error) { return s.Full.PruneEvents(ctx, before) })
}

// store.ConfPager, store.KeyLister, store.GuardedWriter, store.BatchReader
// and store.Claimer.

func (s *Store) ConfsByStart(ctx context.Context, q store.RecordQuery) ([]store.RecordKey, int, error) {
	return val2(s, "ConfsByStart", func() ([]store.RecordKey, int, error) { return s.Full.ConfsByStart(ctx, q) })
}

func (s *Store) RecordKeys(ctx context.Context, kind, state string) ([]store.RecordKey, error) {
	return val(s, "RecordKeys", func() ([]store.RecordKey, error) { return s.Full.RecordKeys(ctx, kind, state) })
}

func (s *Store) CountDomains(ctx context.Context) (int, error) {
	return val(s, "CountDomains", func() (int, error) { return s.Full.CountDomains(ctx) })
}

func (s *Store) GetRecordAndState(ctx context.Context, kind, domainMoid, id, kind2, id2 string) (store.Record, string, error) {
	var state string
	rec, err := val(s, "GetRecordAndState", func() (store.Record, error) {
		r, st, err := s.Full.GetRecordAndState(ctx, kind, domainMoid, id, kind2, id2)
		state = st
		return r, err
	})
	return rec, state, err
}

func (s *Store) SwapRecordWhile(ctx context.Context, r store.Record, kind, id, state string) error {
	return s.do("SwapRecordWhile", func() error { return s.Full.SwapRecordWhile(ctx, r, kind, id, state) })
}

func (s *Store) GetRecords(ctx context.Context, refs []store.RecordRef) (map[store.RecordRef]store.Record, error) {
	return val(s, "GetRecords", func() (map[store.RecordRef]store.Record, error) { return s.Full.GetRecords(ctx, refs) })
}

func (s *Store) Claim(ctx context.Context, name string, now, until time.Time) (bool, error) {
	return val(s, "Claim", func() (bool, error) { return s.Full.Claim(ctx, name, now, until) })
}

// node.Registry (nms).

func (s *Store) PutNode(ctx context.Context, moid, name string, reportedAt time.Time, doc []byte) error {
	return s.do("PutNode", func() error { return s.Full.PutNode(ctx, moid, name, reportedAt, doc) })
}

func (s *Store) ListNodes(ctx context.Context) ([][]byte, error) {
	return val(s, "ListNodes", func() ([][]byte, error) { return s.Full.ListNodes(ctx) })
}

func (s *Store) DeleteNodesBefore(ctx context.Context, t time.Time) (int, error) {
	return val(s, "DeleteNodesBefore", func() (int, error) { return s.Full.DeleteNodesBefore(ctx, t) })
}

func (s *Store) RaiseAlarm(ctx context.Context, deviceMoid, code, domainMoid string, raisedAt time.Time, doc []byte) (bool, error) {
	return val(s, "RaiseAlarm", func() (bool, error) {
		return s.Full.RaiseAlarm(ctx, deviceMoid, code, domainMoid, raisedAt, doc)
	})
}

func (s *Store) ClearAlarm(ctx context.Context, deviceMoid, code string) error {
	return s.do("ClearAlarm", func() error { return s.Full.ClearAlarm(ctx, deviceMoid, code) })
}

func (s *Store) ListAlarms(ctx context.Context) ([][]byte, error) {
	return val(s, "ListAlarms", func() ([][]byte, error) { return s.Full.ListAlarms(ctx) })
}

func (s *Store) AddTerminalStat(ctx context.Context, domainMoid string, at time.Time, doc []byte) error {
	return s.do("AddTerminalStat", func() error { return s.Full.AddTerminalStat(ctx, domainMoid, at, doc) })
}

func (s *Store) TerminalStats(ctx context.Context, domainMoid string, from, to time.Time) ([][]byte, error) {
	return val(s, "TerminalStats", func() ([][]byte, error) { return s.Full.TerminalStats(ctx, domainMoid, from, to) })
}

func (s *Store) PruneTerminalStats(ctx context.Context, before time.Time) (int, error) {
	return val(s, "PruneTerminalStats", func() (int, error) { return s.Full.PruneTerminalStats(ctx, before) })
}

func (s *Store) ListUserDomains(ctx context.Context) ([]store.Domain, error) {
	return val(s, "ListUserDomains", func() ([]store.Domain, error) { return s.Full.ListUserDomains(ctx) })
}

// Readiness (ops.Store).

func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	return val(s, "SchemaVersion", func() (int, error) { return s.Full.SchemaVersion(ctx) })
}

var _ store.DirectoryReader = (*Store)(nil)

// DirectoryEntries reads in one statement when the wrapped store can
// (store.DirectoryEntries falls back to one read an account).
func (s *Store) DirectoryEntries(ctx context.Context, accounts []string) (map[string]store.DirectoryEntry, error) {
	return val(s, "DirectoryEntries", func() (map[string]store.DirectoryEntry, error) {
		return store.DirectoryEntries(ctx, s.Full, accounts)
	})
}
