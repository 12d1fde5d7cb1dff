package main

import "runtime/debug"

// version is the build's version, stamped by scripts/build.sh:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/confer
//
// Unstamped builds report the module version `go install` records, else
// "dev" and the VCS revision, as conferd does (cmd/conferd/version.go).
var version = ""

// cliVersion is the version `confer version` prints.
func cliVersion() string {
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
