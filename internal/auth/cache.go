package auth

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"
	"time"
)

// A node keeps the outcome of Authenticate for a token and cookie pair for
// at most CacheFor of its clock, so that a burst of requests of one
// login reads the token, the session and the account once rather than
// three times per request. The expiries are kept too, so a token or
// session expires on time; ending sessions on this node (SaveAccount,
// RemoveAccount: a new password, disabling, deleting) drops every kept
// entry at once; on another node such a change takes effect within
// CacheFor. docs/benchmarks.md "List".
const (
	CacheFor     = time.Second
	authCacheMax = 4096
)

type authKey [sha256.Size]byte

type authEntry struct {
	p                *Principal
	tokenExp, sessEx time.Time
	at               time.Time
	gen              uint64
}

type authCache struct {
	// gen counts the session-ending changes made through this Service
	// (manage.go); an entry kept under an older count is not used. Each
	// Service, thus each server of a process, has its own: servers that
	// share a process see one another's changes as other nodes do.
	gen atomic.Uint64

	mu sync.Mutex
	m  map[authKey]authEntry
}

func cacheKey(token, cookie string) authKey {
	return sha256.Sum256([]byte(token + "\x00" + cookie))
}

// get returns a copy of the principal kept for key when it is still good
// at now.
func (c *authCache) get(k authKey, now time.Time) (*Principal, bool) {
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if !ok || e.gen != c.gen.Load() || now.Before(e.at) || now.Sub(e.at) >= CacheFor ||
		!e.tokenExp.After(now) || !e.sessEx.After(now) {
		return nil, false
	}
	p := *e.p
	return &p, true
}

func (c *authCache) put(k authKey, e authEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= authCacheMax {
		c.m = make(map[authKey]authEntry)
	}
	c.m[k] = e
}
