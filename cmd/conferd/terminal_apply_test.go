package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// conferd terminal apply: a running server on the same database publishes
// the notification to the conference's subscribers; a conference that does
// not run, a terminal that is not online and bad flags are refused with
// nothing published.
func TestTerminalApply(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := testserver.Start(t, dsn, testserver.Options{})
		admin := env.LoggedIn(t)
		if code, _, errs := runCmd(t, "terminal", "add", "--db", dsn, "--e164", "5559999", "--behaviour", "offline"); code != 0 {
			t.Fatalf("terminal add: %s", errs)
		}
		p := map[string]any{"create_type": 1, "name": "apply", "bitrate": 1024, "max_join_mt": 8, "duration": 0, "call_mode": 2,
			"video_formats": []any{map[string]any{"format": 4, "resolution": 12, "frame": 30, "bitrate": 1024}},
			"invite_members": []any{
				map[string]any{"name": "a", "account": "10.3.0.1", "account_type": 7, "bitrate": 1024, "protocol": 0},
				map[string]any{"name": "b", "account": "5559999", "account_type": 5, "bitrate": 1024, "protocol": 0},
			}}
		id := testserver.MustOK(t, admin.Do("POST", "/api/v1/mc/confs", testserver.Params(t, p)))["conf_id"].(string)
		env.Advance(t, 2*time.Second) // 10.3.0.1 answers; 5559999 is offline

		c := &bayeux{t: t, url: env.URL + "/api/v1/publish", cookie: admin.Cookie}
		domain := c.handshake()
		base := "/userdomains/" + domain + "/confs/" + id
		c.send(map[string]any{"channel": "/meta/subscribe", "clientId": c.id, "subscription": base + "/*"})

		for _, bad := range []struct {
			code int
			args []string
		}{
			{2, []string{"--conf", id, "--mt", "1", "--for", "floor"}},
			{2, []string{"--conf", id, "--for", "speaker"}},
			{1, []string{"--conf", "9999999", "--mt", "1", "--for", "speaker"}},
			{1, []string{"--conf", id, "--mt", "2", "--for", "speaker"}},  // not online
			{1, []string{"--conf", id, "--mt", "17", "--for", "speaker"}}, // no such terminal
		} {
			if code, _, errs := runCmd(t, append([]string{"terminal", "apply", "--db", dsn}, bad.args...)...); code != bad.code || errs == "" {
				t.Errorf("apply %v: exit %d (want %d), stderr %q", bad.args, code, bad.code, errs)
			}
		}
		for _, what := range []string{"speaker", "chairman", "mix"} {
			if code, out, errs := runCmd(t, "terminal", "apply", "--db", dsn, "--conf", id, "--mt", "1", "--for", what); code != 0 || !strings.Contains(out, "apply"+what) {
				t.Fatalf("apply %s: exit %d, %q %q", what, code, out, errs)
			}
		}
		var got []string
		deadline := time.Now().Add(10 * time.Second)
		for len(got) < 3 && time.Now().Before(deadline) {
			for _, m := range c.send(map[string]any{"channel": "/meta/connect", "clientId": c.id, "connectionType": "long-polling",
				"advice": map[string]any{"timeout": 500}}) {
				if ch, _ := m["channel"].(string); strings.HasPrefix(ch, base+"/apply") {
					b, _ := json.Marshal(m["data"])
					got = append(got, strings.TrimPrefix(ch, base)+" "+string(b))
				}
			}
		}
		want := `[/applyspeaker {"method":"notify","mt_id":"1"} /applychairman {"method":"notify","mt_id":"1"} /applymix {"method":"notify","mt_id":"1"}]`
		if s := "[" + strings.Join(got, " ") + "]"; s != want {
			t.Fatalf("notifications:\n got %s\nwant %s", s, want)
		}
	})
}

// bayeux is a minimal long-polling Bayeux client.
type bayeux struct {
	t      *testing.T
	url    string
	cookie string
	id     string
}

func (b *bayeux) send(m map[string]any) []map[string]any {
	b.t.Helper()
	body, _ := json.Marshal([]any{m})
	req, _ := http.NewRequest("POST", b.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: "SSO_COOKIE_KEY", Value: b.cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		b.t.Fatal(err)
	}
	for _, r := range out {
		if ch, _ := r["channel"].(string); strings.HasPrefix(ch, "/meta/") && r["successful"] != true {
			b.t.Fatalf("%s: %v", ch, r)
		}
	}
	return out
}

// handshake returns the user domain.
func (b *bayeux) handshake() string {
	r := b.send(map[string]any{"channel": "/meta/handshake", "version": "1.0", "supportedConnectionTypes": []string{"long-polling"}})[0]
	b.id = r["clientId"].(string)
	return r["ext"].(map[string]any)["user_domain_moid"].(string)
}
