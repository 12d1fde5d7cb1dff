package rtc_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 38 item 12: rtc_tokens had no cap (20,000 for one conference, 640
// bytes each in the store). A conference holds at most its cap of them
// (--max-rtc-tokens-per-conf, 3 here); beyond, 90429; another
// conference is not affected.
func TestRTCTokensCappedPerConference(t *testing.T) {
	t.Parallel()
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{RTC: &sfu.Config{}, Limits: server.Limits{RTCTokensPerConf: 3}})
	c := env.LoggedIn(t)
	conf, other := startConf(t, c, "capped"), startConf(t, c, "other")
	for range 3 {
		rtcToken(t, c, conf, map[string]any{"name": "guest"})
	}
	r := c.Do("POST", "/api/v1/vc/confs/"+conf+"/rtc_tokens", testserver.Params(t, map[string]any{"name": "one more"}))
	if r.OK() || r.Code() != rtc.CodeTokenQuota {
		t.Fatalf("a fourth token: %s, want %d", r.Raw, rtc.CodeTokenQuota)
	}
	rtcToken(t, c, other, map[string]any{"name": "guest"})
}
