package rtc_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// failoverLease is the tests' media owner lease, on the nodes' shared
// fake clock: the lease lapses when the test moves the clock past it.
const failoverLease = 3 * time.Second

// ownerURL is the media URL the conference's rtc_owner record names.
func ownerURL(t *testing.T, n *testserver.Node, conf string) string {
	t.Helper()
	rec, err := n.Store.GetRecord(context.Background(), rtc.KindOwner, "", conf)
	if err != nil {
		return ""
	}
	var d struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(rec.Data, &d); err != nil {
		t.Fatal(err)
	}
	return d.URL
}

// neverSystemError checks that a control answered success or the
// retryable 90503 (docs/errors.md), never 99999.
func neverSystemError(t *testing.T, what string, r testserver.Reply) {
	t.Helper()
	if !r.OK() && r.Code() != 90503 {
		t.Errorf("%s while the owner is down = %d %v, want success or 90503 (retry)", what, r.Code(), r.Body)
	}
}

// TestMediaFailover: two nodes on one PostgreSQL database; node A owns a
// conference's media (a WHIP publisher who is the speaker and a WHEP
// viewer) and stops abruptly. While A's lease runs, the controls issued
// on B (speaker, mute, mute-all, hang-up) answer success or 90503, never
// 99999; once it lapses B takes the media over, A's participants go
// offline on B's checks, the same clients post their offers again to B
// (no redirect to the dead node) and get media, and every control acts on
// B's SFU (issue 35 item 5).
func TestMediaFailover(t *testing.T) {
	t.Parallel()
	dsn := testdb.Postgres(t)
	cfg := auth.DefaultConfig()
	cfg.TokenTTL, cfg.SessionTTL = 48*time.Hour, 48*time.Hour
	opt := testserver.Options{Auth: cfg, RTC: &sfu.Config{}, MediaLease: failoverLease}
	a := testserver.StartNode(t, dsn, nil, opt)
	b := testserver.StartNode(t, dsn, a.Clock, opt)
	ca, cb := a.LoggedIn(t), b.LoggedIn(t)
	conf := startConf(t, ca, "failover")
	vcPath := "/api/v1/vc/confs/" + conf

	pubTok := rtcToken(t, ca, conf, map[string]any{"name": "camera", "role": "publish"})
	publish(t, pubTok["whip_url"].(string), pubTok["token"].(string))
	mt := onlineTerminal(t, ca, conf, "camera")
	testserver.MustOK(t, ca.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	subTok := rtcToken(t, ca, conf, map[string]any{"name": "viewer", "role": "subscribe"})
	v, code := view(t, subTok["whep_url"].(string), subTok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on A = %d", code)
	}
	v.flowing(t, 20)
	if got := ownerURL(t, a, conf); got != a.URL {
		t.Fatalf("the owner is %q, want A %s", got, a.URL)
	}

	// A stops. Its lease still runs: B's controls are told to retry.
	a.Kill()
	neverSystemError(t, "speaker", cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt})))
	neverSystemError(t, "mute", cb.Do("PUT", vcPath+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	neverSystemError(t, "mute-all", cb.Do("PUT", vcPath+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	if r := cb.Do("PUT", vcPath+"/mts/"+mt+"/mute", testserver.Params(t, map[string]any{"value": 0})); r.Code() != 90503 {
		t.Errorf("an unmute through B while A's lease runs = %d %v, want 90503", r.Code(), r.Body)
	}

	// The lease lapses: B takes the conference's media over.
	a.Clock.Advance(failoverLease)
	waitFor(t, "B the conference's media owner", func() bool { return ownerURL(t, b, conf) == b.URL })

	// A's participants go offline on B's checks (docs/media.md "Restarts").
	for range 5 {
		b.Advance(t, 2*time.Second)
	}
	if _, on := terminal(t, cb, conf, "camera"); on {
		t.Error("the publisher of the stopped owner is still online after B's checks")
	}
	neverSystemError(t, "hang-up", cb.Do("DELETE", vcPath+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt}}})))
	neverSystemError(t, "unmute-all", cb.Do("PUT", vcPath+"/mute", testserver.Params(t, map[string]any{"value": 0})))

	// The same clients post their offers again, to B: B serves them.
	whipB := strings.Replace(pubTok["whip_url"].(string), a.URL, b.URL, 1)
	whepB := strings.Replace(subTok["whep_url"].(string), a.URL, b.URL, 1)
	pub := publish(t, whipB, pubTok["token"].(string))
	var mt2 string
	waitFor(t, "the publisher online again through B", func() bool {
		mt2 = ""
		for _, m := range b.Srv.SFU().Participants(conf) {
			if m != mt {
				mt2 = m
			}
		}
		return mt2 != ""
	})
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/speaker", testserver.Params(t, map[string]any{"mt_id": mt2})))
	v2, code := view(t, whepB, subTok["token"].(string))
	if code != http.StatusCreated {
		t.Fatalf("WHEP on B after the failover = %d", code)
	}
	v2.flowing(t, 20)

	// Controls through B act on B's SFU.
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt2+"/mute", testserver.Params(t, map[string]any{"value": 1})))
	v2.stopped(t, pub)
	testserver.MustOK(t, cb.Do("PUT", vcPath+"/mts/"+mt2+"/mute", testserver.Params(t, map[string]any{"value": 0})))
	v2.flowing(t, 20)
	testserver.MustOK(t, cb.Do("DELETE", vcPath+"/online_mts",
		testserver.Params(t, map[string]any{"mts": []any{map[string]any{"mt_id": mt2}}})))
	waitFor(t, "the hung-up publisher gone from B", func() bool { return !slices.Contains(b.Srv.SFU().Participants(conf), mt2) })
}
