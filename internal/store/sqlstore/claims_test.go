package sqlstore_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// A lease is held by one claimant until it ends; of two stores (two
// nodes) claiming at once, exactly one gets it; after its end another
// claim takes it over.
func TestClaim(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		var dbs [2]*sqlstore.DB
		for i := range dbs {
			db, err := sqlstore.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			dbs[i] = db
		}
		now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		for round := 0; round < 20; round++ {
			name := "work@" + string(rune('a'+round))
			var wg sync.WaitGroup
			got := make([]bool, 4)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ok, err := dbs[i%2].Claim(ctx, name, now, now.Add(30*time.Second))
					if err != nil {
						t.Error(err)
					}
					got[i] = ok
				}()
			}
			wg.Wait()
			n := 0
			for _, ok := range got {
				if ok {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("round %d: %d of 4 concurrent claims won, want 1", round, n)
			}
		}
		if ok, _ := dbs[1].Claim(ctx, "work@a", now.Add(29*time.Second), now.Add(time.Minute)); ok {
			t.Error("a lease was taken before its end")
		}
		if ok, err := dbs[1].Claim(ctx, "work@a", now.Add(30*time.Second), now.Add(time.Minute)); !ok || err != nil {
			t.Errorf("a lease at its end was not taken over: %v, %v", ok, err)
		}
	})
}
