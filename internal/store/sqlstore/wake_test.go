package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

func openWake(t *testing.T, dsn string, closeAtEnd bool) *DB {
	t.Helper()
	db, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	if closeAtEnd {
		t.Cleanup(func() { db.Close() })
	}
	return db
}

func subscribe(t *testing.T, db *DB) store.Wakeups {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := db.SubscribeEvents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// awaitWake fails unless s is woken within 10 s (never a speed check).
func awaitWake(t *testing.T, s store.Wakeups, what string) {
	t.Helper()
	select {
	case <-s.C():
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no wake-up within 10 s (err %v)", what, s.Err())
	}
}

// awaitListening waits until s's listener is connected, and takes the
// wake-up that its connection gave.
func awaitListening(t *testing.T, s store.Wakeups) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-s.C():
			if s.Err() == nil {
				return
			}
		case <-deadline:
			t.Fatalf("not listening within 10 s: %v", s.Err())
		}
	}
}

func drain(s store.Wakeups) {
	select {
	case <-s.C():
	default:
	}
}

// A commit of events through one handle wakes the subscribers of every
// handle on the same schema, its own included; a handle on another
// schema listens on another channel and is not woken. Close sends the
// notification of a last commit.
func TestWakeupsAcrossHandles(t *testing.T) {
	dsn := testdb.Postgres(t)
	a, b := openWake(t, dsn, false), openWake(t, dsn, true)
	c := openWake(t, testdb.Postgres(t), true)
	if a.wk.channel == c.wk.channel || a.wk.channel != b.wk.channel {
		t.Fatalf("channels %s, %s, %s: want one per schema", a.wk.channel, b.wk.channel, c.wk.channel)
	}
	subA, subB, subC := subscribe(t, a), subscribe(t, b), subscribe(t, c)
	for _, s := range []store.Wakeups{subA, subB, subC} {
		awaitListening(t, s)
	}

	now := time.Now()
	rec := store.Record{Kind: "mt", ID: "1/1", DomainMoid: "d", OwnerMoid: "1", State: "calling", Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}
	if err := a.CreateRecord(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	awaitWake(t, subB, "B after a creation through A")
	awaitWake(t, subA, "A after its own creation")
	b.AnnounceEvents()
	awaitWake(t, subA, "A after an announcement through B")
	select {
	case <-subC.C():
		t.Fatalf("a listener of another schema was woken (err %v)", subC.Err())
	case <-time.After(300 * time.Millisecond):
	}

	drain(subB)
	if err := a.AppendNotice(context.Background(), store.Notice{DomainMoid: "d", ConfID: "1", Channel: "/applyspeaker", Data: []byte(`{}`), At: now}); err != nil {
		t.Fatal(err)
	}
	a.Close() // at once: the notification must still go out
	awaitWake(t, subB, "B after a notice through A, closed at once")
}

// A listener whose connection is terminated connects again, and later
// notifications wake it.
func TestWakeupsReconnect(t *testing.T) {
	dsn := testdb.Postgres(t)
	a, b := openWake(t, dsn, true), openWake(t, dsn, true)
	sub := subscribe(t, b)
	awaitListening(t, sub)
	admin, err := sql.Open("pgx", os.Getenv(testdb.EnvPostgres))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	pid := listenerPID(t, admin, b.wk.channel)
	if pid == 0 {
		t.Fatal("no backend listens on the schema's channel")
	}
	var ok bool
	if err := admin.QueryRow("SELECT pg_terminate_backend($1)", pid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend(%d) = %v, %v", pid, ok, err)
	}
	deadline := time.After(10 * time.Second)
	for again := 0; again == 0 || again == pid; {
		select {
		case <-sub.C():
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no new listener within 10 s (err %v)", sub.Err())
		}
		if sub.Err() == nil {
			again = listenerPID(t, admin, b.wk.channel)
		}
	}
	drain(sub)
	a.AnnounceEvents()
	awaitWake(t, sub, "after the reconnection")
}

// listenerPID is the backend that listens on channel, 0 when none.
func listenerPID(t *testing.T, admin *sql.DB, channel string) int {
	t.Helper()
	var pid int
	err := admin.QueryRow(`SELECT pid FROM pg_stat_activity WHERE state = 'idle' AND query = $1`,
		`LISTEN "`+channel+`"`).Scan(&pid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return pid
}

// SQLite cannot wake other processes: readers poll.
func TestWakeupsSQLite(t *testing.T) {
	db := openWake(t, testdb.SQLite(t), true)
	if _, err := db.SubscribeEvents(context.Background()); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("SubscribeEvents on SQLite = %v, want ErrUnsupported", err)
	}
	db.AnnounceEvents()
}
