// Package sipcred keeps the SIP digest credentials of accounts (docs/sip.md
// "Registrar"). Account passwords are stored as bcrypt hashes, which
// cannot check an RFC 2617 digest; so when a password is set for an
// account that has an E.164 number, the HA1 hash MD5(e164:realm:password)
// is stored beside it as a record of kind sip_credential (id the E.164
// number). HA1 is what SIP registrars conventionally keep; the plaintext
// password is never stored. A credential whose E.164 number the account
// no longer holds is ignored (Lookup checks the account).
package sipcred

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// Realm is the digest realm of every credential.
const Realm = "confer"

// Kind and Domain of the credential records (no user domain lists them).
const (
	Kind   = "sip_credential"
	Domain = "_sip"
)

// Credential is an account's SIP digest credential.
type Credential struct {
	AccountMoid string `json:"account_moid"`
	HA1         string `json:"ha1"`
}

// HA1 is MD5(user:realm:password) in hex (RFC 2617 section 3.2.2.2).
func HA1(user, password string) string {
	h := md5.Sum([]byte(user + ":" + Realm + ":" + password))
	return hex.EncodeToString(h[:])
}

// Save stores the credential of account a for its E.164 number and the
// password just set; nothing when a has no E.164 number.
func Save(ctx context.Context, st store.Store, a store.Account, password string, now time.Time) error {
	if a.E164 == "" || password == "" {
		return nil
	}
	data, err := json.Marshal(Credential{AccountMoid: a.Moid, HA1: HA1(a.E164, password)})
	if err != nil {
		return err
	}
	rec := store.Record{Kind: Kind, ID: a.E164, DomainMoid: Domain, OwnerMoid: a.Moid, State: "active",
		Data: data, CreatedAt: now, UpdatedAt: now}
	err = st.CreateRecord(ctx, rec)
	if errors.Is(err, store.ErrDuplicate) {
		err = st.UpdateRecord(ctx, rec, "")
	}
	return err
}

// ErrUnknown is returned by Lookup for a number no enabled account holds
// with a stored credential.
var ErrUnknown = errors.New("sipcred: no credential for the number")

// Lookup returns the credential of an E.164 number and its account, which
// must still hold the number and be enabled.
func Lookup(ctx context.Context, st store.Store, e164 string) (Credential, store.Account, error) {
	rec, err := st.GetRecord(ctx, Kind, Domain, e164)
	if errors.Is(err, store.ErrNotFound) {
		return Credential{}, store.Account{}, ErrUnknown
	}
	if err != nil {
		return Credential{}, store.Account{}, err
	}
	var c Credential
	if err := json.Unmarshal(rec.Data, &c); err != nil {
		return Credential{}, store.Account{}, err
	}
	a, err := st.AccountByMoid(ctx, c.AccountMoid)
	if errors.Is(err, store.ErrNotFound) {
		return Credential{}, store.Account{}, ErrUnknown
	}
	if err != nil {
		return Credential{}, store.Account{}, err
	}
	if a.E164 != e164 || a.Disabled {
		return Credential{}, store.Account{}, ErrUnknown
	}
	return c, a, nil
}
