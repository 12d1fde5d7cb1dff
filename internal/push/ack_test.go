package push_test

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The acknowledgement extension: a client that asked for it in its
// handshake gets its messages in numbered batches with its connect
// replies; a batch it does not acknowledge (its reply was lost) comes
// again with the next connect of the same clientId.
func TestAckExtension(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		b := newBx(t, env, admin.Cookie)
		if h := b.handshake(msg{"ack": true}); h["successful"] != true || h["ext"].(msg)["ack"] != true {
			t.Fatalf("handshake = %v", h)
		}
		base := "/userdomains/" + b.domain + "/confs"
		id := startConf(t, env, admin, "ack")
		b.mustSubscribe(base + "/" + id + "/speaker")
		connect := func(ack, timeoutMs int) ([]string, float64) {
			t.Helper()
			m := b.connectMsg(timeoutMs)
			m["ext"] = msg{"ack": ack}
			rs := b.post("/connect", m)
			c := find(rs, "/meta/connect")
			if c == nil || c["successful"] != true {
				t.Fatalf("connect = %v", rs)
			}
			var got []string
			for _, d := range data(rs) {
				got = append(got, d["data"].(msg)["mt_id"].(string))
			}
			n, _ := c["ext"].(msg)["ack"].(float64)
			return got, n
		}
		speaker := func(mt string) {
			testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": mt})))
		}
		check := func(what string, got []string, batch float64, want []string, wantBatch float64) {
			t.Helper()
			sameJSON(t, what, []any{got, batch}, []any{want, wantBatch})
		}

		got, n := connect(0, 0)
		check("nothing yet", got, n, nil, 0)
		speaker("1")
		got, n = connect(0, 5000)
		check("first batch", got, n, []string{"1"}, 1)
		// The reply was lost: the client acknowledges batch 0 again.
		got, n = connect(0, 5000)
		check("batch 1 again", got, n, []string{"1"}, 1)
		speaker("2")
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			// Until the tailer has queued it, batch 1 comes alone.
			if got, n = connect(0, 0); len(got) > 1 || time.Now().After(deadline) {
				break
			}
			check("batch 1 again", got, n, []string{"1"}, 1)
		}
		check("batch 1 again and batch 2", got, n, []string{"1", "2"}, 2)
		got, n = connect(2, 0)
		check("all acknowledged", got, n, nil, 2)

		// Without the extension a message is sent once.
		plain := newBx(t, env, admin.Cookie)
		if h := plain.handshake(nil); h["ext"].(msg)["ack"] != nil {
			t.Fatalf("handshake without ack = %v", h)
		}
		plain.mustSubscribe(base + "/" + id + "/speaker")
		speaker("1")
		plain.next(base+"/"+id+"/speaker", nil)
		if rs := data(plain.connect(0)); len(rs) != 0 {
			t.Errorf("sent again without the extension: %v", rs)
		}
	})
}

// /metrics counts the messages published by channel family (no ids),
// the messages delivered by transport, dropped clients by reason, and the
// fan-out delay.
func TestPushMetrics(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{Push: push.Options{MaxInterval: time.Second, Now: clock}})
	admin := env.LoggedIn(t)
	b := newBx(t, env, admin.Cookie)
	b.mustHandshake()
	base := "/userdomains/" + b.domain + "/confs"
	b.mustSubscribe(base + "/**")
	id := startConf(t, env, admin, "metrics")
	testserver.MustOK(t, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(t, msg{"mt_id": "1"})))
	b.next(base+"/"+id+"/speaker", nil)
	silent := newBx(t, env, admin.Cookie)
	silent.mustHandshake()
	mu.Lock()
	now = now.Add(5 * time.Second)
	mu.Unlock()
	waitFor(t, "the silent clients to expire", func() bool { return env.Srv.Push().Clients() == 0 })

	resp, err := http.Get(env.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(raw)
	value := func(series string) float64 {
		t.Helper()
		m := regexp.MustCompile("(?m)^" + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
		if m == nil {
			t.Errorf("no %s in /metrics", series)
			return 0
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	for _, s := range []string{
		`confer_push_messages_published_total{channel="/confs/{conf_id}/speaker"}`,
		`confer_push_messages_published_total{channel="/confs/{conf_id}/cascades/{cascade_id}/mts/{mt_id}"}`,
		`confer_push_messages_delivered_total{transport="long-polling"}`,
		`confer_push_clients_dropped_total{reason="expired"}`,
		`confer_push_fanout_delay_seconds_count`,
	} {
		if v := value(s); v < 1 {
			t.Errorf("%s = %v, want at least 1", s, v)
		}
	}
	if regexp.MustCompile(`confer_push_messages_published_total\{channel="[^"]*(` + id + `|` + b.domain + `)`).MatchString(text) {
		t.Errorf("a channel label carries an id:\n%s", text)
	}
}
