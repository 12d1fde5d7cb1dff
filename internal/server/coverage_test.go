package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Every attached handler has a catalogue entry (Registry.Handle refuses
// others; this checks the registry the server really uses).
func TestHandlersHaveEntries(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	for name := range env.Srv.Handlers() {
		if _, ok := catalog.Lookup(name); !ok {
			t.Errorf("handler %s has no catalogue entry", name)
		}
	}
}

// The entries that answer 90501 until their module issue lands. The list
// shrinks as modules arrive and must be empty when they are all done.
func TestUnimplementedEntries(t *testing.T) {
	env := testserver.Start(t, testdb.SQLite(t), testserver.Options{})
	byModule := map[catalog.Module][]string{}
	total := 0
	for _, e := range catalog.All() {
		if env.Srv.Handlers()[e.Name] == nil {
			byModule[e.Module] = append(byModule[e.Module], e.Name)
			total++
		}
	}
	for _, m := range catalog.Modules {
		names := byModule[m]
		sort.Strings(names)
		if len(names) > 0 {
			t.Logf("%s: %d unimplemented: %s", m, len(names), strings.Join(names, " "))
		}
	}
	t.Logf("%d of %d catalogue entries unimplemented", total, len(catalog.All()))
	if len(byModule[catalog.System]) > 0 {
		t.Errorf("system endpoints unimplemented: %v", byModule[catalog.System])
	}
}

// Handlers speak the newest model only (DESIGN principle 2): no module
// package compares releases or API-Levels; internal/compat does.
func TestNoReleaseConditionalsInHandlers(t *testing.T) {
	forbidden := regexp.MustCompile(`release\.R[0-9_]+|\.Effective\b|\.Level\b|HasLevels\(`)
	for _, m := range catalog.Modules {
		dir := filepath.Join("..", string(m))
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				if forbidden.MatchString(line) && !strings.Contains(line, "r.Platform.Level()") {
					t.Errorf("%s:%d: release or level conditional in a handler: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
}
