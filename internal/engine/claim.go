package engine

import (
	"context"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// claimLease is how long a node holds a due call (its settlement or
// redial) before another node may take it over: when the node dies
// between its claim and its write, the call is settled that much later
// by another (docs/deployment.md "Time-driven work").
const claimLease = 30 * time.Second

// claim takes the lease on a due terminal record at the version read, so
// that of several nodes running RunDue one dials or links it: the swap
// that ends the work would make the state change once anyway, but the
// dial and the cascade link come before it. A store without leases
// (store.Claimer) runs every piece.
func (e *Engine) claim(ctx context.Context, rec store.Record) (bool, error) {
	c, ok := e.st.(store.Claimer)
	if !ok {
		return true, nil
	}
	now := e.clk.Now()
	name := "mt/" + rec.DomainMoid + "/" + rec.ID + "@" + strconv.FormatInt(rec.Version, 10)
	return c.Claim(ctx, name, now, now.Add(claimLease))
}
