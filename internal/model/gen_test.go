package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/model/gen"
)

// TestGeneratedFilesUpToDate regenerates the model_*.go files in memory
// and compares them with the committed ones.
func TestGeneratedFilesUpToDate(t *testing.T) {
	files, err := gen.Files()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./sdk)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./sdk", name)
		}
	}
	onDisk, _ := filepath.Glob("model_*.go")
	for _, f := range onDisk {
		b, _ := os.ReadFile(f)
		if _, ok := files[f]; !ok && strings.HasPrefix(string(b), gen.Header) {
			t.Errorf("%s is generated but no longer produced: run go generate ./sdk", f)
		}
	}
}
