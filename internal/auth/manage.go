package auth

import (
	"context"
	"fmt"

	"github.com/confer-platform/confer/internal/sipcred"
	"github.com/confer-platform/confer/internal/store"
)

// Account management (amc) changes to the accounts that log in here.
// Disabling an account or giving it a new password ends every session
// of it in the same transaction as the change: a request with an old
// cookie answers 10102 at once, a disabled account cannot log in (90403),
// and the next login needs the new password.

// SaveAccount writes an edited account of a.DomainMoid. A non-empty
// newPassword replaces the password hash, clears the failed-login count
// and lock, and ends the account's sessions; so does a.Disabled when the
// account was enabled before (wasDisabled false).
func (s *Service) SaveAccount(ctx context.Context, a store.Account, newPassword string, wasDisabled bool) error {
	end := a.Disabled && !wasDisabled
	if newPassword != "" {
		h, err := HashSecret(newPassword)
		if err != nil {
			return fmt.Errorf("password: %w", err)
		}
		a.PasswordHash = h
		end = true
	}
	err := s.st.UpdateAccount(ctx, a, end)
	// A new hash misses the verified secrets anyway (verified.go); this
	// node forgets its kept logins at once (cache.go).
	s.verified.forget("a:" + a.Moid)
	s.recent.gen.Add(1)
	if err != nil {
		return err
	}
	if newPassword != "" {
		// The SIP digest credential of the account's E.164 number
		// (docs/sip.md "Registrar").
		if err := sipcred.Save(ctx, s.st, a, newPassword, s.clk.Now()); err != nil {
			return err
		}
		return s.st.ResetLogin(ctx, a.Moid) // an administrator's new password unlocks the account
	}
	return nil
}

// RemoveAccount deletes an account of a domain; its sessions end with it.
func (s *Service) RemoveAccount(ctx context.Context, domainMoid, moid string) error {
	err := s.st.DeleteAccount(ctx, domainMoid, moid)
	s.verified.forget("a:" + moid)
	s.recent.gen.Add(1) // this node forgets its kept logins at once (cache.go)
	return err
}
