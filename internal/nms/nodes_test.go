package nms_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	if !reflect.DeepEqual(gv, wv) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

func get(t *testing.T, c *testserver.Client, path string, q url.Values) map[string]any {
	t.Helper()
	return testserver.MustOK(t, c.Do("GET", "/api/v1/nms"+path, q))
}

func list(x any) []map[string]any {
	var out []map[string]any
	for _, e := range x.([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// byName finds the element of l whose field key is v.
func byName(t *testing.T, l []map[string]any, key, v string) map[string]any {
	t.Helper()
	for _, e := range l {
		if e[key] == v {
			return e
		}
	}
	t.Fatalf("no %s %q in %v", key, v, l)
	return nil
}

// peer reports another conferd node to the registry, as that node's
// reporter would, with the CPU use between two samples.
type peer struct {
	env     *testserver.Env
	name    string
	started time.Time
	prev    node.Sample
}

func newPeer(env *testserver.Env, name string) *peer {
	return &peer{env: env, name: name, started: env.Clock.Now()}
}

func (p *peer) moid() string { return node.Moid("node:" + p.name) }

func (p *peer) report(t *testing.T, busy, total int64, memAvailKB int64) {
	t.Helper()
	s := node.Sample{Hostname: p.name, Addresses: []string{"10.9.0.7"}, CPUs: 16, OS: "linux/arm64", MemTotalKB: 1000,
		MemAvailKB: memAvailKB, CPUBusy: busy, CPUTotal: total, UptimeSec: 99, NetInBytes: 4096, NetOutBytes: 2048, DiskPercent: 42}
	cfg := node.Config{Name: p.name, MachineRoomMoid: node.DefaultMachineRoomMoid, MachineRoomName: "Hall B", Port: 8080,
		Services: []string{"api", "engine"}, Interval: node.DefaultInterval, OfflineAfter: 3 * node.DefaultInterval}
	doc := node.Document(cfg, p.moid(), s, p.prev, p.started, p.env.Clock.Now())
	p.prev = s
	b, _ := json.Marshal(doc)
	if err := p.env.Store.PutNode(context.Background(), p.moid(), p.name, p.env.Clock.Now(), b); err != nil {
		t.Fatal(err)
	}
}

// The nodes register themselves: this one with the facts of its host,
// another one as its reports say; their figures follow the reports, and
// a node that stops reporting goes offline with a critical alarm that
// clears when it reports again.
func TestNodes(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		c := env.LoggedIn(t)
		host, _ := os.Hostname()
		self := node.Moid("node:" + host)

		// This node: its host name, addresses, live figures.
		ps := list(get(t, c, "/platform_domains/"+nms.PlatformMoid+"/physicals", nil)["physicals"])
		if len(ps) != 1 {
			t.Fatalf("physicals = %v, want this node", ps)
		}
		me := ps[0]
		eq(t, "this node", []any{me["moid"], me["name"], me["type"], me["online"], me["domain_moid"], me["machine_room_moid"], me["warning_level"]},
			[]any{self, host, "CONFERD", "online", nms.PlatformMoid, node.DefaultMachineRoomMoid, ""})
		if !strings.Contains(me["ip"].(string), "127.0.0.1;") {
			t.Errorf("ip %q lacks the loopback address", me["ip"])
		}
		if _, err := os.Stat("/proc/meminfo"); err == nil {
			for _, k := range []string{"cpu", "memory", "disk"} {
				if n, err := strconv.Atoi(me[k].(string)); err != nil || n < 0 || n > 100 {
					t.Errorf("%s = %q, want a percentage", k, me[k])
				}
			}
		}
		// The registry holds the node's facts: CPU count, memory, OS, start, version, uptime.
		doc := storedNode(t, env, self)
		eq(t, "registered facts", []any{doc["cpu_count"] != float64(0), doc["os"] != "", doc["version"], doc["start_time"], doc["run_time"]},
			[]any{true, true, "6.1.0.4.0.20210115", env.Clock.Now().Format(time.RFC3339), 0})
		env.Advance(t, 5*time.Second) // the due work reports when the last report is 10 s old
		eq(t, "no report within the interval", storedNode(t, env, self)["run_time"], 0)
		env.Advance(t, 20*time.Second)
		doc = storedNode(t, env, self)
		eq(t, "figures after 25 s", []any{doc["run_time"], int64(doc["reported_at_ms"].(float64))}, []any{25, env.Clock.Now().UnixMilli()})

		detail := get(t, c, "/physicals/"+self+"/detail", nil)
		eq(t, "detail names", []any{detail["domain_name"], detail["machine_room_name"], detail["name"]}, []any{nms.PlatformName, node.DefaultMachineRoomName, host})
		logicals := list(get(t, c, "/physicals/"+self+"/logicals", nil)["logicals"])
		eq(t, "services", len(logicals), 4)
		media := byName(t, logicals, "type", "MEDIA")
		eq(t, "media service", []any{media["p_server_moid"], media["moid"], media["online"], media["domain_moid"]},
			[]any{self, node.ServiceMoid(self, "media"), "online", nms.PlatformMoid})

		// Another node reports: CPU 25 % between its two samples, then 75 %.
		other := newPeer(env, "node-b")
		other.report(t, 100, 1000, 600)
		env.Advance(t, 5*time.Second)
		other.report(t, 350, 2000, 600)
		b := byName(t, list(get(t, c, "/platform_domains/"+nms.PlatformMoid+"/physicals", nil)["physicals"]), "name", "node-b")
		eq(t, "other node", []any{b["cpu"], b["memory"], b["disk"], b["portin"], b["portout"], b["ip"], b["online"]},
			[]any{"25", "40", "42", "4", "2", "10.9.0.7;", "online"})
		env.Advance(t, 5*time.Second)
		other.report(t, 1100, 3000, 100)
		b = get(t, c, "/physicals/"+other.moid()+"/detail", nil)
		eq(t, "figures changed", []any{b["cpu"], b["memory"], b["machine_room_name"]}, []any{"75", "90", "Hall B"})
		eq(t, "platform logicals", len(list(get(t, c, "/platform_domains/"+nms.PlatformMoid+"/logicals", nil)["logicals"])), 6)

		// node-b stops reporting: offline after three intervals, with an alarm.
		env.Advance(t, 29*time.Second)
		eq(t, "still online", get(t, c, "/physicals/"+other.moid()+"/detail", nil)["online"], "online")
		eq(t, "no alarm yet", get(t, c, "/servers/"+other.moid()+"/unrepaired_warnings", nil)["unrepaired_warnings"], []any{})
		env.Advance(t, time.Second)
		b = get(t, c, "/physicals/"+other.moid()+"/detail", nil)
		eq(t, "offline", []any{b["online"], b["cpu"], b["warning_level"]}, []any{"offline", "", "critical"})
		ws := list(get(t, c, "/servers/"+other.moid()+"/unrepaired_warnings", nil)["unrepaired_warnings"])
		if len(ws) != 1 {
			t.Fatalf("warnings = %v", ws)
		}
		eq(t, "offline alarm", []any{ws[0]["device_moid"], ws[0]["device_name"], ws[0]["device_type"], ws[0]["warning_level"],
			ws[0]["machine_room_name"], ws[0]["domain_name"], ws[0]["start_time"]},
			[]any{other.moid(), "node-b", "CONFERD", "critical", "Hall B", nms.PlatformName, env.Clock.Now().Format("2006-01-02T15:04:05-07:00")})
		if !strings.Contains(ws[0]["description"].(string), "stopped reporting") {
			t.Errorf("description %q", ws[0]["description"])
		}
		for _, l := range list(get(t, c, "/physicals/"+other.moid()+"/logicals", nil)["logicals"]) {
			eq(t, "its services", l["online"], "offline")
		}
		env.Advance(t, time.Minute)
		ws = list(get(t, c, "/servers/"+other.moid()+"/unrepaired_warnings", nil)["unrepaired_warnings"])
		eq(t, "the alarm keeps its start", ws[0]["start_time"], env.Clock.Now().Add(-time.Minute).Format("2006-01-02T15:04:05-07:00"))
		other.report(t, 1200, 4000, 100)
		eq(t, "cleared by a report", get(t, c, "/servers/"+other.moid()+"/unrepaired_warnings", nil)["unrepaired_warnings"], []any{})
		eq(t, "back online", get(t, c, "/physicals/"+other.moid()+"/detail", nil)["warning_level"], "")

		// Unknown servers and domains.
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/physicals/nope/detail", nil), 22008)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/physicals/nope/logicals", nil), 22008)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/servers/nope/unrepaired_warnings", nil), 22008)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/platform_domains/"+nms.ServiceMoid+"/physicals", nil), 90400)
		testserver.MustFail(t, c.Do("GET", "/api/v1/nms/platform_domains/x/logicals", nil), 90400)
	})
}

// storedNode reads a node's document from the registry.
func storedNode(t *testing.T, env *testserver.Env, moid string) map[string]any {
	t.Helper()
	docs, err := env.Store.ListNodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range docs {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m["moid"] == moid {
			return m
		}
	}
	t.Fatalf("node %s is not registered", moid)
	return nil
}

// The domains: kernel, platform, service and the caller's user domain.
func TestDomains(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	c := env.LoggedIn(t)
	env.Account(t, "other", "bob", false)
	ds := list(get(t, c, "/domains", nil)["domains"])
	user := byName(t, ds, "type", "user")
	eq(t, "domains", len(ds), 4)
	eq(t, "user domain", []any{user["name"], user["parent_moid"]}, []any{"default", nms.ServiceMoid})
	eq(t, "platform", byName(t, ds, "type", "platform")["moid"], nms.PlatformMoid)
	eq(t, "service", byName(t, ds, "type", "service")["parent_moid"], nms.KernelMoid)
	for _, d := range ds {
		if d["name"] == "other" {
			t.Errorf("another user domain is listed: %v", d)
		}
	}
}
