// Command sdkgen writes the generated endpoint files of package sdk from
// the endpoint catalogue. Run it from the sdk folder (go generate does):
//
//	go run ./internal/gen/sdkgen
package main

import (
	"fmt"
	"os"

	"github.com/confer-platform/confer/internal/catalog/genfiles"
	"github.com/confer-platform/confer/sdk/internal/gen"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := gen.Files()
	if err == nil {
		// Generated files of modules that no longer have endpoints go.
		err = genfiles.Write(dir, "api_*.go", gen.Header, files)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}
