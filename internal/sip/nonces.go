package sip

import (
	"net"
	"sync"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// Digest replay protection (issue 38 item 2; docs/sip.md "Registrar"): a
// nonce is bound to the address it was issued to (newNonce), and each
// accepted Authorization's nonce-count (RFC 7616 section 3.4, RFC 3261
// section 22.4) must grow, so a captured REGISTER answered again, from
// another address or the same, is challenged anew.

// Credentials is the node's credential policy (auth.Service): failed
// digests count toward the same throttle as failed HTTP logins.
type Credentials interface {
	Locked(a store.Account) bool // locked after failed licensed logins (90423)
	Throttled(client, user string) error
	Failed(client, user string)
	Succeeded(client, user string)
}

// nonceCounts keeps the highest nonce-count accepted with each nonce
// while nonces of its age are valid. Only accepted digests are kept, so
// its size follows the registrations, not the guesses.
type nonceCounts struct {
	mu   sync.Mutex
	seen map[string]nonceUse
}

type nonceUse struct {
	nc int
	at time.Time
}

// fresh tells whether nc (0 without qop) was never accepted with nonce.
func (n *nonceCounts) fresh(nonce string, nc int) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	u, ok := n.seen[nonce]
	return !ok || (nc > 0 && nc > u.nc)
}

// accept records nc as accepted with nonce.
func (n *nonceCounts) accept(nonce string, nc int, now time.Time) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen == nil {
		n.seen = map[string]nonceUse{}
	}
	if len(n.seen) >= 1024 {
		for k, u := range n.seen {
			if now.Sub(u.at) > nonceTTL {
				delete(n.seen, k)
			}
		}
	}
	n.seen[nonce] = nonceUse{nc: nc, at: now}
}

// sourceIP is the IP address of a request's source ("ip:port").
func sourceIP(source string) string {
	if h, _, err := net.SplitHostPort(source); err == nil {
		return h
	}
	return source
}
