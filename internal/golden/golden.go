// Package golden compares a test's output with a file of expected bytes
// under testdata, or rewrites that file when the test is run with its
// update flag (the stored-bytes tests of issue 40).
package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check fails t when got differs from the file's bytes, naming the first
// differing line; with update it writes got to the file instead.
func Check(t testing.TB, file, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			t.Fatalf("%s, line %d:\n got: %s\nwant: %s", file, i+1, g[i], w[i])
		}
	}
	t.Fatalf("%s: %d lines, want %d:\n got:\n%s\nwant:\n%s", file, len(g), len(w), got, want)
}
