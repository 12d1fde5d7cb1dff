package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// NewToken returns a fresh account_token: 128 random bits as 32 hex digits,
// the shape of the reference's example.
func NewToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NewCookie returns a fresh SSO_COOKIE_KEY value: 128 random bits written in
// the 8-4-4-4-12 shape of the reference's example.
func NewCookie() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// NewMoid returns a fresh identifier for domains and accounts.
func NewMoid() string { return NewCookie() }

// NewSecret returns a random secret or password for first-start bootstrap.
func NewSecret() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// testCost, when not zero, is the bcrypt cost of new hashes in a test
// binary (SetTestHashCost). Production hashes use bcrypt.DefaultCost.
var testCost atomic.Int32

// SetTestHashCost makes HashSecret and the comparison for unknown
// principals use bcrypt cost (bcrypt.MinCost up; 0: bcrypt.DefaultCost
// again) in this process. It is for test setups only and does nothing
// outside a test binary (testing.Testing): conferd, built with -race or
// not, always hashes at bcrypt.DefaultCost. Test setups lower it
// (internal/testserver) because a comparison checks at the cost stored in
// the hash, and at cost 10 one took seconds of a loaded core under the
// race detector: the login tests of internal/server took 168 to 348 s
// each in CI's -race stage. A comparison at cost 4 is 64 times cheaper
// and still bcrypt's, so the tests check the same code.
func SetTestHashCost(cost int) {
	if !testing.Testing() {
		return
	}
	if cost != 0 {
		cost = max(bcrypt.MinCost, min(cost, bcrypt.MaxCost))
	}
	testCost.Store(int32(cost))
}

// hashCost is the bcrypt cost of new hashes.
func hashCost() int {
	if c := testCost.Load(); c != 0 {
		return int(c)
	}
	return bcrypt.DefaultCost
}

// HashSecret hashes a password or license secret with bcrypt, at
// bcrypt.DefaultCost (a test setup may lower it: SetTestHashCost).
func HashSecret(secret string) (string, error) {
	if len(secret) > 72 {
		return "", fmt.Errorf("secret longer than 72 bytes")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(secret), hashCost())
	return string(h), err
}

// CheckSecret compares a secret with its bcrypt hash in constant time.
func CheckSecret(hash, secret string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret)) == nil
}

// dummyHashes are compared against when the account or license is
// unknown, so that a miss costs as much time as a wrong secret: one per
// cost, made at first use, at the cost of new hashes.
var dummyHashes sync.Map // int cost → []byte

func dummyHash(cost int) []byte {
	if h, ok := dummyHashes.Load(cost); ok {
		return h.([]byte)
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("confer-dummy-secret"), cost)
	v, _ := dummyHashes.LoadOrStore(cost, h)
	return v.([]byte)
}

func burnCompare(secret string) {
	_ = bcrypt.CompareHashAndPassword(dummyHash(hashCost()), []byte(secret))
}

// lookupHash is how tokens and cookies are stored: SHA-256, enough for
// values with 128 random bits.
func lookupHash(v string) string {
	s := sha256.Sum256([]byte(v))
	return hex.EncodeToString(s[:])
}
