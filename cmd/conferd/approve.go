package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/confer-platform/confer/internal/api"
	"io"
	"log/slog"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// conferenceCmd handles conferences awaiting approval (docs/amc.md):
//
//	conferd conference pending --db D
//	conferd conference approve --db D --conf-id N [--max-confs 100] [--max-ports 1000]
//	conferd conference reject --db D --conf-id N
//
// Approving from the command line is what the amc endpoint
// POST /api/v1/amc/pending_confs/{conf_id}/approve does: the conference
// starts (the features its creation set start and its invited terminals
// are called; the running servers settle the calls) or is booked until its start time. --max-confs and
// --max-ports must be the servers' capacity.
func conferenceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, conferenceUsage)
		return exitUsage
	}
	fs := newFlagSet("conference "+args[0], stderr)
	db := dbFlag(fs)
	confID := fs.String("conf-id", "", "number of the pending conference (conf_id)")
	cdef := engine.DefaultConfig()
	maxConfs := fs.Int("max-confs", cdef.MaxConfs, "concurrent running conferences the platform can hold (as the servers' --max-confs)")
	maxPorts := fs.Int("max-ports", cdef.MaxPorts, "terminal ports across running conferences (as the servers' --max-ports)")
	if fs.Parse(args[1:]) != nil {
		return exitUsage
	}
	switch args[0] {
	case "pending":
	case "approve", "reject":
		if *confID == "" {
			fmt.Fprintf(stderr, "conferd: conference %s needs --conf-id\n", args[0])
			return exitUsage
		}
	default:
		fmt.Fprintf(stderr, "conferd: unknown conference command %q\n%s", args[0], conferenceUsage)
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	pending, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{engine.StatePending}})
	if err != nil {
		fmt.Fprintf(stderr, "conferd: conference %s: %v\n", args[0], err)
		return 1
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	if args[0] == "pending" {
		eng, _ := server.NewEngine(st, clock.Real{}, engine.Config{}, nil, log)
		svc := eng.Conferences()
		for _, rec := range pending {
			c, err := svc.Get(ctx, rec.DomainMoid, rec.ID, engine.StatePending)
			if err != nil {
				continue // approved or rejected meanwhile
			}
			var creator struct {
				Name record.Text `json:"name"`
			}
			c.Member("creator", &creator) // absent or of another form: ""
			fmt.Fprintf(stdout, "%s\t%s\t%q\tby %s\tstart %s\n", c.ID(), c.UserDomainName(),
				c.Name(), creator.Name, c.StartTimeText())
		}
		return 0
	}
	domain := ""
	for _, rec := range pending {
		if rec.ID == *confID {
			domain = rec.DomainMoid
		}
	}
	if domain == "" {
		fmt.Fprintf(stderr, "conferd: conference %s: no pending conference %s\n", args[0], *confID)
		return 1
	}
	// The engine of a server, features included: the approved conference
	// starts as through the amc endpoint.
	// Its calls: the simulated terminals when CONFER_SIMULATED_TERMINALS
	// says so (as the server's), else none is placed from this process:
	// every number goes offline with no route (docs/sip.md).
	dial := media.NoSimulation()
	if envBool("CONFER_SIMULATED_TERMINALS") {
		dial = media.Simulation(st, clock.Real{})
	}
	eng, _ := server.NewEngine(st, clock.Real{}, engine.Config{MaxConfs: *maxConfs, MaxPorts: *maxPorts}, dial, log)
	svc := eng.Conferences()
	if args[0] == "reject" {
		if err := svc.Reject(ctx, domain, *confID); err != nil {
			fmt.Fprintf(stderr, "conferd: conference reject: %v\n", describe(err))
			return 1
		}
		fmt.Fprintf(stdout, "conference %s rejected\n", *confID)
		return 0
	}
	c, err := svc.Approve(ctx, domain, *confID)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: conference approve: %v\n", describe(err))
		return 1
	}
	fmt.Fprintf(stdout, "conference %s approved: %s\n", c.ID(), c.Rec.State)
	return 0
}

// describe writes an API error as its description and code.
func describe(err error) string {
	var we *wire.Error
	if errors.As(api.Failure(err), &we) {
		return we.Error()
	}
	return err.Error()
}

const conferenceUsage = `usage:
  conferd conference pending --db D
  conferd conference approve --db D --conf-id N [--max-confs 100] [--max-ports 1000]
  conferd conference reject --db D --conf-id N
`
