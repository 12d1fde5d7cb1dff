package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/confer-platform/confer/internal/release"
)

// version is the build's version. The build script stamps it:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/conferd
//
// (scripts/build.sh; README.md "Install"). Unstamped builds report the
// module version `go install` records, else "dev" and the VCS revision.
var version = ""

// buildVersion is the version `conferd version` and the help print.
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	v := "dev"
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
		if s.Key == "vcs.modified" && s.Value == "true" {
			v += "-dirty"
		}
	}
	return v
}

// printVersion is `conferd version`: the build's version, then the
// platform releases it emulates with their API-Levels (docs/compatibility.md).
func printVersion(w io.Writer) int {
	fmt.Fprintf(w, "conferd %s (%s, %s/%s)\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	names := make([]string, len(release.All))
	for i, r := range release.All {
		names[i] = r.Name
		if r.Level > 0 {
			names[i] += fmt.Sprintf(" (API-Level %d)", r.Level)
		}
	}
	fmt.Fprintf(w, "emulates platform releases %s; default --release %s\n", strings.Join(names, ", "), release.Latest)
	return 0
}
