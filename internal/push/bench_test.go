package push_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// BenchmarkFanout measures the latency from an API write (PUT speaker) to
// its message at each of N subscribed clients, over the websocket and the
// long-polling transport: every delivery of every write is one sample;
// p50 and p99 are reported in milliseconds. N is PUSH_BENCH_CLIENTS
// (default 1000):
//
//	go test ./internal/push -run '^$' -bench Fanout -benchtime 20x
func BenchmarkFanout(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("PUSH_BENCH_CLIENTS")); err == nil && v > 0 {
		n = v
	}
	for _, tr := range []string{"websocket", "long-polling"} {
		b.Run(fmt.Sprintf("%s/clients=%d", tr, n), func(b *testing.B) { benchFanout(b, tr, n) })
	}
}

// receipt is one client's receipt of a speaker message.
type receipt struct {
	mtID string
	at   time.Time
}

func benchFanout(b *testing.B, transport string, n int) {
	// Every client connects from 127.0.0.1: no per-address cap (its
	// default, 256, is below the default 1000 clients).
	env := testserver.Start(b, testdb.SQLite(b), testserver.Options{Limits: server.Limits{MaxConnsPerIP: -1}})
	admin := env.LoggedIn(b)
	id := startConf(b, env, admin, "bench")
	probe := newBx(b, env, admin.Cookie)
	probe.mustHandshake()
	channel := "/userdomains/" + probe.domain + "/confs/" + id + "/speaker"

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan receipt, n*4)
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		c := newBx(b, env, admin.Cookie)
		c.mustHandshake()
		c.mustSubscribe(channel)
		if transport == "websocket" {
			go wsReceiver(ctx, env.URL, admin.Cookie, c.clientID, channel, got, errs)
		} else {
			go lpReceiver(ctx, env.URL, admin.Cookie, c.clientID, channel, got, errs)
		}
	}
	// Warm up until every client has received a write.
	mt := "1"
	write := func() time.Time {
		mt = map[string]string{"1": "2", "2": "1"}[mt]
		start := time.Now()
		testserver.MustOK(b, admin.Do("PUT", "/api/v1/vc/confs/"+id+"/speaker", testserver.Params(b, msg{"mt_id": mt})))
		return start
	}
	collect := func(start time.Time, samples []float64) []float64 {
		timeout := time.After(60 * time.Second)
		for k := 0; k < n; {
			select {
			case r := <-got:
				if r.mtID == mt {
					samples = append(samples, float64(r.at.Sub(start).Microseconds())/1000)
					k++
				}
			case err := <-errs:
				b.Fatal(err)
			case <-timeout:
				b.Fatalf("only %d of %d clients received the write within 60s", k, n)
			}
		}
		return samples
	}
	collect(write(), nil)

	b.ResetTimer()
	var samples []float64
	for i := 0; i < b.N; i++ {
		samples = collect(write(), samples)
	}
	b.StopTimer()
	slices.Sort(samples)
	pct := func(p float64) float64 { return samples[min(len(samples)-1, int(p*float64(len(samples))))] }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(samples[len(samples)-1], "max-ms")
	b.ReportMetric(float64(n), "clients")
}

// speakerOf reads the speaker messages on channel of a batch.
func speakerOf(raw []byte, channel string) []string {
	var ms []msg
	if json.Unmarshal(raw, &ms) != nil {
		return nil
	}
	var out []string
	for _, m := range ms {
		if m["channel"] == channel {
			d, _ := m["data"].(msg)
			id, _ := d["mt_id"].(string)
			out = append(out, id)
		}
	}
	return out
}

func lpReceiver(ctx context.Context, base, cookie, clientID, channel string, got chan<- receipt, errs chan<- error) {
	body, _ := json.Marshal([]msg{{"channel": "/meta/connect", "clientId": clientID, "connectionType": "long-polling"}})
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "POST", base+"/api/v1/publish/connect", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie})
		resp, err := lpClient.Do(req)
		if err != nil {
			if ctx.Err() == nil {
				errs <- err
			}
			return
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		now := time.Now()
		if !strings.Contains(string(raw), `"successful":true`) {
			errs <- fmt.Errorf("connect: %s", raw)
			return
		}
		for _, id := range speakerOf(raw, channel) {
			got <- receipt{id, now}
		}
	}
}

func wsReceiver(ctx context.Context, base, cookie, clientID, channel string, got chan<- receipt, errs chan<- error) {
	h := http.Header{"Cookie": {"SSO_COOKIE_KEY=" + cookie}}
	c, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/api/v1/publish", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		errs <- err
		return
	}
	defer c.CloseNow()
	connect, _ := json.Marshal([]msg{{"channel": "/meta/connect", "clientId": clientID, "connectionType": "websocket"}})
	if err := c.Write(ctx, websocket.MessageText, connect); err != nil {
		errs <- err
		return
	}
	for {
		_, raw, err := c.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				errs <- err
			}
			return
		}
		now := time.Now()
		for _, id := range speakerOf(raw, channel) {
			got <- receipt{id, now}
		}
		if strings.Contains(string(raw), `"/meta/connect"`) { // the connect's timeout: poll again
			if err := c.Write(ctx, websocket.MessageText, connect); err != nil {
				return
			}
		}
	}
}
