package nms_test

import (
	"os"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// create makes a running conference of max_join_mt 8 and returns its id.
func create(t *testing.T, c *testserver.Client, name string, members ...any) string {
	t.Helper()
	p := map[string]any{"create_type": 1, "name": name, "bitrate": 1024, "max_join_mt": 8, "duration": 0, "preoccupy_resource": 1,
		"call_mode": 2, "call_times": 3, "call_interval": 10, "invite_members": members,
		"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}}}
	return testserver.MustOK(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
}

// The media resources are the configured capacity and its use; the
// capacity alarm rises at 80 % and becomes critical when the capacity is
// exhausted, and clears as conferences end.
func TestCapacityAlarm(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{Conference: engine.Config{MaxConfs: 5, MaxPorts: 100}})
		c := env.LoggedIn(t)
		host, _ := os.Hostname()
		self := node.Moid("node:" + host)
		media := node.ServiceMoid(self, "media")
		ports := func() []any {
			r := get(t, c, "/platform_domains/"+nms.PlatformMoid+"/mediaresources", nil)
			p := get(t, c, "/mediaresources/"+media+"/portinfo", nil)
			eq(t, "the node's media service reports the platform's ports", []any{p["total_port"], p["used_port"]}, []any{r["total_port"], r["used_port"]})
			return []any{r["total_port"], r["used_port"]}
		}
		warnings := func(moid string) []map[string]any {
			return list(get(t, c, "/servers/"+moid+"/unrepaired_warnings", nil)["unrepaired_warnings"])
		}
		eq(t, "idle", ports(), []any{100, 0})
		var ids []string
		for i := 1; i <= 3; i++ {
			ids = append(ids, create(t, c, "c"+string(rune('0'+i))))
		}
		eq(t, "three conferences", ports(), []any{100, 24})
		eq(t, "no alarm at 60 %", len(warnings(media)), 0)

		ids = append(ids, create(t, c, "c4"))
		ws := warnings(media)
		if len(ws) != 1 {
			t.Fatalf("warnings at 80 %% = %v", ws)
		}
		eq(t, "capacity alarm", []any{ws[0]["warning_level"], ws[0]["device_type"], ws[0]["device_moid"], ws[0]["description"]},
			[]any{"important", "MEDIA", media, "conference capacity above 80%: 4 of 5 conferences and 32 of 100 terminal ports in use"})
		eq(t, "seen on the physical server", len(warnings(self)), 1)
		eq(t, "the node's level", get(t, c, "/physicals/"+self+"/detail", nil)["warning_level"], "important")
		eq(t, "the service's level", byName(t, list(get(t, c, "/physicals/"+self+"/logicals", nil)["logicals"]), "type", "MEDIA")["warning_level"], "important")

		ids = append(ids, create(t, c, "c5"))
		ws = warnings(media)
		eq(t, "exhausted", []any{len(ws), ws[0]["warning_level"], ws[0]["description"]},
			[]any{1, "critical", "conference capacity exhausted: 5 of 5 conferences and 40 of 100 terminal ports in use"})
		testserver.MustFail(t, c.Do("POST", "/api/v1/mc/confs", testserver.Params(t, map[string]any{"create_type": 1, "name": "c6", "max_join_mt": 8})), 27505)

		testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+ids[4], nil))
		eq(t, "back to 80 %", warnings(media)[0]["warning_level"], "important")
		testserver.MustOK(t, c.Do("DELETE", "/api/v1/mc/confs/"+ids[3], nil))
		eq(t, "cleared", len(warnings(media)), 0)
		eq(t, "the node's level after", get(t, c, "/physicals/"+self+"/detail", nil)["warning_level"], "")
		eq(t, "ports after", ports(), []any{100, 24})

		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/mediaresources/nope/portinfo", nil), 22008)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/platform_domains/x/mediaresources", nil), 90400)
	})
}
