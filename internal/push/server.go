// Package push is Confer's push service: a Bayeux 1.0 (CometD) server at
// /api/v1/publish (reference 02-push-guide.md) that publishes every
// committed state change of the conferences of reference 07-push-channels.md
// to the clients of the conference's user domain. The server tails the
// store's event log (store.EventLog), so a change committed on any node of
// a PostgreSQL deployment reaches the clients of every node. docs/push.md
// describes the behaviour.
package push

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/store"
)

// Sessions checks the SSO_COOKIE_KEY of a handshake (auth.Service).
type Sessions interface {
	SessionPrincipal(ctx context.Context, cookie string) (*auth.Principal, error)
}

// Options tune the protocol; a zero field takes its default.
type Options struct {
	// ConnectTimeout is how long a /meta/connect is held when nothing is
	// to be delivered (advice.timeout). Default 30s.
	ConnectTimeout time.Duration
	// MaxInterval is how long a client may go without a connect before
	// its clientId expires and its subscriptions are dropped
	// (advice.maxInterval). Default 30s.
	MaxInterval time.Duration
	// Poll is the interval at which the event log is read while the
	// store cannot wake the tailer on other nodes' commits (SQLite, or
	// PostgreSQL while its listener reconnects). Default 50ms.
	Poll time.Duration
	// SafetyPoll is the interval at which the event log is read while
	// the store wakes the tailer on every commit of any node
	// (store.EventWaker: LISTEN/NOTIFY on PostgreSQL); a safety net.
	// Default 1s.
	SafetyPoll time.Duration
	// StepGap is the least time between the starts of two reads of the
	// event log that changes woke: under a burst of changes one read
	// then carries several instead of one read, and one read of their
	// records, each (docs/push.md "How events reach every node").
	// Default 2ms; negative: none.
	StepGap time.Duration
	// SessionCheck is how often a connected client's login is checked
	// again; a client whose login ended is dropped. Default 1 minute.
	SessionCheck time.Duration
	// MaxQueue is the number of undelivered messages after which a
	// client is dropped (it must handshake again). Default 10000.
	MaxQueue int
	// Now reads the time for client expiry and session checks; time.Now
	// by default (tests inject a clock).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = 30 * time.Second
	}
	if o.MaxInterval <= 0 {
		o.MaxInterval = 30 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 50 * time.Millisecond
	}
	if o.SafetyPoll <= 0 {
		o.SafetyPoll = time.Second
	}
	if o.StepGap == 0 {
		o.StepGap = 2 * time.Millisecond
	}
	if o.SessionCheck <= 0 {
		o.SessionCheck = time.Minute
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = 10000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Config is what a Server needs.
type Config struct {
	Events    store.EventLog
	Store     store.Store
	Sessions  Sessions
	Resources Resources // builds the contents of update messages; nil: method only
	Logger    *slog.Logger
	Options   Options
}

// Server is the push service: Bayeux clients, their subscriptions and
// the event tailer.
type Server struct {
	cfg  Config
	opt  Options
	log  *slog.Logger
	wake chan struct{} // nudges the tailer

	mu      sync.RWMutex
	clients map[string]*client
	subs    map[string]map[*client]struct{} // pattern -> subscribers

	closeOnce sync.Once
	closing   chan struct{}  // closed when Run's context ends
	connMu    sync.Mutex     // orders track with the closing of closing
	conns     sync.WaitGroup // websockets and long-poll requests that Run waits for

	tail *tailer
	met  *pushMetrics
	done atomic.Int64 // the last event sequence the tailer has published
}

// New returns a Server; Run starts its background work.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{
		cfg: cfg, opt: cfg.Options.withDefaults(), log: cfg.Logger,
		wake:    make(chan struct{}, 1),
		clients: map[string]*client{},
		subs:    map[string]map[*client]struct{}{},
		closing: make(chan struct{}),
		met:     newPushMetrics(),
	}
	s.tail = newTailer(s)
	return s
}

// Wake makes the tailer read the event log now rather than at its next
// poll; the API server calls it after each change it served, so that
// subscribers on the same node hear of the change at once.
func (s *Server) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// WaitPublished returns once every event committed before the call has
// been published to the subscribers of this node, or when ctx ends. A
// client that subscribes after it hears of no change made before it.
func (s *Server) WaitPublished(ctx context.Context) error {
	target, err := s.cfg.Events.LastEventSeq(ctx)
	if err != nil {
		return err
	}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for s.done.Load() < target {
		s.Wake()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
	return nil
}

// drainTimeout bounds how long Run waits for connections to be answered
// and closed once its context ends.
const drainTimeout = 10 * time.Second

// Run tails the event log and expires silent clients until ctx ends. Then
// it drains: held connects are answered (advice reconnect "retry" in a
// second), websockets are closed with "going away" after their pending
// connect is answered, new websockets are refused and new handshakes
// answered "503"; Run returns once every connection it tracks has been
// answered and closed (at most drainTimeout), so that a process that
// exits after Run leaves no client without its answer.
func (s *Server) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.tail.run(ctx) }()
	go func() { defer wg.Done(); s.expireLoop(ctx) }()
	<-ctx.Done()
	s.connMu.Lock()
	s.closeOnce.Do(func() { close(s.closing) })
	s.connMu.Unlock()
	wg.Wait()
	drained := make(chan struct{})
	go func() { s.conns.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(drainTimeout):
		s.log.Warn("push: connections still open after the drain timeout", "timeout", drainTimeout)
	}
}

// track counts a connection that Run waits for; false once Run drains
// (the connection is then served without being waited for).
func (s *Server) track() bool {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	if s.isClosing() {
		return false
	}
	s.conns.Add(1)
	return true
}

func (s *Server) expireLoop(ctx context.Context) {
	every := min(max(s.opt.MaxInterval/10, 10*time.Millisecond), time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.expire()
		}
	}
}

// expire drops the clients that have been silent longer than MaxInterval.
func (s *Server) expire() int {
	now := s.opt.Now()
	var dead []*client
	s.mu.RLock()
	for _, c := range s.clients {
		if c.expired(now, s.opt.MaxInterval) {
			dead = append(dead, c)
		}
	}
	s.mu.RUnlock()
	for _, c := range dead {
		s.met.dropped("expired")
		s.remove(c)
	}
	return len(dead)
}

// Clients returns the number of live clientIds.
func (s *Server) Clients() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.clients)
}

func (s *Server) isClosing() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}

func (s *Server) add(c *client) {
	s.mu.Lock()
	s.clients[c.id] = c
	s.mu.Unlock()
}

func (s *Server) lookup(id string) *client {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.clients[id]
}

// remove forgets a client and its subscriptions and ends whatever waits
// for it.
func (s *Server) remove(c *client) {
	s.mu.Lock()
	if s.clients[c.id] == c {
		delete(s.clients, c.id)
	}
	for p := range c.subs {
		if set := s.subs[p]; set != nil {
			delete(set, c)
			if len(set) == 0 {
				delete(s.subs, p)
			}
		}
	}
	c.subs = map[string]bool{}
	s.mu.Unlock()
	c.mu.Lock()
	if !c.removed {
		c.removed = true
		close(c.gone)
	}
	c.queue, c.unacked = nil, nil
	c.mu.Unlock()
}

func (s *Server) subscribe(c *client, patterns []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clients[c.id] != c {
		return
	}
	for _, p := range patterns {
		c.subs[p] = true
		set := s.subs[p]
		if set == nil {
			set = map[*client]struct{}{}
			s.subs[p] = set
		}
		set[c] = struct{}{}
	}
}

func (s *Server) unsubscribe(c *client, patterns []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range patterns {
		delete(c.subs, p)
		if set := s.subs[p]; set != nil {
			delete(set, c)
			if len(set) == 0 {
				delete(s.subs, p)
			}
		}
	}
}

// subscribers returns the clients subscribed to a concrete channel, each
// once.
func (s *Server) subscribers(ch string) []*client {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*client
	var seen map[*client]bool
	for _, p := range patternsFor(ch) {
		set := s.subs[p]
		if len(set) == 0 {
			continue
		}
		for c := range set {
			if seen == nil {
				seen = map[*client]bool{}
			}
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// hasSubscribers tells whether any client listens to a concrete channel.
func (s *Server) hasSubscribers(ch string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, p := range patternsFor(ch) {
		if len(s.subs[p]) > 0 {
			return true
		}
	}
	return false
}

// watched tells whether a subscription may match ch or a channel under
// it (the conference tailer decodes a conference's document only then,
// tailer.go): ch itself and its ancestors' globs, then every pattern
// under ch.
func (s *Server) watched(ch string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.subs) == 0 {
		return false
	}
	for _, p := range patternsFor(ch) {
		if len(s.subs[p]) > 0 {
			return true
		}
	}
	under := ch + "/"
	for p, set := range s.subs {
		if len(set) > 0 && strings.HasPrefix(p, under) {
			return true
		}
	}
	return false
}

// publish delivers a message on a concrete channel to its subscribers.
// data builds the message's data for an API-Level; it is called once per
// level among the recipients. Subscriptions are per domain, so only the
// channel's domain's clients can be among them.
func (s *Server) publish(ch string, data func(level int) any) int {
	cs := s.subscribers(ch)
	if len(cs) == 0 {
		return 0
	}
	s.met.publishedOn(ch)
	encoded := map[int]json.RawMessage{}
	var full []*client
	for _, c := range cs {
		if c.domain != domainOf(ch) {
			continue // cannot happen: subscriptions are checked
		}
		m, ok := encoded[c.level]
		if !ok {
			m = mustJSON(dataMessage{Channel: ch, Data: data(c.level)})
			encoded[c.level] = m
		}
		if !c.enqueue(m, s.opt.MaxQueue) {
			full = append(full, c)
		}
	}
	for _, c := range full {
		s.log.Warn("push: dropping a client whose queue is full", "client", c.id, "queued", s.opt.MaxQueue)
		s.met.dropped("queue_full")
		s.remove(c)
	}
	return len(cs)
}
