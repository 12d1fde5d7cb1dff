package sip_test

import (
	"math/rand/v2"
	"strconv"

	"github.com/confer-platform/confer/internal/sip"
)

func itoa(n int) string { return strconv.Itoa(n) }

// sipConfig is a test user agent: a random high RTP range per test.
func sipConfig() sip.Config {
	lo := 20000 + 2*rand.IntN(10000)
	return sip.Config{RTPPortMin: lo, RTPPortMax: lo + 400}
}
