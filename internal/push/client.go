package push

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// client is one handshaken Bayeux client (a clientId).
type client struct {
	id     string
	domain string // user_domain_moid of the login
	cookie string // the login's SSO_COOKIE_KEY, checked again while connected
	level  int    // API-Level the message contents are shaped for; 0 = none sent

	// subs is guarded by Server.mu.
	subs map[string]bool

	mu         sync.Mutex
	queue      []queued
	wake       chan struct{} // signalled (never closed) when the queue grows
	gone       chan struct{} // closed when the client is removed
	removed    bool
	attached   int           // held long-poll connects and bound websockets
	lastSeen   time.Time     // last message or end of a held connect
	checkedAt  time.Time     // last session check
	holdCancel chan struct{} // closed to end the held long-poll connect early

	// The acknowledgement extension (ack.go): messages go out only with
	// connect replies, in numbered batches, and stay in unacked until the
	// client acknowledges their batch.
	ack     bool
	batch   int64
	unacked []sentMsg
}

// queued is a message waiting for delivery, with the time it was queued
// (the fan-out delay metric).
type queued struct {
	m  json.RawMessage
	at time.Time
}

func newClient(domain, cookie string, level int, now time.Time) *client {
	return &client{
		id: newClientID(), domain: domain, cookie: cookie, level: level,
		subs: map[string]bool{}, wake: make(chan struct{}, 1), gone: make(chan struct{}),
		lastSeen: now, checkedAt: now,
	}
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newClientID returns 140 random bits as 28 lower-case letters and digits,
// the shape of the reference's example ("aug11o8nfq1xzpvgpdiptn6s7wje").
func newClientID() string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(idEncoding.EncodeToString(b[:]))[:28]
}

// enqueue adds an encoded message; false when the queue (with the
// messages awaiting acknowledgement) is full: the caller drops the client.
func (c *client) enqueue(m json.RawMessage, max int) bool {
	c.mu.Lock()
	if c.removed {
		c.mu.Unlock()
		return true
	}
	if max > 0 && len(c.queue)+len(c.unacked) >= max {
		c.mu.Unlock()
		return false
	}
	c.queue = append(c.queue, queued{m: m, at: time.Now()})
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return true
}

// take empties the queue.
func (c *client) take() []queued {
	c.mu.Lock()
	q := c.queue
	c.queue = nil
	c.mu.Unlock()
	return q
}

// pending counts the messages a connect would deliver now.
func (c *client) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue) + len(c.unacked)
}

func (c *client) touch(now time.Time) {
	c.mu.Lock()
	c.lastSeen = now
	c.mu.Unlock()
}

// attach counts a transport that holds the client (a held connect or a
// websocket); detach ends it and restarts the expiry clock.
func (c *client) attach() {
	c.mu.Lock()
	c.attached++
	c.mu.Unlock()
}

func (c *client) detach(now time.Time) {
	c.mu.Lock()
	c.attached--
	c.lastSeen = now
	c.mu.Unlock()
}

// expired tells whether a client has had no transport for longer than
// maxInterval.
func (c *client) expired(now time.Time, maxInterval time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attached <= 0 && now.Sub(c.lastSeen) > maxInterval
}

// startHold begins a held long-poll connect, ending the one held before
// (Bayeux allows one outstanding connect per client).
func (c *client) startHold() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holdCancel != nil {
		close(c.holdCancel)
	}
	ch := make(chan struct{})
	c.holdCancel = ch
	return ch
}

func (c *client) endHold(ch chan struct{}) {
	c.mu.Lock()
	if c.holdCancel == ch {
		c.holdCancel = nil
	}
	c.mu.Unlock()
}
