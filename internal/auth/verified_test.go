package auth

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// The verified-secret cache answers a repeated correct secret from memory
// for the same principal and stored hash only, never a wrong one, and
// forgets entries after their time and beyond its bound.
func TestVerifiedCache(t *testing.T) {
	h1, err := HashSecret("first secret")
	if err != nil {
		t.Fatal(err)
	}
	h2, err := HashSecret("second secret")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	c := newVerifiedCache(5*time.Minute, 2)
	if !c.check("a:x", h1, "first secret", now) {
		t.Fatal("correct secret refused")
	}
	if c.len() != 1 {
		t.Fatalf("kept %d entries after a success, want 1", c.len())
	}
	if c.check("a:x", h1, "wrong", now) || c.check("a:x", h1, "first secret\x00", now) {
		t.Fatal("wrong secret accepted")
	}
	if c.check("a:x", h2, "first secret", now) {
		t.Fatal("the kept secret accepted against another stored hash (a new password)")
	}
	if !c.check("a:x", h2, "second secret", now) || c.check("a:x", h2, "first secret", now) {
		t.Fatal("the new hash's secret refused, or the old one accepted")
	}
	// A hit: the entry's HMAC answers (a corrupted stored hash would make
	// bcrypt refuse, so success here means bcrypt was not asked).
	c.m["a:y"] = verifiedEntry{mac: c.sum("not a bcrypt hash", "s"), at: now}
	if !c.check("a:y", "not a bcrypt hash", "s", now.Add(time.Minute)) {
		t.Fatal("kept entry not used")
	}
	if c.check("a:y", "not a bcrypt hash", "s", now.Add(5*time.Minute)) {
		t.Fatal("expired entry used")
	}
	if c.check("a:z", "not a bcrypt hash", "s", now) {
		t.Fatal("another principal's entry used")
	}
	// The bound: a third principal evicts one.
	c.check("a:x", h1, "first secret", now)
	c.check("l:k", h2, "second secret", now)
	c.check("a:w", h1, "first secret", now)
	if c.len() > 2 {
		t.Fatalf("kept %d entries, bound 2", c.len())
	}
	c.forget("a:w")
	if _, ok := c.m["a:w"]; ok {
		t.Fatal("forget kept the entry")
	}
	// Off: every comparison is bcrypt's and nothing is kept.
	off := newVerifiedCache(0, 10)
	if !off.check("a:x", h1, "first secret", now) || off.check("a:x", h1, "x", now) || off.len() != 0 {
		t.Fatal("disabled cache misbehaves")
	}
}

// BenchmarkVerifiedHit is a repeated correct secret answered from memory.
func BenchmarkVerifiedHit(b *testing.B) {
	h, err := HashSecret("correct horse battery")
	if err != nil {
		b.Fatal(err)
	}
	c := newVerifiedCache(time.Hour, 10)
	now := time.Now()
	c.check("a:x", h, "correct horse battery", now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !c.check("a:x", h, "correct horse battery", now) {
			b.Fatal("refused")
		}
	}
}

// Callers arriving while a comparison of the same principal, hash and
// secret runs share it: one bcrypt for sixteen concurrent logins. A
// wrong secret is shared the same way and never kept; another secret
// runs its own comparison.
func TestVerifiedCacheSharesAComparison(t *testing.T) {
	h, err := HashSecret("right")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	for _, secret := range []string{"right", "wrong"} {
		c := newVerifiedCache(time.Hour, 10)
		release := make(chan struct{})
		var calls atomic.Int32
		c.compare = func(hash, s string) bool {
			calls.Add(1)
			<-release
			return CheckSecret(hash, s)
		}
		const n = 16
		results := make(chan bool, n)
		for i := 0; i < n; i++ {
			go func() { results <- c.check("a:acc", h, secret, now) }()
		}
		for c.waiters() < n-1 { // all but the one comparing are waiting
			runtime.Gosched()
		}
		close(release)
		for i := 0; i < n; i++ {
			if ok := <-results; ok != (secret == "right") {
				t.Fatalf("%s: a caller got %v", secret, ok)
			}
		}
		if calls.Load() != 1 {
			t.Fatalf("%s: %d bcrypt comparisons for %d concurrent callers, want 1", secret, calls.Load(), n)
		}
		if kept := c.len(); kept != map[string]int{"right": 1, "wrong": 0}[secret] {
			t.Fatalf("%s: %d entries kept", secret, kept)
		}
		c.compare = func(hash, s string) bool { calls.Add(1); return CheckSecret(hash, s) }
		if c.check("a:acc", h, "another", now) || calls.Load() != 2 {
			t.Fatalf("%s: another secret was answered without its own comparison", secret)
		}
	}
}
