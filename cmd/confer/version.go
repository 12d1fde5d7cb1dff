package main

import (
	"runtime/debug"

	"github.com/confer-platform/confer/sdk"
)

// version is the build's version, stamped by scripts/build.sh:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/confer
//
// Unstamped builds report the module version `go install` records, else
// the SDK's version.
var version = ""

// cliVersion is the version `confer version` prints.
func cliVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return sdk.Version
}
