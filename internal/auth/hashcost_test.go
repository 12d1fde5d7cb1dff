package auth

import (
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// TestHashCost: HashSecret hashes at bcrypt.DefaultCost unless a test
// setup lowered the cost (SetTestHashCost), and 0 restores the default.
func TestHashCost(t *testing.T) {
	t.Cleanup(func() { SetTestHashCost(0) })
	for _, tc := range []struct {
		set, want int
	}{
		{0, bcrypt.DefaultCost},
		{bcrypt.MinCost, bcrypt.MinCost},
		{1, bcrypt.MinCost},
		{0, bcrypt.DefaultCost},
	} {
		SetTestHashCost(tc.set)
		h, err := HashSecret("s")
		if err != nil {
			t.Fatal(err)
		}
		if cost, _ := bcrypt.Cost([]byte(h)); cost != tc.want {
			t.Errorf("SetTestHashCost(%d): HashSecret's cost %d, want %d", tc.set, cost, tc.want)
		}
		if !CheckSecret(h, "s") || CheckSecret(h, "t") {
			t.Errorf("SetTestHashCost(%d): CheckSecret wrong", tc.set)
		}
	}
}
