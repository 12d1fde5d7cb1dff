package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

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

// HashSecret hashes a password or license secret with bcrypt.
func HashSecret(secret string) (string, error) {
	if len(secret) > 72 {
		return "", fmt.Errorf("secret longer than 72 bytes")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(secret), bcrypt.DefaultCost)
	return string(h), err
}

// CheckSecret compares a secret with its bcrypt hash in constant time.
func CheckSecret(hash, secret string) bool {
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret)) == nil
}

// dummyHash is compared against when the account or license is unknown, so
// that a miss costs as much time as a wrong secret.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("confer-dummy-secret"), bcrypt.DefaultCost)

func burnCompare(secret string) {
	_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(secret))
}

// lookupHash is how tokens and cookies are stored: SHA-256, enough for
// values with 128 random bits.
func lookupHash(v string) string {
	s := sha256.Sum256([]byte(v))
	return hex.EncodeToString(s[:])
}
