// Package amc serves account management (reference 08-amc-accounts.md;
// seed 001 "Account management (amc)"): the departments and accounts of a
// user domain (the accounts that log in through /api/v1/system/login),
// public groups, and conference approval with Confer's pending-conference
// endpoints. docs/amc.md describes the behaviour and its decisions.
package amc

import (
	"context"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

const (
	descDone          = "operation succeeded"
	jidSuffix         = "@confer"
	e164Counter       = "account_e164"
	defaultE164Min    = 1200000
	defaultE164Max    = 1299999
	maxAccountNameLen = 64
)

// Config holds the module's settings.
type Config struct {
	// E164Min and E164Max bound the numbers given to accounts with
	// binded 2 (automatic); zero takes 1200000 to 1299999, apart from
	// the default conference numbers.
	E164Min, E164Max int64
}

// Module is the amc module's state.
type Module struct {
	st    store.Store
	clk   clock.Clock
	confs *engine.Conferences
	auth  *auth.Service // account changes end sessions through it
	cfg   Config
}

// New returns the module.
func New(st store.Store, clk clock.Clock, confs *engine.Conferences, as *auth.Service, cfg Config) *Module {
	if cfg.E164Min == 0 && cfg.E164Max == 0 {
		cfg.E164Min, cfg.E164Max = defaultE164Min, defaultE164Max
	}
	return &Module{st: st, clk: clk, confs: confs, auth: as, cfg: cfg}
}

// adminOnly answers 20005 unless the caller administers its user domain:
// departments, accounts and approval are managed by administrators only.
func adminOnly(r *api.Request, what string) error {
	if r.Principal.Admin {
		return nil
	}
	return wire.Errorf(wire.CodeNoPermission, "only an administrator of the user domain may %s", what)
}

// checkChars refuses a value longer than max bytes or holding characters
// outside allowed (when allowed is not "") or inside forbidden.
func checkChars(field, v string, maxLen int, allowed, forbidden, what string) error {
	if len(v) > maxLen {
		return wire.InvalidParam(field, "longer than "+strconv.Itoa(maxLen)+" bytes")
	}
	for _, c := range v {
		if (allowed != "" && !strings.ContainsRune(allowed, c)) || (forbidden != "" && strings.ContainsRune(forbidden, c)) {
			return wire.InvalidParam(field, what)
		}
	}
	return nil
}

const (
	letters     = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	digits      = "0123456789"
	nameSpecial = "%&*^~'\"?/\\<>|`$"
)

// checkName applies the reference's rules for account and department
// names: at most max bytes, none of % & * ^ ~ ' " ? / \ < > | ` $, and no
// _ - . @ first or last.
func checkName(field, v string, maxLen int) error {
	if strings.TrimSpace(v) == "" {
		return wire.InvalidParam(field, "must not be empty")
	}
	if err := checkChars(field, v, maxLen, "", nameSpecial+"\x00\r\n\t", "must not contain % & * ^ ~ ' \" ? / \\ < > | ` $ or control characters"); err != nil {
		return err
	}
	if strings.ContainsAny(v[:1], "_-.@") || strings.ContainsAny(v[len(v)-1:], "_-.@") {
		return wire.InvalidParam(field, "must not begin or end with _ - . @")
	}
	return nil
}

// notFoundAccount is the answer for an account the caller's domain lacks.
func notFoundAccount(moid string) error {
	return wire.Errorf(wire.CodeUserNotFound, "account %s does not exist", moid)
}

// loadAccount reads an account of the caller's domain with its
// departments; another domain's account does not exist (19001).
func (m *Module) loadAccount(ctx context.Context, r *api.Request, moid string) (store.Account, error) {
	as, _, err := m.st.ListAccounts(ctx, store.AccountQuery{DomainMoid: r.Principal.DomainMoid, Moid: moid})
	if err != nil {
		return store.Account{}, err
	}
	if len(as) == 0 || moid == "" {
		return store.Account{}, notFoundAccount(moid)
	}
	return as[0], nil
}
