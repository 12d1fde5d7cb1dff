// Command modelgen writes the generated files of package model from the
// endpoint catalogue. Run it from internal/model (go generate does):
//
//	go run ./gen/modelgen
package main

import (
	"fmt"
	"os"

	"github.com/confer-platform/confer/internal/catalog/genfiles"
	"github.com/confer-platform/confer/internal/model/gen"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := gen.Files()
	if err == nil {
		// Generated files of modules that no longer have endpoints go.
		err = genfiles.Write(dir, "model_*.go", gen.Header, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "modelgen:", err)
		os.Exit(1)
	}
}
