package push_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/confer-platform/confer/internal/push"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Shutting down drains the connections: a held long-poll connect and a
// websocket's held connect are answered with advice reconnect "retry",
// the websocket is closed with "going away" (1001) by a close handshake,
// and Run returns only after both; a websocket opened while draining is
// refused.
func TestShutdownDrains(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	admin := env.LoggedIn(t)
	ps := push.New(push.Config{Events: env.Store, Store: env.Store, Sessions: env.Srv.Auth(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	hs := httptest.NewServer(ps)
	defer hs.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ran := make(chan struct{})
	go func() { ps.Run(ctx); close(ran) }()

	lp := &bx{t: t, url: hs.URL + push.Path, cookie: admin.Cookie, http: lpClient, header: http.Header{}}
	lp.mustHandshake()
	held := make(chan []msg, 1)
	go func() { held <- lp.post("/connect", lp.connectMsg(60000)) }()

	// A websocket client with a held connect.
	h := http.Header{"Cookie": {"SSO_COOKIE_KEY=" + admin.Cookie}}
	ws, _, err := websocket.Dial(context.Background(), strings.Replace(hs.URL, "http", "ws", 1)+push.Path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	send := func(m msg) {
		raw, _ := json.Marshal([]msg{m})
		if err := ws.Write(context.Background(), websocket.MessageText, raw); err != nil {
			t.Fatal(err)
		}
	}
	read := func() ([]msg, error) {
		rctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_, raw, err := ws.Read(rctx)
		var ms []msg
		if err == nil {
			err = json.Unmarshal(raw, &ms)
		}
		return ms, err
	}
	send(msg{"channel": "/meta/handshake", "version": "1.0", "supportedConnectionTypes": []string{"websocket"}, "id": "1"})
	r, err := read()
	if err != nil || len(r) != 1 || r[0]["successful"] != true {
		t.Fatalf("websocket handshake: %v %v", r, err)
	}
	wsID := r[0]["clientId"].(string)
	send(msg{"channel": "/meta/connect", "clientId": wsID, "connectionType": "websocket", "id": "2", "advice": msg{"timeout": 0}})
	if r, err = read(); err != nil || find(r, "/meta/connect")["successful"] != true {
		t.Fatalf("first websocket connect: %v %v", r, err)
	}
	send(msg{"channel": "/meta/connect", "clientId": wsID, "connectionType": "websocket", "id": "3"})
	waitFor(t, "both clients", func() bool { return ps.Clients() == 2 })
	time.Sleep(100 * time.Millisecond) // both connects held

	stop()
	retry := func(what string, c msg) {
		t.Helper()
		a, _ := c["advice"].(msg)
		if c["successful"] != true || a["reconnect"] != "retry" || a["interval"] != float64(1000) {
			t.Errorf("%s on shutdown = %v", what, c)
		}
	}
	select {
	case rs := <-held:
		retry("held long-poll connect", find(rs, "/meta/connect"))
	case <-time.After(5 * time.Second):
		t.Fatal("the held long-poll connect was not answered")
	}
	// The server waits for the client's answer to its close frame, which
	// this client sends once it reads: Run has not returned yet.
	select {
	case <-ran:
		t.Error("Run returned before the websocket was closed")
	case <-time.After(300 * time.Millisecond):
	}
	if r, err = read(); err != nil {
		t.Fatalf("websocket on shutdown: %v", err)
	}
	retry("held websocket connect", find(r, "/meta/connect"))
	_, err = read()
	if s := websocket.CloseStatus(err); s != websocket.StatusGoingAway {
		t.Errorf("websocket end = %v (status %v), want a close frame 1001", err, s)
	}
	select {
	case <-ran:
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after draining")
	}
	if _, resp, err := websocket.Dial(context.Background(), strings.Replace(hs.URL, "http", "ws", 1)+push.Path, &websocket.DialOptions{HTTPHeader: h}); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("websocket while shut down: %v %v", resp, err)
	}
	if r := lp.handshake(nil); r["successful"] != false || !strings.HasPrefix(r["error"].(string), "503:") {
		t.Errorf("handshake while shut down = %v", r)
	}
}
