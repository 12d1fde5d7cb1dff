package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/confer-platform/confer/internal/store"
)

// Wake-ups of the event log on PostgreSQL (store.EventWaker): after a
// commit that appended events, the store sends one NOTIFY on a channel
// named after the schema, and every subscription LISTENs on a connection
// of its own. NOTIFY is sent after the commit, from one goroutine, at most
// one in flight and a few milliseconds after the first commit of a burst:
// a NOTIFY inside the write transactions would serialise their commits
// (PostgreSQL takes a global lock to queue notifications). A handle's own
// subscribers are woken in the process; its notifications carry a token
// by which its listeners skip them.

const (
	announceDelay = 3 * time.Millisecond // commits of a burst share a notification
	retryMin      = 100 * time.Millisecond
	retryMax      = 5 * time.Second
)

var (
	errNotListening = errors.New("sqlstore: not listening yet")
	errStopped      = errors.New("sqlstore: not listening: the subscription or the store was closed")
)

type waker struct {
	dsn     string
	pool    *sql.DB
	channel string // per schema: tests and deployments share databases
	token   string // payload of this handle's notifications

	kick chan struct{} // a commit to announce
	quit chan struct{}
	done chan struct{}
	subs sync.WaitGroup // listening goroutines

	mu    sync.Mutex
	local map[*wakeups]struct{}
}

// startWaker names the schema's channel and starts the announcer.
func startWaker(ctx context.Context, dsn string, pool *sql.DB) (*waker, error) {
	var schema string
	if err := pool.QueryRowContext(ctx, "SELECT COALESCE(current_schema(), '')").Scan(&schema); err != nil {
		return nil, fmt.Errorf("current schema: %w", err)
	}
	var tok [8]byte
	_, _ = rand.Read(tok[:])
	w := &waker{dsn: dsn, pool: pool, channel: eventChannel(schema), token: hex.EncodeToString(tok[:]),
		kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), local: map[*wakeups]struct{}{}}
	go w.run()
	return w, nil
}

// eventChannel is the channel of a schema's events: an identifier of
// fewer than 64 bytes whatever the schema's name.
func eventChannel(schema string) string {
	h := fnv.New64a()
	h.Write([]byte(schema))
	return fmt.Sprintf("confer_events_%016x", h.Sum64())
}

// announce is called after a commit that appended events; it never waits.
func (w *waker) announce() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// run sends the notifications, and a last one at stop if a commit is
// still unannounced (conferd terminal apply exits right after its write).
func (w *waker) run() {
	defer close(w.done)
	for {
		stopping := false
		select {
		case <-w.kick:
		case <-w.quit:
			select {
			case <-w.kick:
				stopping = true
			default:
				return
			}
		}
		if !stopping {
			t := time.NewTimer(announceDelay)
			select {
			case <-t.C:
			case <-w.quit:
				stopping = true
			}
			t.Stop()
		}
		select { // commits before this point are covered by this notification
		case <-w.kick:
		default:
		}
		w.wakeLocal()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _ = w.pool.ExecContext(ctx, "SELECT pg_notify($1, $2)", w.channel, w.token) // on failure the readers' poll covers
		cancel()
		if stopping {
			return
		}
	}
}

func (w *waker) wakeLocal() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for s := range w.local {
		s.wake()
	}
}

// stop sends what is pending and ends the listeners.
func (w *waker) stop() {
	select {
	case <-w.quit:
	default:
		close(w.quit)
	}
	<-w.done
	w.subs.Wait()
}

// subscribe starts a listener on a connection of its own.
func (w *waker) subscribe(ctx context.Context) *wakeups {
	s := &wakeups{c: make(chan struct{}, 1), err: errNotListening}
	w.mu.Lock()
	w.local[s] = struct{}{}
	w.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	w.subs.Add(1)
	go func() {
		defer w.subs.Done()
		defer cancel()
		go func() { // Close ends the listeners too
			select {
			case <-w.quit:
				cancel()
			case <-ctx.Done():
			}
		}()
		w.listen(ctx, s)
		s.set(errStopped)
		w.mu.Lock()
		delete(w.local, s)
		w.mu.Unlock()
	}()
	return s
}

// listen keeps a LISTEN connection until ctx ends, reconnecting with
// backoff; s.err says whether it is connected.
func (w *waker) listen(ctx context.Context, s *wakeups) {
	delay := retryMin
	for {
		connected, err := w.session(ctx, s)
		if ctx.Err() != nil {
			return
		}
		if connected {
			delay = retryMin
		}
		s.set(fmt.Errorf("sqlstore: listening for events: %w", err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay):
		}
		delay = min(2*delay, retryMax)
	}
}

// session connects, listens and wakes s on every notification of another
// handle until the connection breaks.
func (w *waker) session(ctx context.Context, s *wakeups) (bool, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.Connect(cctx, w.dsn)
	cancel()
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{w.channel}.Sanitize()); err != nil {
		return false, err
	}
	s.set(nil) // and wake: events may have been committed while not listening
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		if n.Payload != w.token {
			s.wake()
		}
	}
}

// wakeups is a subscription (store.Wakeups).
type wakeups struct {
	c   chan struct{}
	mu  sync.Mutex
	err error
}

func (s *wakeups) C() <-chan struct{} { return s.c }

func (s *wakeups) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *wakeups) wake() {
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// set changes the state and wakes the subscriber in one step, so that
// whoever reads the new state has its wake-up waiting.
func (s *wakeups) set(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
	s.wake()
}

// AnnounceEvents wakes the event log's subscribers of every node
// (store.EventWaker); the store calls it after its own commits of events.
func (db *DB) AnnounceEvents() {
	if db.wk != nil {
		db.wk.announce()
	}
}

// SubscribeEvents returns wake-ups on every commit of events on any node
// (store.EventWaker); errors.ErrUnsupported on SQLite, where one process
// writes and readers poll.
func (db *DB) SubscribeEvents(ctx context.Context) (store.Wakeups, error) {
	if db.wk == nil {
		return nil, errors.ErrUnsupported
	}
	return db.wk.subscribe(ctx), nil
}

// writeEvents is write for writes that append events: it announces them
// after the commit.
func (db *DB) writeEvents(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error) error {
	return db.writeOwn(ctx, nil, f)
}

// writeOwn is writeEvents for a write whose f enters the records it
// writes into own (ownwrites.go): they are settled as soon as the
// transaction's outcome is known (on SQLite by the group commit, before
// it answers), and before the events are announced.
func (db *DB) writeOwn(ctx context.Context, own *ownWrite, f func(ctx context.Context, tx *sql.Tx) error) error {
	var err error
	if db.w != nil {
		err = db.w.do(ctx, f, own)
	} else {
		err = db.write(ctx, f)
		if err == nil {
			db.own.committed()
		}
		own.end(db, err)
	}
	if err == nil {
		db.AnnounceEvents()
	}
	return err
}

var _ store.EventWaker = (*DB)(nil)
