package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// The document is valid OpenAPI 3.1 at every release, by a real validator.
func TestValidOpenAPI(t *testing.T) {
	for _, r := range []release.Release{release.Baseline, release.R6_0_0_3_0, release.Latest} {
		b, err := json.Marshal(Build(r))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := libopenapi.NewDocument(b)
		if err != nil {
			t.Fatalf("%s: parse: %v", r, err)
		}
		ok, errs := schema_validation.ValidateOpenAPIDocument(doc)
		if !ok {
			for i, e := range errs {
				if i > 10 {
					break
				}
				t.Errorf("%s: %v", r, e)
				for _, sv := range e.SchemaValidationErrors {
					t.Errorf("  %s: %s", sv.Location, sv.Reason)
				}
			}
		}
	}
}

// The operations are exactly the catalogue's endpoints that exist at the
// release, each path (aliases too) once.
func TestExactlyTheCatalogue(t *testing.T) {
	shape := regexp.MustCompile(`\{[^}]*\}`)
	for r := release.Baseline; r <= release.Latest; r++ {
		want := map[string]bool{}
		for _, e := range catalog.All() {
			if !e.ExistsAt(r) {
				continue
			}
			for _, p := range e.Paths() {
				want[e.Method+" "+shape.ReplaceAllString(p, "{}")] = true
			}
		}
		got := map[string]bool{}
		ids := map[string]bool{}
		for p, item := range Build(r).Paths {
			for m, op := range item {
				got[strings.ToUpper(m)+" "+shape.ReplaceAllString(p, "{}")] = true
				id := op.OperationID
				if ids[id] {
					t.Errorf("%s: operationId %s twice", r, id)
				}
				ids[id] = true
			}
		}
		for k := range want {
			if !got[k] {
				t.Errorf("%s: %s missing from the document", r, k)
			}
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: %s in the document but not in the catalogue", r, k)
			}
		}
	}
}

// The validator is not a rubber stamp: a broken document fails it.
func TestValidatorRejectsBrokenDocument(t *testing.T) {
	d := mapBuild(release.Latest)
	d["paths"].(mapDoc)["/broken"] = mapDoc{"get": mapDoc{"parameters": []any{mapDoc{"name": "x"}}, "responses": "none"}}
	b, _ := json.Marshal(d)
	doc, err := libopenapi.NewDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := schema_validation.ValidateOpenAPIDocument(doc); ok {
		t.Fatal("a document with a parameter lacking `in` and non-object responses passed validation")
	}
}

// Required parameters are marked where tools look: the form's required
// list, the params text's description and its contentSchema, nested
// objects' required lists (issue 22 item 1).
func TestRequiredFieldsMarked(t *testing.T) {
	doc := Build(release.Latest)
	form := func(path, method string) *Schema {
		return doc.Paths[path][method].RequestBody.Content["application/x-www-form-urlencoded"].Schema
	}
	tpl := form("/api/v1/mc/personal_templates", "post")
	if got := fmt.Sprint(tpl.Required); got != "[account_token params]" {
		t.Errorf("template create form required = %s", got)
	}
	params := (*tpl.Properties)["params"]
	if d := params.Description; !strings.Contains(d, "closed_conf") || !strings.Contains(d, "video_formats") {
		t.Errorf("params description does not name the required fields: %q", d)
	}
	if got := fmt.Sprint(params.ContentSchema.Required); !strings.Contains(got, "safe_conf") {
		t.Errorf("contentSchema required = %s", got)
	}
	mts := (*form("/api/v1/vc/confs/{conf_id}/mts", "post").Properties)["params"]
	if d := mts.Description; !strings.Contains(d, "mts[].bitrate") || !strings.Contains(d, "mts[].protocol") {
		t.Errorf("add terminals: params description %q", d)
	}
	item := (*mts.ContentSchema.Properties)["mts"].Items
	if got := fmt.Sprint(item.Required); !strings.Contains(got, "bitrate") {
		t.Errorf("mts items required = %s", got)
	}
}

// Confer's own parameters are marked: the booking extension of conference
// creation (docs/conferences.md) carries x-confer-extension.
func TestParameterExtensionMarked(t *testing.T) {
	var found []any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if p, ok := x["x_confer_start_time"].(map[string]any); ok {
				found = append(found, p["x-confer-extension"])
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	b, err := json.Marshal(Build(release.Latest))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	walk(doc)
	if len(found) == 0 {
		t.Fatal("x_confer_start_time is not in the API description")
	}
	for _, v := range found {
		if v != true {
			t.Errorf("x_confer_start_time has x-confer-extension %v", v)
		}
	}
}

// The typed document encodes to the bytes the map document did, at every
// release (the map form is kept in openapi_map_test.go as the reference),
// and For serves it.
func TestDocumentBytesUnchanged(t *testing.T) {
	for r := release.Baseline; r <= release.Latest; r++ {
		want, err := json.Marshal(mapBuild(r))
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(For(r))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s: the document differs at byte %d of %d:\n got %.200s\nwant %.200s", r, i, len(want), got[max(i-100, 0):], want[max(i-100, 0):])
		}
	}
}
