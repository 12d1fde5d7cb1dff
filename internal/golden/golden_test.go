package golden

import (
	"path/filepath"
	"testing"
)

// fake records whether Check failed, without ending the real test.
type fake struct {
	testing.TB
	failed bool
}

func (f *fake) Helper()               {}
func (f *fake) Fatal(args ...any)     { f.failed = true; panic(f) }
func (f *fake) Fatalf(string, ...any) { f.failed = true; panic(f) }
func run(f *fake, fn func())          { defer func() { _ = recover() }(); fn() }

func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "testdata", "g.txt")
	Check(t, file, "a\nb\n", true) // written
	Check(t, file, "a\nb\n", false)
	for _, got := range []string{"a\nc\n", "a\nb\nc\n", ""} {
		f := &fake{TB: t}
		run(f, func() { Check(f, file, got, false) })
		if !f.failed {
			t.Errorf("%q passed against %q", got, "a\nb\n")
		}
	}
	f := &fake{TB: t}
	run(f, func() { Check(f, filepath.Join(t.TempDir(), "none.txt"), "x", false) })
	if !f.failed {
		t.Error("a missing golden file passed")
	}
}
