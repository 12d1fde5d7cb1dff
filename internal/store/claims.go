package store

import (
	"context"
	"time"
)

// Claimer hands out leases on pieces of time-driven work, so that with
// several nodes on one database a piece is done by one node, and by
// another when that node dies before finishing it (issue 12,
// docs/deployment.md "Time-driven work"). A lease is named by the work and
// the version of the record it starts from, so a finished piece (whose
// record has moved on) needs no release.
type Claimer interface {
	// Claim takes the lease name until until, unless another claim of it
	// runs past now; it reports whether the caller holds the lease.
	Claim(ctx context.Context, name string, now, until time.Time) (bool, error)
}
