package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// The group commit's counters at /metrics follow its batches, their
// writes and the time spent in them, on both engines.
func TestGroupCommitMetrics(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		reg := prometheus.NewRegistry()
		reg.MustRegister(db.Collectors()...)
		before := gatherGroup(t, reg)
		const n = 8
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				errs[i] = db.CreateRecord(ctx, store.Record{Kind: "tpl", ID: fmt.Sprint("m", i), DomainMoid: "d", Data: []byte(`{}`),
					CreatedAt: time.Unix(1, 0), UpdatedAt: time.Unix(1, 0)})
			}(i)
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
		}
		if db.w != nil { // a batch held 50 ms counts those 50 ms at least
			if err := db.write(ctx, func(context.Context, *sql.Tx) error { time.Sleep(50 * time.Millisecond); return nil }); err != nil {
				t.Fatal(err)
			}
		}
		after := gatherGroup(t, reg)
		commits := after["confer_store_group_commits_total"] - before["confer_store_group_commits_total"]
		writes := after["confer_store_group_commit_writes_total"] - before["confer_store_group_commit_writes_total"]
		busy := after["confer_store_group_commit_busy_seconds_total"] - before["confer_store_group_commit_busy_seconds_total"]
		if writes < n || commits < 1 || commits > writes || busy <= 0 {
			t.Errorf("after %d writes: %v commits, %v writes, %v s busy", n, commits, writes, busy)
		}
		if db.w != nil && busy < 0.05 {
			t.Errorf("a batch held 50 ms added %v s of busy time", busy)
		}
	})
}

func gatherGroup(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			out[mf.GetName()] = m.GetCounter().GetValue()
		}
	}
	if len(out) != 3 {
		t.Fatalf("gathered %v, want the three group commit counters", out)
	}
	return out
}
