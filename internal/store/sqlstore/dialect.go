package sqlstore

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// dialect holds what differs between the two engines.
type dialect struct {
	name      string
	dollar    bool   // placeholders are $1, $2, ... instead of ?
	forUpdate string // row-lock suffix of a SELECT inside a transaction
}

var (
	sqlite   = dialect{name: "sqlite"}
	postgres = dialect{name: "postgres", dollar: true, forUpdate: " FOR UPDATE"}
)

// q rewrites a query written with ? placeholders for the dialect.
func (d dialect) q(query string) string {
	if !d.dollar {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// isDuplicate tells whether err is a unique-constraint violation.
func isDuplicate(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
