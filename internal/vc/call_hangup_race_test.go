package vc_test

import (
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// A call of a terminal while its hang-up is still being written used to
// fail with 99999 (store: changed meanwhile): the call now reads the
// terminal again and is placed once the hang-up is stored.
func TestCallDuringHangup(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	api := env.LoggedIn(t)
	api.Level = "3"
	p := map[string]any{"create_type": 1, "name": "x", "max_join_mt": 8, "duration": 0, "call_mode": 2, "call_times": 3, "call_interval": 20}
	id := testserver.MustOK(t, api.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
	testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/mts", testserver.Params(t, map[string]any{"mts": []any{
		map[string]any{"account": "5550001", "account_type": 5, "bitrate": 2048, "protocol": 0},
		map[string]any{"account": "5550002", "account_type": 5, "bitrate": 2048, "protocol": 0}}})))
	env.Advance(t, 3*time.Second)
	testserver.MustOK(t, api.Do("POST", "/api/v1/vc/confs/"+id+"/mixs", testserver.Params(t, map[string]any{"mode": 1, "members": []any{}})))
	bad := 0
	for i := 0; i < 40 && bad == 0; i++ {
		mts := testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": "2"}}})
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); api.Do("DELETE", "/api/v1/vc/confs/"+id+"/online_mts", mts) }()
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i%8) * time.Millisecond) // the thing under test: the call lands 0 to 7 ms into the hang up
			if r := api.Do("POST", "/api/v1/vc/confs/"+id+"/online_mts", mts); r.Code() == 99999 {
				t.Errorf("call during a hang up, round %d: %s", i, r.Raw)
				bad++
			}
		}()
		wg.Wait()
		env.Advance(t, 3*time.Second)
	}
}
