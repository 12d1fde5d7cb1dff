package sdk

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/sdk/internal/gen"
)

// TestEveryEndpointHasMethod fails when an endpoint of the catalogue has no
// Client method, or when the method's endpoint does not match the entry.
func TestEveryEndpointHasMethod(t *testing.T) {
	client := reflect.TypeOf(&Client{})
	eps := catalog.All()
	for i := range eps {
		e := &eps[i]
		name := gen.MethodName(e)
		if _, ok := client.MethodByName(name); !ok {
			t.Errorf("endpoint %s (%s %s) has no SDK method %s: run go generate ./sdk", e.Name, e.Method, e.Path, name)
			continue
		}
		ep, ok := LookupEndpoint(e.Name)
		if !ok {
			t.Errorf("endpoint %s is missing from the SDK's endpoint table", e.Name)
			continue
		}
		if ep.Method != e.Method || ep.Path != e.Path || int(ep.Style) != int(e.Style) || ep.Public != e.Public || ep.MinLevel != e.MinLevel {
			t.Errorf("SDK endpoint %s = %+v, catalogue says %s %s style %d public %v level %d", e.Name, *ep, e.Method, e.Path, e.Style, e.Public, e.MinLevel)
		}
		if got := MethodName(e.Name); got != name {
			t.Errorf("MethodName(%q) = %q, want %q", e.Name, got, name)
		}
	}
	if len(Endpoints()) != len(eps) {
		t.Errorf("the SDK has %d endpoints, the catalogue %d: run go generate ./sdk", len(Endpoints()), len(eps))
	}
}

// TestGeneratedFilesUpToDate regenerates the api_*.go files in memory and
// compares them with the committed ones.
func TestGeneratedFilesUpToDate(t *testing.T) {
	files, err := gen.Files()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./sdk)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./sdk", name)
		}
	}
	onDisk, _ := filepath.Glob("api_*.go")
	for _, f := range onDisk {
		b, _ := os.ReadFile(f)
		if _, ok := files[f]; !ok && strings.HasPrefix(string(b), gen.Header) {
			t.Errorf("%s is generated but no longer produced: run go generate ./sdk", f)
		}
	}
}

func TestStyleMatchesCatalogue(t *testing.T) {
	pairs := map[Style]catalog.Style{StyleQuery: catalog.Query, StyleForm: catalog.Form, StyleParams: catalog.Params, StyleJSON: catalog.JSON}
	for s, cs := range pairs {
		if int(s) != int(cs) {
			t.Errorf("sdk style %s = %d, catalogue %d", s, s, cs)
		}
	}
}
