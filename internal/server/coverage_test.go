package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Every attached handler has a catalogue entry (Registry.Add refuses
// others; this checks the registry the server really uses).
func TestHandlersHaveEntries(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for name := range env.Srv.Handlers() {
		if _, ok := catalog.Lookup(name); !ok {
			t.Errorf("handler %s has no catalogue entry", name)
		}
	}
}

// Every catalogue entry has a handler: the modules' route tables
// (Routes) together cover the catalogue, and api.Registry.Add refuses a
// second handler for an entry, so each has exactly one.
func TestEveryEntryHasOneHandler(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for _, e := range catalog.All() {
		if env.Srv.Handlers()[e.Name] == nil {
			t.Errorf("%s: no handler (the entry would answer 90501)", e.Name)
		}
	}
	if got, want := len(env.Srv.Handlers()), len(catalog.All()); got != want {
		t.Errorf("%d handlers for %d catalogue entries", got, want)
	}
}

// eachModuleLine calls f with every line of the non-test sources of each
// module package (internal/<module>), by module.
func eachModuleLine(t *testing.T, f func(m catalog.Module, file string, n int, line string)) {
	t.Helper()
	for _, m := range catalog.Modules {
		files, _ := filepath.Glob(filepath.Join("..", string(m), "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				f(m, file, i+1, line)
			}
		}
	}
}

// Handlers speak the newest model only (DESIGN principle 2): no module
// package compares releases or API-Levels; internal/compat does.
func TestNoReleaseConditionalsInHandlers(t *testing.T) {
	forbidden := regexp.MustCompile(`release\.R[0-9_]+|\.Effective\b|\.Level\b|HasLevels\(`)
	eachModuleLine(t, func(_ catalog.Module, file string, n int, line string) {
		if forbidden.MatchString(line) && !strings.Contains(line, "r.Platform.Level()") {
			t.Errorf("%s:%d: release or level conditional in a handler: %s", file, n, strings.TrimSpace(line))
		}
	})
}

// The platform's error codes of a module are declared in one place, its
// codes.go, each code under one name; handlers name the constants.
func TestCodesInOnePlace(t *testing.T) {
	decl := regexp.MustCompile(`^\s*(?:const\s+)?((?:[a-z]+)?Code[A-Z]\w*|code[A-Z]\w*)\s*=\s*([0-9]+)\b`)
	names := map[catalog.Module]map[string]string{} // code -> name, by module
	eachModuleLine(t, func(m catalog.Module, file string, n int, line string) {
		d := decl.FindStringSubmatch(line)
		if d == nil {
			return
		}
		if names[m] == nil {
			names[m] = map[string]string{}
		}
		if filepath.Base(file) != "codes.go" {
			t.Errorf("%s:%d: code %s declared outside codes.go", file, n, d[1])
		} else if other, dup := names[m][d[2]]; dup {
			t.Errorf("%s:%d: code %s is both %s and %s", file, n, d[2], other, d[1])
		}
		names[m][d[2]] = d[1]
	})
}
