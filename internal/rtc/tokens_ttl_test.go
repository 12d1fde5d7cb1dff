package rtc_test

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// TestTokenTTL: a whole number of seconds from 60 to 86400 sets the
// token's expiry (issue 35 item 7: every ttl was refused); a fraction, a
// word and a value out of range are refused with 90400 naming ttl.
func TestTokenTTL(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}})
	c := env.LoggedIn(t)
	conf := startConf(t, c, "ttl")
	for _, ttl := range []int{60, 600, 86400} {
		tok := rtcToken(t, c, conf, map[string]any{"ttl": ttl})
		exp, err := time.Parse(record.TimeLayout, tok["expires_at"].(string))
		if want := env.Clock.Now().Add(time.Duration(ttl) * time.Second); err != nil || !exp.Equal(want.Truncate(time.Second)) && !exp.Equal(want) {
			t.Errorf("ttl %d: expires_at %v (%v), want %v", ttl, tok["expires_at"], err, want)
		}
	}
	for _, ttl := range []any{59, 86401, 90.5, "soon"} {
		msg := testserver.MustFail(t, c.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens", testserver.Params(t, map[string]any{"ttl": ttl})), 90400)
		if msg == "" {
			t.Errorf("ttl %v: no description", ttl)
		}
	}
}
