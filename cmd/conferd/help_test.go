package main

import (
	"os"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/release"
)

// Every subcommand has help on stdout with exit 0, however it is asked
// for (issue 22 item 2).
func TestHelpForEveryCommand(t *testing.T) {
	for _, c := range commands {
		words := strings.Fields(c.name)
		for _, args := range [][]string{append(append([]string{}, words...), "--help"), append([]string{"help"}, words...)} {
			code, out, errs := runCmd(t, args...)
			if code != 0 || errs != "" || !strings.Contains(out, c.synopsis) {
				t.Errorf("conferd %s: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, out, errs)
			}
			if c.name != "version" && c.name != "help" && !strings.Contains(out, "\n  -") {
				t.Errorf("conferd %s lists no flags:\n%s", strings.Join(args, " "), out)
			}
		}
	}
	for _, group := range []string{"account", "license", "terminal", "conference"} {
		code, out, _ := runCmd(t, group, "--help")
		if code != 0 || !strings.Contains(out, "conferd "+group+" ") {
			t.Errorf("conferd %s --help: exit %d, %q", group, code, out)
		}
	}
	code, out, _ := runCmd(t, "--help")
	if code != 0 || !strings.Contains(out, "conferd migrate") || !strings.Contains(out, "-addr") {
		t.Errorf("conferd --help: exit %d, %q", code, out)
	}
	// Backquotes in a flag's usage name its argument (package flag): the
	// profile flag takes a file, not "go tool pprof" (issue 41).
	if !strings.Contains(out, "-cpu-profile file\n") || strings.Contains(out, "-cpu-profile go") {
		t.Errorf("conferd --help names the profile's argument wrongly:\n%s", out)
	}
	// Flags before --help are serve's (the default command).
	if code, out, _ := runCmd(t, "--addr", ":1", "--help"); code != 0 || !strings.Contains(out, "usage: conferd [serve]") {
		t.Errorf("conferd --addr :1 --help: exit %d, %q", code, out)
	}
	// -h stops a command before it opens a database or listens.
	code, _, _ = runCmd(t, "account", "create", "--db", "postgres://nobody@127.0.0.1:1/none", "-h")
	if code != 0 {
		t.Errorf("account create -h: exit %d", code)
	}
	if code, _, errs := runCmd(t, "frobnicate", "--help"); code != exitUsage || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command --help: exit %d, %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCmd(t, "version")
	if code != 0 || !strings.HasPrefix(out, "conferd "+buildVersion()+" (") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
	for _, r := range release.All {
		if !strings.Contains(out, r.Name) {
			t.Errorf("version does not name release %s: %q", r.Name, out)
		}
	}
	// --version is the same (issue 41: it was "flag provided but not
	// defined").
	if code, flagOut, errs := runCmd(t, "--version"); code != 0 || flagOut != out {
		t.Errorf("--version: exit %d, %q %q, want %q", code, flagOut, errs, out)
	}
}

// README.md's "Commands and flags" names every subcommand and every serve
// flag (issue 22 item 4).
func TestReadmeListsEveryCommandAndFlag(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, c := range commands {
		if !strings.Contains(readme, "conferd "+c.name) && c.name != "serve" {
			t.Errorf("README.md does not list `conferd %s`", c.name)
		}
	}
	var help strings.Builder
	serve(t.Context(), []string{"-h"}, &help, &help) // stops at -h, before it does anything
	n := 0
	for _, line := range strings.Split(help.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "  -"); ok {
			name, _, _ = strings.Cut(name, " ")
			n++
			if !strings.Contains(readme, "`--"+name+"`") {
				t.Errorf("README.md's flag table lacks `--%s`", name)
			}
		}
	}
	if n < 10 {
		t.Fatalf("serve -h lists %d flags:\n%s", n, help.String())
	}
}

// A command group without (or with an unknown) subcommand lists its
// subcommands.
func TestGroupWithoutSubcommand(t *testing.T) {
	for _, args := range [][]string{{"account"}, {"license", "export"}, {"terminal"}} {
		code, _, errs := runCmd(t, args...)
		if code != exitUsage || !strings.Contains(errs, "conferd "+args[0]+" ") || strings.Contains(errs, "conferd migrate") {
			t.Errorf("conferd %v: exit %d, %q", args, code, errs)
		}
	}
}
