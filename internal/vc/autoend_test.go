package vc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// auto_end 1 ends the conference when its last terminal leaves; without
// it the conference stays.
func TestAutoEnd(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		create := func(autoEnd int) string {
			r := testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{
				"create_type": 1, "name": "auto", "bitrate": 2048, "call_mode": 2, "auto_end": autoEnd,
				"invite_members": []any{
					map[string]any{"name": "t1", "account": "10.0.0.1", "account_type": 7, "bitrate": 2048, "protocol": 0},
					map[string]any{"name": "t2", "account": "10.0.0.2", "account_type": 7, "bitrate": 2048, "protocol": 0},
				},
			})))
			return r["conf_id"].(string)
		}
		auto, keep := create(1), create(0)
		env.Advance(t, 3*time.Second) // both terminals of both conferences online
		for _, id := range []string{auto, keep} {
			testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+id+"/online_mts", testserver.Params(t, map[string]any{
				"mts": []any{map[string]any{"mt_id": "1"}}})))
			testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+id, nil)) // one terminal left: still running
		}
		for _, id := range []string{auto, keep} {
			testserver.MustOK(t, c.Do("DELETE", "/api/v1/vc/confs/"+id+"/online_mts", testserver.Params(t, map[string]any{
				"mts": []any{map[string]any{"mt_id": "2"}}})))
		}
		testserver.MustFail(t, c.Do("GET", "/api/v1/vc/confs/"+auto, nil), wire.CodeConfNotFound)
		testserver.MustOK(t, c.Do("GET", "/api/v1/vc/confs/"+keep, nil))
	})
}
