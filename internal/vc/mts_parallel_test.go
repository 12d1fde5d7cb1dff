package vc_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// 192 terminals added to one conference by 16 batches of 12 sent at once
// (issue 23): every batch succeeds (no conflict reaches the client), the
// conference holds the 192 terminals with distinct mt_ids, and a 193rd is
// refused for max_join_mt (20566).
func TestMtsAddParallelBatches(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		_, admin := mtsEnv(t, dsn, testserver.Options{Conference: engine.Config{MaxPorts: 1000}})
		conf := mtsConf(t, admin, map[string]any{"max_join_mt": 192})
		replies := make([]testserver.Reply, 16)
		var wg sync.WaitGroup
		for b := range replies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var batch []map[string]any
				for i := 0; i < 12; i++ {
					batch = append(batch, mtsEntry(fmt.Sprintf("10.7.%d.%d", b, i+1)))
				}
				replies[b] = mtsAdd(t, admin, conf, batch...)
			}()
		}
		wg.Wait()
		for b, r := range replies {
			if !r.OK() {
				t.Errorf("batch %d: %s", b, r.Raw)
			}
		}
		if n := len(mtsList(t, admin, conf)); n != 192 {
			t.Fatalf("the conference holds %d terminals, want 192", n)
		}
		testserver.MustFail(t, mtsAdd(t, admin, conf, mtsEntry("10.7.99.1")), 20566)
	})
}

// The same through two nodes on one PostgreSQL database, 8 batches each.
func TestMtsAddParallelBatchesTwoNodes(t *testing.T) {
	dsn := testdb.Postgres(t)
	opt := testserver.Options{Conference: engine.Config{MaxPorts: 1000}}
	_, a := mtsEnv(t, dsn, opt)
	_, b := mtsEnv(t, dsn, opt)
	conf := mtsConf(t, a, map[string]any{"max_join_mt": 192})
	replies := make([]testserver.Reply, 16)
	var wg sync.WaitGroup
	for i := range replies {
		c := a
		if i%2 == 1 {
			c = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []map[string]any
			for j := 0; j < 12; j++ {
				batch = append(batch, mtsEntry(fmt.Sprintf("10.7.%d.%d", i, j+1)))
			}
			replies[i] = mtsAdd(t, c, conf, batch...)
		}()
	}
	wg.Wait()
	for i, r := range replies {
		if !r.OK() {
			t.Errorf("batch %d: %s", i, r.Raw)
		}
	}
	if n := len(mtsList(t, a, conf)); n != 192 {
		t.Fatalf("the conference holds %d terminals, want 192", n)
	}
	testserver.MustFail(t, mtsAdd(t, b, conf, mtsEntry("10.7.99.1")), 20566)
}
