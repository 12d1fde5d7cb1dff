package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"sync"
	"time"
)

// Verified credentials (issue 23 "Login + first authenticated call";
// docs/api.md "Verified secrets"; docs/benchmarks.md "Login and batches").
// A bcrypt comparison at cost 10 takes about 61 ms of one core, two per
// new session. After a comparison succeeds, the node remembers, for the
// principal (a license key or an account), HMAC-SHA256 under a key drawn
// at random when the Service starts of the stored hash and the secret.
// A later comparison of a secret with the same stored hash within
// VerifiedFor is answered by comparing HMACs in constant time, without
// bcrypt. The stored hash is in the HMAC, so a new password or secret
// (another hash) is never answered from a kept entry. Only the hash
// comparison is replaced: the license and account are read and checked
// (disabled, locked, deleted) as before. A wrong secret always pays the
// full comparison and is never kept; an unknown principal still burns
// one (burnCompare). The entries live in memory only, are never logged or
// stored, and hold HMACs under a key that never leaves the process, not
// secrets.

type verifiedEntry struct {
	mac [sha256.Size]byte
	at  time.Time
}

type verifiedCache struct {
	key [32]byte
	ttl time.Duration
	max int

	// compare is bcrypt's comparison (CheckSecret; tests count it).
	compare func(hash, secret string) bool

	mu       sync.Mutex
	m        map[string]verifiedEntry // by principal: "l:"+license key, "a:"+account moid
	inflight map[string]*flight       // comparisons running, by principal and HMAC
}

// flight is one bcrypt comparison that callers with the same principal,
// hash and secret arriving meanwhile wait for instead of running their
// own: sixteen clients logging in at once with one account pay one
// comparison, not sixteen (a cold login's cost is bcrypt's,
// docs/benchmarks.md "Login and first call"). A different secret, right
// or wrong, never shares one.
type flight struct {
	done    chan struct{}
	ok      bool
	waiting int // callers waiting (tests)
}

func newVerifiedCache(ttl time.Duration, max int) *verifiedCache {
	c := &verifiedCache{ttl: ttl, max: max, compare: CheckSecret, inflight: map[string]*flight{}}
	if _, err := rand.Read(c.key[:]); err != nil {
		c.ttl = 0 // no key, no cache: every comparison is bcrypt's
	}
	return c
}

func (c *verifiedCache) on() bool { return c != nil && c.ttl > 0 && c.max > 0 }

// sum is HMAC-SHA256(key, hash || 0 || secret). A bcrypt hash has a fixed
// length and no zero byte, so the pair is unambiguous.
func (c *verifiedCache) sum(hash, secret string) [sha256.Size]byte {
	h := hmac.New(sha256.New, c.key[:])
	h.Write([]byte(hash))
	h.Write([]byte{0})
	h.Write([]byte(secret))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// check compares secret with the stored bcrypt hash of principal at now:
// from a kept entry when one matches, else with bcrypt, keeping the
// outcome when it is a success.
func (c *verifiedCache) check(principal, hash, secret string, now time.Time) bool {
	if !c.on() {
		return CheckSecret(hash, secret)
	}
	mac := c.sum(hash, secret)
	c.mu.Lock()
	e, ok := c.m[principal]
	c.mu.Unlock()
	if ok && !now.Before(e.at) && now.Sub(e.at) < c.ttl && hmac.Equal(e.mac[:], mac[:]) {
		return true
	}
	key := principal + "\x00" + string(mac[:])
	c.mu.Lock()
	if f, ok := c.inflight[key]; ok {
		f.waiting++
		c.mu.Unlock()
		<-f.done
		return f.ok
	}
	f := &flight{done: make(chan struct{})}
	c.inflight[key] = f
	c.mu.Unlock()
	f.ok = c.compare(hash, secret)
	if f.ok {
		c.put(principal, verifiedEntry{mac: mac, at: now})
	}
	c.mu.Lock()
	delete(c.inflight, key)
	c.mu.Unlock()
	close(f.done)
	return f.ok
}

// waiters is how many callers wait for a comparison in flight (tests).
func (c *verifiedCache) waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, f := range c.inflight {
		n += f.waiting
	}
	return n
}

// put keeps e, making room when the map is full: expired entries first,
// else one at random (Go's map iteration starts at a random entry).
func (c *verifiedCache) put(principal string, e verifiedEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string]verifiedEntry)
	}
	if _, ok := c.m[principal]; !ok && len(c.m) >= c.max {
		for k, old := range c.m {
			if e.at.Sub(old.at) >= c.ttl || old.at.After(e.at) {
				delete(c.m, k)
			}
		}
		for k := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[principal] = e
}

// forget drops the entry of principal.
func (c *verifiedCache) forget(principal string) {
	if !c.on() {
		return
	}
	c.mu.Lock()
	delete(c.m, principal)
	c.mu.Unlock()
}

// len is the number of kept entries (tests).
func (c *verifiedCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
