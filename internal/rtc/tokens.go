// Package rtc joins the media plane (internal/sfu) to the conference
// engine (docs/media.md "Wiring"): the media tokens of vc's rtc_tokens
// extension, the Authorizer the SFU asks, the SFU's reports passed on to
// the engine, and the media.Backend that serves WebRTC participants with
// the SFU and dialled numbers with the simulated backend.
package rtc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/store"
)

// KindToken is the record kind of a media token. Its id is the SHA-256 of
// the token: the token itself is never stored (DESIGN "Security"). Tokens
// are kept outside every user domain (domain ""), since a WHIP or WHEP
// request names only the conference; the token's own domain_moid scopes
// what it grants.
const KindToken = "rtc_token"

// Token lifetimes (docs/media.md "Getting in: `rtc_tokens`").
const (
	DefaultTTL = time.Hour
	MinTTL     = time.Minute
	MaxTTL     = 24 * time.Hour
)

// Token is what a media token grants.
type Token struct {
	ConfID     string    `json:"conf_id"`
	MeetingID  string    `json:"meeting_id"` // a conference number is reused later: the meeting id is not
	DomainMoid string    `json:"domain_moid"`
	Role       string    `json:"role"`
	Name       string    `json:"name"`
	Expires    time.Time `json:"expires_at"`
}

// ErrNoToken is returned for an unknown or expired token.
var ErrNoToken = errors.New("rtc: unknown or expired token")

// Tokens issues and checks media tokens.
type Tokens struct {
	Store store.Store
	Clock clock.Clock
	// PerConf bounds the tokens a conference holds at once (issue 38
	// item 12; 0: DefaultPerConf, < 0: no cap); beyond, ErrTooMany.
	PerConf int
}

// DefaultPerConf is the cap of tokens per conference: room for a large
// event's participants, far below what fills a store.
const DefaultPerConf = 1000

// ErrTooMany is returned by Issue when the conference holds PerConf
// tokens that have not been swept.
var ErrTooMany = errors.New("rtc: the conference holds its cap of media tokens")

func hashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// Issue stores a new token granting t and returns it: 32 random bytes,
// unguessable.
func (ts Tokens) Issue(ctx context.Context, t Token) (string, error) {
	if limit := ts.perConf(); limit > 0 {
		n, err := ts.Store.CountRecords(ctx, store.RecordQuery{Kind: KindToken, DomainMoid: "", OwnerMoid: t.ConfID})
		if err != nil {
			return "", err
		}
		if n >= limit {
			return "", ErrTooMany
		}
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	data, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	now := ts.Clock.Now()
	err = ts.Store.CreateRecord(ctx, store.Record{Kind: KindToken, ID: hashToken(tok), DomainMoid: "", OwnerMoid: t.ConfID,
		State: "issued", DueAt: t.Expires, Data: data, CreatedAt: now, UpdatedAt: now})
	return tok, err
}

func (ts Tokens) perConf() int {
	if ts.PerConf == 0 {
		return DefaultPerConf
	}
	return ts.PerConf
}

// Check returns what tok grants in conference confID: ErrNoToken when it
// is unknown, expired or of another conference.
func (ts Tokens) Check(ctx context.Context, confID, tok string) (Token, error) {
	rec, err := ts.Store.GetRecord(ctx, KindToken, "", hashToken(tok))
	if errors.Is(err, store.ErrNotFound) {
		return Token{}, ErrNoToken
	}
	if err != nil {
		return Token{}, err
	}
	var t Token
	if err := json.Unmarshal(rec.Data, &t); err != nil {
		return Token{}, err
	}
	if t.ConfID != confID || !ts.Clock.Now().Before(t.Expires) {
		return Token{}, ErrNoToken
	}
	return t, nil
}

// Sweep deletes the expired tokens (conferd's janitor calls it).
func (ts Tokens) Sweep(ctx context.Context) error {
	recs, err := ts.Store.DueRecords(ctx, KindToken, "issued", ts.Clock.Now())
	if err != nil {
		return err
	}
	for _, r := range recs {
		if err := ts.Store.DeleteRecord(ctx, KindToken, r.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	return nil
}
