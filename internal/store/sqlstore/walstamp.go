package sqlstore

import (
	"context"
	"sync"
)

// The event counter without a query on SQLite.
//
// In WAL mode every commit of any process rewrites the wal-index header,
// the first 48 bytes of the "-shm" file that all connections map
// (sqlite.org/walformat.html, "The WAL-Index Header": iChange is
// incremented by every commit, mxFrame, the salts and the checksum follow
// the WAL). Readers of SQLite itself start every read transaction from
// this header. So while the header reads the same as it did before a
// read of the counter, no transaction has committed since, on this node
// or any other process writing the file, and the counter still has the
// value read: eventCount answers it again without a statement (a third
// of a list's CPU on SQLite, docs/benchmarks.md 2026-11-26).
//
// The stamp is read before the counter, so a commit between the two
// leaves a stamp older than the value (the next call reads again), never
// the reverse. A header caught while a writer rewrites it differs from
// both the old and the new one: the next call reads again. The file stays
// the same while this process holds a connection to the database (SQLite
// deletes the "-shm" file only when its last connection closes), which
// the store does from Open to Close.

// walStamp is a copy of the wal-index header.
type walStamp [walHeaderWords]uint32

// walHeaderWords is the header's size in 32-bit words (48 bytes).
const walHeaderWords = 12

// stampedCount is the event counter read after its stamp.
type stampedCount struct {
	mu    sync.Mutex
	ok    bool
	stamp walStamp
	seq   int64
}

func (s *stampedCount) get(st walStamp) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq, s.ok && s.stamp == st
}

func (s *stampedCount) put(st walStamp, seq int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ok, s.stamp, s.seq = true, st, seq
}

// eventCount reads the event counter: the number of the newest committed
// event (the counter's row is written in the event's transaction). On
// SQLite it is read again only when the wal-index header has changed.
func (db *DB) eventCount(ctx context.Context) (int64, error) {
	if db.shm == nil {
		return db.countGate.do(ctx, db.readEventCount) // countgate.go
	}
	st, mapped := db.shm.stamp()
	if !mapped { // closed
		return db.readEventCount(ctx)
	}
	if n, ok := db.counted.get(st); ok {
		return n, nil
	}
	n, err := db.readEventCount(ctx)
	if err == nil {
		db.counted.put(st, n)
	}
	return n, err
}

// mapWAL maps the wal-index header of the SQLite file at path once a read
// connection, held until Close, has opened it; without it (another
// system, another journal mode) the counter is read by query.
func (db *DB) mapWAL(ctx context.Context, path string) {
	c, err := db.rdb.Conn(ctx)
	if err != nil {
		return
	}
	var mode string
	if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		c.Close()
		return
	}
	var n int64
	if err := c.QueryRowContext(ctx, "SELECT COUNT(*) FROM counters").Scan(&n); err != nil {
		c.Close()
		return
	}
	shm, err := mapWALIndex(path)
	db.shmFile = shm // released after the pools close, error or not
	if err != nil {
		c.Close()
		return
	}
	db.shm, db.pin = shm, c
}
