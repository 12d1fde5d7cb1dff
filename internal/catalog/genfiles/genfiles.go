// Package genfiles writes the files that the generators of the catalogue
// (sdk/internal/gen/sdkgen, internal/model/gen/modelgen) produce: the
// same steps for both, so that one change of them serves both.
package genfiles

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Write writes files (name → content) into dir, in the order of their
// names, after removing the files matching pattern in dir that files no
// longer has and that begin with header (generated ones; test files and
// hand-written files are kept).
func Write(dir, pattern, header string, files map[string][]byte) error {
	old, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep && !strings.HasSuffix(f, "_test.go") {
			if b, err := os.ReadFile(f); err == nil && strings.HasPrefix(string(b), header) {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}
