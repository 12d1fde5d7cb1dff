package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// scripts/build.sh builds the release binaries with the version stamped
// in: the built conferd says it in `conferd version`, and the built
// confer in `confer version` against the built conferd (issue 22 item 3).
//
// Building from a cold cache takes minutes (release flags share no
// compiled packages with the tests' build), so it runs when
// CONFER_TEST_BUILD is set, as .ci/run does: "host" builds the host's
// target, "all" every target of the script.
func TestBuildScriptStampsVersion(t *testing.T) {
	which := os.Getenv("CONFER_TEST_BUILD")
	if which == "" {
		t.Skip("set CONFER_TEST_BUILD=host (or all) to run scripts/build.sh; .ci/run does")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: scripts/build.sh is a bash script")
	}
	const version = "v0.0.0-stamptest"
	dist := t.TempDir()
	target := runtime.GOOS + "/" + runtime.GOARCH
	cmd := exec.Command(bash, "../../scripts/build.sh")
	cmd.Env = append(os.Environ(), "VERSION="+version, "DIST="+dist)
	if which != "all" {
		cmd.Env = append(cmd.Env, "TARGETS="+target)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/build.sh: %v\n%s", err, out)
	}
	name := "confer_" + version + "_" + runtime.GOOS + "_" + runtime.GOARCH
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	for _, f := range []string{name + "/conferd" + ext, name + "/confer" + ext, name + "/LICENSE", "SHA256SUMS"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			t.Errorf("dist lacks %s: %v", f, err)
		}
	}
	sums, _ := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if !strings.Contains(string(sums), name+".") {
		t.Errorf("SHA256SUMS does not list the archive of %s:\n%s", name, sums)
	}

	conferd := filepath.Join(dist, name, "conferd"+ext)
	out, err := exec.Command(conferd, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "conferd "+version+" (") || !strings.Contains(string(out), "6.1.0.4.0") {
		t.Fatalf("built conferd version: %v, %q", err, out)
	}

	addr := freeAddr(t)
	srv := exec.Command(conferd, "serve", "--addr", addr, "--db", filepath.Join(t.TempDir(), "c.db"), "--create")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer stop(t, srv)
	waitUp(t, addr)
	out, err = exec.Command(filepath.Join(dist, name, "confer"+ext), "version", "--config", t.TempDir(), "--url", "http://"+addr).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "confer "+version+", platform ") || strings.Contains(string(out), "ERROR") {
		t.Fatalf("built confer version: %v\n%s", err, out)
	}
}
