package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
)

type sqlState string

func (s sqlState) Error() string    { return "postgres error " + string(s) }
func (s sqlState) SQLState() string { return string(s) }

// Issue 38 item 13: a PostgreSQL restart answered 99999; the server tells
// such errors by Unavailable and answers a retryable 90503.
func TestUnavailable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("some fault"), false},
		{ErrNotFound, false},
		{fmt.Errorf("query: %w", driver.ErrBadConn), true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{fmt.Errorf("write: %w", syscall.EPIPE), true},
		{fmt.Errorf("exec: %w", sqlState("57P01")), true},  // admin shutdown
		{fmt.Errorf("exec: %w", sqlState("57P03")), true},  // cannot connect now
		{fmt.Errorf("exec: %w", sqlState("08006")), true},  // connection failure
		{fmt.Errorf("exec: %w", sqlState("23505")), false}, // unique violation
	} {
		if got := Unavailable(c.err); got != c.want {
			t.Errorf("Unavailable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
