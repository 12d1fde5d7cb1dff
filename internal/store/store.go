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
}

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
	// NextNumber returns the next value of a counter within [min, max],
	// wrapping around; the first value is min.
	NextNumber(ctx context.Context, counter string, min, max int64) (int64, error)

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
