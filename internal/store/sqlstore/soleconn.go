package sqlstore

import (
	"context"
	"errors"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// soleConn is a PostgreSQL connection of its own for a reader that runs
// one statement at a time: the count gate (countgate.go), whose counter
// read every list waits for. Through database/sql's pool a read took a
// connection, its locks and retries, about a quarter of the read's CPU
// (docs/benchmarks.md "API performance, third pass"); here it is pgx on
// one connection with the statement prepared once. A failed connection is
// closed and opened again at the next read.
type soleConn struct {
	dsn string

	mu     sync.Mutex
	c      *pgx.Conn
	closed bool
}

var errSoleClosed = errors.New("sqlstore: the store is closed")

// int64 reads one integer (0 when there is no row). A read that fails
// for the connection (not a statement's ERROR: a broken socket, or the
// server's FATAL ending the backend) is tried once more on a new one, as
// database/sql retries a bad connection.
func (s *soleConn) int64(ctx context.Context, query string, args ...any) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.read(ctx, query, args)
	var pe *pgconn.PgError
	statement := errors.As(err, &pe) && pe.Severity == "ERROR"
	if err != nil && !statement && !errors.Is(err, errSoleClosed) && ctx.Err() == nil {
		n, err = s.read(ctx, query, args)
	}
	return n, err
}

func (s *soleConn) read(ctx context.Context, query string, args []any) (int64, error) {
	if s.closed {
		return 0, errSoleClosed
	}
	if s.c == nil || s.c.IsClosed() {
		c, err := pgx.Connect(ctx, s.dsn)
		if err != nil {
			return 0, err
		}
		s.c = c
	}
	var n int64
	err := s.c.QueryRow(ctx, query, args...).Scan(&n)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, nil
	case err != nil: // the connection's state is unknown: start again
		_ = s.c.Close(context.Background())
		s.c = nil
	}
	return n, err
}

func (s *soleConn) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.c != nil {
		_ = s.c.Close(context.Background())
		s.c = nil
	}
}
