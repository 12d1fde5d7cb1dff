package store

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
)

// Unavailable tells whether err is the database being out of reach (a
// restart, a lost connection, a server that refuses connections for now)
// rather than a fault of the request or of Confer: the request may be
// retried as it is (issue 38 item 13; docs/errors.md 90503).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var ne *net.OpError
	if errors.Is(err, driver.ErrBadConn) || errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	// PostgreSQL's SQLSTATE classes 08 (connection exception), 53
	// (insufficient resources) and 57 (operator intervention: shutting
	// down, starting up).
	var se interface{ SQLState() string }
	if errors.As(err, &se) {
		switch s := se.SQLState(); {
		case len(s) == 5 && (s[:2] == "08" || s[:2] == "53" || s[:2] == "57"):
			return true
		}
	}
	return false
}
