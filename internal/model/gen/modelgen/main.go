// Command modelgen writes the generated files of package model from the
// endpoint catalogue. Run it from internal/model (go generate does):
//
//	go run ./gen/modelgen
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/confer-platform/confer/internal/model/gen"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := gen.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
	// Remove generated files of modules that no longer have endpoints.
	old, _ := filepath.Glob(filepath.Join(dir, "model_*.go"))
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep && !strings.HasSuffix(f, "_test.go") {
			if b, err := os.ReadFile(f); err == nil && strings.HasPrefix(string(b), gen.Header) {
				os.Remove(f)
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
			fmt.Fprintln(os.Stderr, "modelgen:", err)
			os.Exit(1)
		}
	}
}
