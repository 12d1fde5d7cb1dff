package auth

import (
	"context"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The credential throttle (issue 38 items 2, 5 and 6; docs/api.md
// "Logins"): failed password checks of the HTTP logins and of SIP
// REGISTER count together, per client address and account and per client
// address alone. Beyond a few free failures each further failure doubles
// the wait before the next attempt from that address is checked at all
// (no bcrypt meanwhile), up to ThrottleMax. It never locks an account for
// other addresses: only a login with the account's license
// (POST /api/v1/system/login) counts toward the account's lock.

// CodeThrottled answers an attempt made during its address's backoff.
const CodeThrottled = 90420

type attempts struct {
	failed int
	last   time.Time // of the last failure
}

// wait is how long after the last failure the next attempt is refused.
func (a *attempts) wait(free int, most time.Duration) time.Duration {
	if a == nil || a.failed < free {
		return 0
	}
	n := a.failed - free
	if n >= 30 {
		return most
	}
	return min(most, time.Second<<n)
}

// throttleMax bounds the entries kept; beyond, entries whose backoff
// ended an hour ago go, then (a flood of addresses) all of them.
const throttleMax = 100000

type throttle struct {
	mu     sync.Mutex
	pair   map[string]*attempts // client address + "\x00" + user name
	client map[string]*attempts // client address
	burns  map[string]*burnSlot // bcrypts of unknown user names in progress, per client address
}

// burnSlot lets one bcrypt of an unknown user name run at a time per
// client address (issue 38 item 6): the others of that address wait, so
// one address takes at most one core with them, however many it sends at
// once, until its failures bring the backoff. Known accounts' checks do
// not wait.
type burnSlot struct {
	ch    chan struct{}
	users int
}

// burn runs f in client's slot, waiting for it until ctx ends.
func (t *throttle) burn(ctx context.Context, client string, f func()) error {
	t.mu.Lock()
	if t.burns == nil {
		t.burns = map[string]*burnSlot{}
	}
	s := t.burns[client]
	if s == nil {
		s = &burnSlot{ch: make(chan struct{}, 1)}
		t.burns[client] = s
	}
	s.users++
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		if s.users--; s.users == 0 {
			delete(t.burns, client)
		}
		t.mu.Unlock()
	}()
	select {
	case s.ch <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.ch }()
	f()
	return nil
}

func pairKey(client, user string) string { return client + "\x00" + user }

// check refuses an attempt from client for user during a backoff.
func (t *throttle) check(cfg Config, client, user string, now time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	until := time.Time{}
	if a := t.pair[pairKey(client, user)]; a != nil {
		until = a.last.Add(a.wait(cfg.ThrottleFree, cfg.ThrottleMax))
	}
	if a := t.client[client]; a != nil {
		if u := a.last.Add(a.wait(cfg.ThrottleClientFree, cfg.ThrottleMax)); u.After(until) {
			until = u
		}
	}
	if !until.After(now) {
		return nil
	}
	e := wire.Errorf(CodeThrottled, "too many failed logins from this address: retry after %s", until.Format(time.RFC3339))
	e.Lockout = &wire.Lockout{UnlockTime: until.Format(time.RFC3339)}
	return e
}

// fail counts a failed attempt.
func (t *throttle) fail(client, user string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pair == nil {
		t.pair, t.client = map[string]*attempts{}, map[string]*attempts{}
	}
	for _, e := range []struct {
		m map[string]*attempts
		k string
	}{{t.pair, pairKey(client, user)}, {t.client, client}} {
		a := e.m[e.k]
		if a == nil {
			if len(e.m) >= throttleMax {
				prune(e.m, now)
			}
			a = &attempts{}
			e.m[e.k] = a
		}
		if now.Sub(a.last) > time.Hour {
			a.failed = 0 // an hour without failures starts afresh
		}
		a.failed++
		a.last = now
	}
}

// succeed forgets the failures of client for user (not those of the
// address: another account's guesses still count).
func (t *throttle) succeed(client, user string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pair, pairKey(client, user))
}

func prune(m map[string]*attempts, now time.Time) {
	for k, a := range m {
		if now.Sub(a.last) > time.Hour {
			delete(m, k)
		}
	}
	if len(m) >= throttleMax {
		clear(m)
	}
}

// Throttled refuses an attempt of client for user during a backoff
// (SIP REGISTER, internal/sip): 90420.
func (s *Service) Throttled(client, user string) error {
	return s.throttle.check(s.cfg, client, user, s.clk.Now())
}

// Failed counts a failed attempt of client for user.
func (s *Service) Failed(client, user string) { s.throttle.fail(client, user, s.clk.Now()) }

// Succeeded forgets the failures of client for user.
func (s *Service) Succeeded(client, user string) { s.throttle.succeed(client, user) }

// Locked tells whether an account is locked after failed licensed logins
// (90423) at the service's clock.
func (s *Service) Locked(a store.Account) bool { return a.LockedUntil.After(s.clk.Now()) }
