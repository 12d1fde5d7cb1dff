package sip

import (
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/icholy/digest"

	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
)

// Registration is a terminal's binding (stored by sipcred's rules).
type Registration = sipcred.Registration

// KindRegistration is the record kind of the registrations.
const KindRegistration = sipcred.KindRegistration

const (
	regDomain = sipcred.Domain
	regActive = sipcred.RegActive
)

// regURI is where a call to the registered terminal goes: its Contact's
// user at the address its REGISTER came from (symmetric signalling).
func regURI(r Registration) sip.Uri {
	var u sip.Uri
	_ = sip.ParseUri(r.Contact, &u)
	host, port := splitHostPort(r.Source)
	if host != "" {
		u.Host, u.Port = host, port
	}
	if r.Transport == "TCP" || r.Transport == "TLS" { // a REGISTER over TLS: called over its connection (tls.go)
		u.UriParams = sip.NewParams()
		u.UriParams.Add("transport", strings.ToLower(r.Transport))
	} else {
		u.UriParams = nil
	}
	u.Headers = nil
	return u
}

// registered returns the live registration of an E.164 number.
func (u *UA) registered(ctx context.Context, e164 string) (Registration, bool) {
	rec, err := u.deps.Store.GetRecord(ctx, KindRegistration, regDomain, e164)
	if err != nil || rec.State != regActive {
		return Registration{}, false
	}
	var r Registration
	if json.Unmarshal(rec.Data, &r) != nil || !r.Expires.After(time.Now()) {
		return Registration{}, false
	}
	return r, true
}

// Registered returns the live registration of an E.164 number (presence).
func (u *UA) Registered(ctx context.Context, e164 string) (Registration, bool) {
	return u.registered(ctx, e164)
}

// nonceTTL bounds how long a digest challenge may be answered.
const nonceTTL = 5 * time.Minute

// newNonce is a stateless nonce: its time and an HMAC of it and of the
// client's address under the node's key (nonces.go).
func (u *UA) newNonce(now time.Time, client string) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(now.Unix()))
	m := hmac.New(sha256.New, u.nonce)
	m.Write(b[:])
	m.Write([]byte(client))
	return hex.EncodeToString(b[:]) + hex.EncodeToString(m.Sum(nil)[:16])
}

// checkNonce tells whether a nonce is this node's for this client, and
// fresh.
func (u *UA) checkNonce(n string, client string, now time.Time) (valid, fresh bool) {
	raw, err := hex.DecodeString(n)
	if err != nil || len(raw) != 24 {
		return false, false
	}
	m := hmac.New(sha256.New, u.nonce)
	m.Write(raw[:8])
	m.Write([]byte(client))
	if !hmac.Equal(m.Sum(nil)[:16], raw[8:]) {
		return false, false
	}
	at := time.Unix(int64(binary.BigEndian.Uint64(raw[:8])), 0)
	return true, now.Sub(at) < nonceTTL
}

func (u *UA) challenge(req *sip.Request, tx sip.ServerTransaction, stale bool) {
	res := sip.NewResponseFromRequest(req, 401, "Unauthorized", nil)
	v := fmt.Sprintf(`Digest realm="%s", nonce="%s", algorithm=MD5, qop="auth"`, sipcred.Realm, u.newNonce(time.Now(), sourceIP(req.Source())))
	if stale {
		v += ", stale=true"
	}
	res.AppendHeader(sip.NewHeader("WWW-Authenticate", v))
	_ = tx.Respond(res)
}

func respond(req *sip.Request, tx sip.ServerTransaction, code int, reason string, hdrs ...sip.Header) {
	res := sip.NewResponseFromRequest(req, code, reason, nil)
	for _, h := range hdrs {
		res.AppendHeader(h)
	}
	_ = tx.Respond(res)
}

// onRegister serves REGISTER (RFC 3261 section 10.3) with digest
// authentication against the account's stored HA1 (internal/sipcred).
// Nothing of the Authorization header is logged.
func (u *UA) onRegister(req *sip.Request, tx sip.ServerTransaction) {
	to := req.To()
	if to == nil || to.Address.User == "" {
		respond(req, tx, 400, "Bad Request")
		return
	}
	aor := to.Address.User
	h := req.GetHeader("Authorization")
	if h == nil {
		u.challenge(req, tx, false)
		return
	}
	cr, err := digest.ParseCredentials(h.Value())
	if err != nil || !strings.EqualFold(cr.Realm, sipcred.Realm) || cr.Username == "" {
		respond(req, tx, 400, "Bad Request")
		return
	}
	client, now := sourceIP(req.Source()), time.Now()
	valid, fresh := u.checkNonce(cr.Nonce, client, now)
	if !valid || !fresh || !u.nonceCounts.fresh(cr.Nonce, cr.Nc) {
		u.challenge(req, tx, valid) // another address's nonce, or a replay
		return
	}
	ctx, cancel := context.WithTimeout(u.ctx, reportTimeout)
	defer cancel()
	cred, acct, err := sipcred.Lookup(ctx, u.deps.Store, cr.Username)
	user := "sip:" + cr.Username // the throttle's name: the account's, when known
	if err == nil {
		user = acct.Username
	}
	if th := u.deps.Credentials; th != nil && th.Throttled(client, user) != nil {
		respond(req, tx, 403, "Forbidden") // the address's backoff (docs/api.md "Logins")
		return
	}
	if errors.Is(err, sipcred.ErrUnknown) || (err == nil && cr.Username != aor) {
		u.failed(client, user)
		respond(req, tx, 403, "Forbidden")
		return
	}
	if err != nil {
		u.log.Warn("sip: REGISTER lookup", "err", err)
		respond(req, tx, 500, "Server Internal Error")
		return
	}
	if u.locked(acct, now) || !digestOK(cred.HA1, req.Method.String(), cr) {
		u.failed(client, user)
		respond(req, tx, 403, "Forbidden")
		return
	}
	u.nonceCounts.accept(cr.Nonce, cr.Nc, now)
	if th := u.deps.Credentials; th != nil {
		th.Succeeded(client, user)
	}
	u.bind(ctx, req, tx, aor, acct)
}

func (u *UA) locked(a store.Account, now time.Time) bool {
	if th := u.deps.Credentials; th != nil {
		return th.Locked(a)
	}
	return a.LockedUntil.After(now)
}

func (u *UA) failed(client, user string) {
	if th := u.deps.Credentials; th != nil {
		th.Failed(client, user)
	}
}

// digestOK checks a digest response (RFC 2617 section 3.2.2.1) from HA1.
func digestOK(ha1, method string, cr *digest.Credentials) bool {
	if cr.Algorithm != "" && !strings.EqualFold(cr.Algorithm, "MD5") {
		return false
	}
	ha2 := md5hex(method + ":" + cr.URI)
	var want string
	switch cr.QOP {
	case "":
		want = md5hex(ha1 + ":" + cr.Nonce + ":" + ha2)
	case "auth":
		want = md5hex(ha1 + ":" + cr.Nonce + ":" + fmt.Sprintf("%08x", cr.Nc) + ":" + cr.Cnonce + ":" + cr.QOP + ":" + ha2)
	default:
		return false
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(strings.ToLower(cr.Response))) == 1
}

func md5hex(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

// bind applies an authenticated REGISTER: a binding with its expiry, its
// removal (expires 0), or a query (no Contact).
func (u *UA) bind(ctx context.Context, req *sip.Request, tx sip.ServerTransaction, aor string, acct store.Account) {
	contacts := req.GetHeaders("Contact")
	if len(contacts) == 0 { // a query: the current binding
		res := sip.NewResponseFromRequest(req, 200, "OK", nil)
		if r, ok := u.registered(ctx, aor); ok {
			res.AppendHeader(sip.NewHeader("Contact", fmt.Sprintf("<%s>;expires=%d", r.Contact, int(time.Until(r.Expires).Seconds()))))
		}
		_ = tx.Respond(res)
		return
	}
	ch, ok := contacts[0].(*sip.ContactHeader)
	if !ok || len(contacts) > 1 {
		respond(req, tx, 400, "Bad Request") // one binding per number (docs/sip.md)
		return
	}
	expires := 3600
	if e := req.GetHeader("Expires"); e != nil {
		if n, err := strconv.Atoi(strings.TrimSpace(e.Value())); err == nil {
			expires = n
		}
	}
	if v, ok := ch.Params.Get("expires"); ok {
		if n, err := strconv.Atoi(v); err == nil {
			expires = n
		}
	}
	if expires < 0 {
		respond(req, tx, 400, "Bad Request")
		return
	}
	if ch.Address.Wildcard || expires == 0 {
		err := u.deps.Store.DeleteRecord(ctx, KindRegistration, regDomain, aor)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			respond(req, tx, 500, "Server Internal Error")
			return
		}
		respond(req, tx, 200, "OK")
		return
	}
	if min := int(u.cfg.RegisterMin.Seconds()); expires < min {
		respond(req, tx, 423, "Interval Too Brief", sip.NewHeader("Min-Expires", strconv.Itoa(min)))
		return
	}
	expires = min(expires, int(u.cfg.RegisterMax.Seconds()))
	now := time.Now()
	reg := Registration{E164: aor, Contact: ch.Address.String(), Source: req.Source(), Transport: req.Transport(),
		AccountMoid: acct.Moid, DomainMoid: acct.DomainMoid, Expires: now.Add(time.Duration(expires) * time.Second), Since: now}
	if prev, ok := u.registered(ctx, aor); ok && prev.AccountMoid == acct.Moid && !prev.Since.IsZero() {
		reg.Since = prev.Since // a refresh keeps the binding's start
	}
	if ua := req.GetHeader("User-Agent"); ua != nil {
		reg.UserAgent = truncate(ua.Value(), 128)
	}
	data, err := json.Marshal(reg)
	if err == nil {
		rec := store.Record{Kind: KindRegistration, ID: aor, DomainMoid: regDomain, OwnerMoid: acct.Moid, State: regActive,
			DueAt: reg.Expires, Data: data, CreatedAt: now, UpdatedAt: now}
		err = u.deps.Store.CreateRecord(ctx, rec)
		if errors.Is(err, store.ErrDuplicate) {
			err = u.deps.Store.UpdateRecord(ctx, rec, "")
		}
	}
	if err != nil {
		u.log.Warn("sip: storing a registration", "err", err)
		respond(req, tx, 500, "Server Internal Error")
		return
	}
	res := sip.NewResponseFromRequest(req, 200, "OK", nil)
	res.AppendHeader(sip.NewHeader("Contact", fmt.Sprintf("<%s>;expires=%d", reg.Contact, expires)))
	res.AppendHeader(sip.NewHeader("Date", now.UTC().Format(time.RFC1123)))
	_ = tx.Respond(res)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
