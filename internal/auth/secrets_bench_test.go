package auth

import "testing"

// BenchmarkCheckSecret is one comparison of a password or license secret
// with its stored hash (bcrypt at bcrypt.DefaultCost, 10: 2^10 rounds of
// the key schedule). A new session costs two: the license secret at
// /system/token and the password at /system/login (docs/benchmarks.md).
func BenchmarkCheckSecret(b *testing.B) {
	h, err := HashSecret("correct horse battery")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if !CheckSecret(h, "correct horse battery") {
			b.Fatal("refused")
		}
	}
}
