package mc_test

import (
	"fmt"
	"github.com/confer-platform/confer/internal/api"
	"sync"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 20 item 3: one account booked the whole number range (50 numbers
// here) and no domain could create a conference any more (27505). With the
// default quotas an account that is not an administrator holds at most 20
// live conferences (20164 beyond, even when it books 30 at once), and
// other domains still create conferences.
func TestConfQuotaProtectsOtherDomains(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		cfg := engine.DefaultConfig()
		cfg.NumberMin, cfg.NumberMax = 1110000, 1110049
		env := testserver.Start(t, dsn, testserver.Options{Auth: cfLongAuth(), Conference: cfg})
		book := func(c *testserver.Client, i int) testserver.Reply {
			return c.Do("POST", cfPath, testserver.Params(t, cfInstant(fmt.Sprintf("b%d", i), map[string]any{
				"start_time": "2026-03-02T10:00:00+00:00", "duration": 60})))
		}
		alice := env.Account(t, "default", "alice", false)
		ok := 0
		for i := range 50 {
			r := book(alice, i)
			if !r.OK() {
				if r.Code() != api.CodeQuota {
					t.Fatalf("booking %d: %s, want %d", i, r.Raw, api.CodeQuota)
				}
				break
			}
			ok++
		}
		if want := engine.DefaultQuota().PerAccount; ok != want {
			t.Fatalf("alice booked %d conferences, want the quota %d", ok, want)
		}
		// Thirty bookings at once by another account: exactly the quota.
		carol := env.Account(t, "default", "carol", false)
		var wg sync.WaitGroup
		codes := make(chan int, 30)
		for i := range 30 {
			wg.Go(func() { codes <- book(carol, 100+i).Code() })
		}
		wg.Wait()
		close(codes)
		n := 0
		for code := range codes {
			switch code {
			case -1:
				n++
			case api.CodeQuota:
			default:
				t.Errorf("concurrent booking answered %d", code)
			}
		}
		if n != engine.DefaultQuota().PerAccount {
			t.Fatalf("carol booked %d of 30 at once, want %d", n, engine.DefaultQuota().PerAccount)
		}
		// Another domain creates a conference at once.
		bob := env.Account(t, "other", "bob", false)
		testserver.MustOK(t, bob.Do("POST", cfPath, testserver.Params(t, cfInstant("bobs", nil))))
	})
}

// The domain quota bounds every account of the domain together,
// administrators included.
func TestConfQuotaPerDomain(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		cfg := engine.DefaultConfig()
		cfg.Quota = engine.Quota{PerAccount: 2, PerDomain: 3}
		env := testserver.Start(t, dsn, testserver.Options{Auth: cfLongAuth(), Conference: cfg})
		admin := env.LoggedIn(t)
		for i := range 3 {
			testserver.MustOK(t, admin.Do("POST", cfPath, testserver.Params(t, cfInstant(fmt.Sprint("a", i), nil))))
		}
		r := admin.Do("POST", cfPath, testserver.Params(t, cfInstant("a3", nil)))
		if r.Code() != api.CodeQuota {
			t.Fatalf("fourth conference of the domain: %s, want %d", r.Raw, api.CodeQuota)
		}
		other := env.Account(t, "other", "dave", false)
		testserver.MustOK(t, other.Do("POST", cfPath, testserver.Params(t, cfInstant("d", nil))))
	})
}
