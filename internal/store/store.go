// Package store declares Confer's storage: the records it keeps and the
// operations on them. sqlstore implements it on SQLite (embedded, the
// default) and on PostgreSQL (several nodes acting as one platform).
package store

import (
	"context"
	"errors"
	"time"
)

// Sentinel errors of every implementation.
var (
	ErrNotFound  = errors.New("store: not found")
	ErrDuplicate = errors.New("store: duplicate")
	ErrConflict  = errors.New("store: changed meanwhile")
)

// Domain is a user domain: the tenant every record belongs to (DESIGN
// principle 6).
type Domain struct {
	Moid      string
	Name      string
	CreatedAt time.Time
}

// License is an imported API license (seed 000 "Authentication" 2). Only a
// hash of the secret is kept.
type License struct {
	Key        string
	SecretHash string
	CreatedAt  time.Time
}

// Account is a user account that logs in through /api/v1/system/login.
type Account struct {
	Moid         string
	DomainMoid   string
	DomainName   string // filled by reads
	Username     string
	PasswordHash string
	Admin        bool
	Disabled     bool
	FailedLogins int
	LockedUntil  time.Time // zero when not locked
	CreatedAt    time.Time

	// Account management (amc): the real name, the bound E164 number, the
	// e-mail and mobile (each unique on the platform when not empty), the
	// other profile fields as one JSON object, and the departments.
	Name        string
	E164        string
	Email       string
	Mobile      string
	Profile     []byte       // JSON object; reads give "{}" when none was written
	Departments []Membership // filled by ListAccounts only
}

// Membership places an account in a department of its user domain.
type Membership struct {
	DepartmentMoid string
	DepartmentName string // filled by reads
	Position       string
}

// Department is a department of a user domain's organisation (amc). A
// top-level department's parent is the user domain itself (ParentMoid
// is the domain's moid).
type Department struct {
	Moid       string
	DomainMoid string
	ParentMoid string
	Name       string
	CreatedAt  time.Time
}

// AccountQuery selects accounts of one user domain for ListAccounts.
type AccountQuery struct {
	DomainMoid     string
	Moid           string // one account
	DepartmentMoid string // members of this department
	NoDepartment   bool   // accounts in no department
	Search         string // user names containing this text, case-insensitively
	Start, Count   int    // paging; Count 0 = all
}

// DuplicateError is the ErrDuplicate of an account write, naming the
// field whose value another account holds: "account" (the user name),
// "e164", "email", "mobile", "mobile_e164" when the mobile number is
// another account's E164 number, or "e164_mobile" when the E164 number is
// another account's mobile number.
type DuplicateError struct{ Field string }

func (e *DuplicateError) Error() string { return "store: duplicate " + e.Field }

// Unwrap makes errors.Is(err, ErrDuplicate) hold.
func (e *DuplicateError) Unwrap() error { return ErrDuplicate }

// ErrNoDepartment is returned by account and department writes that name
// a department (or parent) that the user domain does not have.
var ErrNoDepartment = errors.New("store: no such department")

// Token is an account_token issued for a license. Only a hash of the token
// is kept.
type Token struct {
	Hash       string
	LicenseKey string
	ExpiresAt  time.Time
}

// Session is a logged-in session, named by the SSO_COOKIE_KEY cookie. Only
// a hash of the cookie value is kept.
type Session struct {
	Hash        string
	AccountMoid string
	ExpiresAt   time.Time
	// LoginExpiresAt is the expiry the session was created with, written
	// by CreateSession: the login time plus the session lifetime.
	LoginExpiresAt time.Time
	// TokenHash is the hash of the account_token the session logged in
	// with: the session serves that token only ("" for sessions made
	// before the binding, which serve any valid token).
	TokenHash string
}

// LoginAttempt is the outcome of counting a failed login.
type LoginAttempt struct {
	Failed      int       // failures counted so far, this one included
	LockedUntil time.Time // zero when the account is not locked
}

// Record is one platform object kept as a JSON document of the newest wire
// model: a template, a virtual meeting room, a conference, an area, ...
type Record struct {
	Kind       string // "personal_template", "conf", ...
	ID         string // unique within the kind
	DomainMoid string // the user domain it belongs to
	OwnerMoid  string // the owning account, "" for domain-wide objects
	State      string // kind-specific state, e.g. "booked", "running", "ended"
	DueAt      time.Time
	Data       []byte // JSON object
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Version    int64 // bumped by every update; see SwapRecord
}

// RecordQuery selects records of one kind in one domain.
type RecordQuery struct {
	Kind       string
	DomainMoid string // "" for every domain (internal use only)
	OwnerMoid  string // "" for any owner
	States     []string
	Desc       bool // newest update first
	Start      int  // rows to skip
	Count      int  // rows to return; 0 = all
}

// DirectoryEntry is a terminal known to the simulated media backend.
type DirectoryEntry struct {
	Account     string // what a call names it by: E.164, alias or IP
	DomainMoid  string
	Alias       string
	E164        string
	IP          string
	AccountType int
	MtType      int    // 1 ordinary terminal, 3 telephone, 5 satellite, 7/8 cascade (reference 05)
	Behaviour   string // "answer", "offline", "busy" or "noanswer"
	AnswerAfter time.Duration
}

// Store is everything Confer keeps. Every method that changes state has
// committed the change when it returns nil (DESIGN principle 3).
type Store interface {
	// Domains.
	CreateDomain(ctx context.Context, d Domain) error
	DomainByName(ctx context.Context, name string) (Domain, error)
	DomainByMoid(ctx context.Context, moid string) (Domain, error)

	// Licenses.
	PutLicense(ctx context.Context, l License) error // creates or replaces
	LicenseByKey(ctx context.Context, key string) (License, error)
	CountLicenses(ctx context.Context) (int, error)

	// Accounts.
	CreateAccount(ctx context.Context, a Account) error
	AccountByUsername(ctx context.Context, username string) (Account, error)
	AccountByMoid(ctx context.Context, moid string) (Account, error)
	CountAccounts(ctx context.Context) (int, error)
	// FailLogin counts a failed login of an account at now. When the
	// account's earlier lock has ended the count starts again; when the
	// count reaches max the account is locked until now+lockFor.
	FailLogin(ctx context.Context, accountMoid string, now time.Time, max int, lockFor time.Duration) (LoginAttempt, error)
	// ResetLogin clears the failed-login count and lock of an account.
	ResetLogin(ctx context.Context, accountMoid string) error
	// UpdateAccount writes the password hash, admin and disabled flags,
	// the amc fields and the departments (replacing them) of an account of
	// a.DomainMoid; the user name, counters and creation time stay. With
	// endSessions every session of the account ends in the same
	// transaction. ErrNotFound, *DuplicateError, ErrNoDepartment.
	UpdateAccount(ctx context.Context, a Account, endSessions bool) error
	// DeleteAccount removes an account of a domain with its sessions and
	// memberships. ErrNotFound when the domain has no such account.
	DeleteAccount(ctx context.Context, domainMoid, moid string) error
	// ListAccounts pages through a domain's accounts, oldest first, with
	// their departments, and returns the number of matches.
	ListAccounts(ctx context.Context, q AccountQuery) ([]Account, int, error)

	// Departments (amc).
	// CreateDepartment adds a department under ParentMoid (the domain's
	// moid or one of its departments: ErrNoDepartment otherwise);
	// ErrDuplicate when a sibling has the name.
	CreateDepartment(ctx context.Context, d Department) error
	// RenameDepartment: ErrNotFound, ErrDuplicate.
	RenameDepartment(ctx context.Context, domainMoid, moid, name string) error
	// DeleteDepartment: ErrNotFound; ErrConflict while the department has
	// sub-departments or accounts.
	DeleteDepartment(ctx context.Context, domainMoid, moid string) error
	// ListDepartments returns every department of a domain, oldest first.
	ListDepartments(ctx context.Context, domainMoid string) ([]Department, error)

	// Tokens.
	CreateToken(ctx context.Context, t Token) error
	TokenByHash(ctx context.Context, hash string) (Token, error)
	// RenewToken moves a token's expiry to expires; ErrNotFound if the token
	// is unknown or already expired at now.
	RenewToken(ctx context.Context, hash string, now, expires time.Time) error

	// Sessions.
	CreateSession(ctx context.Context, s Session) error
	SessionByHash(ctx context.Context, hash string) (Session, error)
	RenewSession(ctx context.Context, hash string, now, expires time.Time) error
	DeleteSessionsOf(ctx context.Context, accountMoid string) error
	// ListSessions returns the sessions of a domain's accounts that are
	// live at now (presence).
	ListSessions(ctx context.Context, domainMoid string, now time.Time) ([]Session, error)

	// Records.
	CreateRecord(ctx context.Context, r Record) error // ErrDuplicate when the id is taken
	// UpdateRecord replaces data, state and due time of a record of the
	// domain; with ifState non-empty only while the record is in that state
	// (ErrNotFound otherwise), which makes state changes happen once.
	UpdateRecord(ctx context.Context, r Record, ifState string) error
	// SwapRecord writes r only if the stored version is still r.Version
	// (optimistic concurrency: read, change, swap, retry on ErrConflict).
	SwapRecord(ctx context.Context, r Record) error
	GetRecord(ctx context.Context, kind, domainMoid, id string) (Record, error)
	DeleteRecord(ctx context.Context, kind, domainMoid, id string) error
	ListRecords(ctx context.Context, q RecordQuery) ([]Record, int, error)
	// DueRecords returns records of kind in state whose due time is at or
	// before now, in every domain.
	DueRecords(ctx context.Context, kind, state string, now time.Time) ([]Record, error)
	// RecentEvents returns the events of records of kind in a domain
	// committed since about from (the search allows a minute for the
	// clocks of several nodes), oldest first: the recent history of
	// terminals for presence (upu).
	RecentEvents(ctx context.Context, kind, domainMoid string, from time.Time) ([]Event, error)
	// AppendNotice appends a notice to the event log on its own, for a
	// notification that comes with no record change (notice.go; a change
	// and its notice are written together through WithNotices).
	AppendNotice(ctx context.Context, n Notice) error
	// NextNumber returns the next value of a counter within [min, max],
	// wrapping around; the first value is min.
	NextNumber(ctx context.Context, counter string, min, max int64) (int64, error)
	// CountRecords counts the records that q selects (its paging and
	// order aside).
	CountRecords(ctx context.Context, q RecordQuery) (int, error)
	// Atomic runs f in one transaction: the writes f makes through tx,
	// with their events, commit together when f returns nil, and none of
	// them when f returns an error, which Atomic returns. f must be quick
	// and must not call the store itself (on SQLite it runs on the
	// store's single writer); after an error of a tx method f should
	// return (on PostgreSQL the transaction can go no further).
	Atomic(ctx context.Context, f func(tx Tx) error) error

	// Terminal directory of the simulated media backend.
	PutDirectoryEntry(ctx context.Context, e DirectoryEntry) error // creates or replaces
	DirectoryEntry(ctx context.Context, account string) (DirectoryEntry, error)
	ListDirectory(ctx context.Context) ([]DirectoryEntry, error)
	DeleteDirectoryEntry(ctx context.Context, account string) error

	// DeleteExpired removes tokens and sessions that expired before now.
	DeleteExpired(ctx context.Context, now time.Time) (int, error)

	// Ping checks that the store is reachable.
	Ping(ctx context.Context) error
	Close() error
}

// Tx is the transaction of Store.Atomic. Its methods do what the Store
// methods of the same names do, inside the transaction.
type Tx interface {
	CreateRecord(r Record) error // ErrDuplicate
	SwapRecord(r Record) error   // ErrConflict, ErrNotFound
	GetRecord(kind, domainMoid, id string) (Record, error)
	CountRecords(q RecordQuery) (int, error)
	// ListRecords returns the records q selects, oldest update first (its
	// paging and order aside): a check that needs their documents.
	ListRecords(q RecordQuery) ([]Record, error)
	NextNumber(counter string, min, max int64) (int64, error)
}
