package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 3: 66 connections from one address announcing 1 MiB
// bodies and trickling them took the whole 64 MiB budget, and every POST
// of every other client was answered 90503. Now one address holds at most
// its share (4 MiB); a client of another address is served meanwhile, on
// the API and on /api/v1/publish.
func TestSlowBodiesFromOneAddressLeaveOthersServed(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	const n = 66
	busy := make(chan string, n)
	for range n {
		c := dialFrom(t, env, "127.0.0.1")
		fmt.Fprintf(c, "POST /api/v1/system/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\no", 1<<20)
		go func() {
			b, _ := io.ReadAll(c) // until the server answers and closes, or the test ends
			busy <- string(b)
		}()
	}
	// The first refusal: the attacker's address (or, before, the whole
	// server) holds all it may.
	for got := <-busy; !strings.Contains(got, fmt.Sprintf(`"error_code":%d`, server.CodeBusy)); got = <-busy {
		t.Logf("a slow connection ended without 90503: %.200q", got)
	}
	for _, probe := range []struct{ path, ctype, body string }{
		{"/api/v1/system/token", "application/x-www-form-urlencoded", "oauth_consumer_key=k&oauth_consumer_secret=s"},
		{"/api/v1/publish", "application/json", `[{"channel":"/meta/handshake","version":"1.0","supportedConnectionTypes":["long-polling"]}]`},
	} {
		c := dialFrom(t, env, "127.0.0.2")
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", probe.path, probe.ctype, len(probe.body), probe.body)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("probe %s from 127.0.0.2: %v", probe.path, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), "90503") {
			t.Errorf("probe %s from 127.0.0.2 while 127.0.0.1 trickles %d bodies: %s", probe.path, n, b)
		}
	}
}
