package main

import (
	"strings"
	"testing"
)

// deploy/conferd.conf, the configuration docs/deployment.md installs, is
// one conferd accepts: every setting is a serve flag with a valid value.
// The bad --release stops serve after the config is applied, before it
// opens a database or listens.
func TestDeployConfigIsAccepted(t *testing.T) {
	code, _, errs := runCmd(t, "serve", "--config", "../../deploy/conferd.conf", "--release", "0.0")
	if code != exitUsage || !strings.Contains(errs, "unknown platform release") {
		t.Fatalf("deploy/conferd.conf: exit %d, %q", code, errs)
	}
}
