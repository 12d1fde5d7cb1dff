// Package openapi generates the OpenAPI 3.1 description of the platform
// API from the catalogue (issue 3 "API description"), served without login
// at /api/openapi.json.
package openapi

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// The document's types hold the parts of OpenAPI 3.1 that the description
// uses. Their fields are in the order of their JSON names, so that a
// document encodes to the bytes its map form did (encoding/json sorts a
// map's keys; TestDocumentBytesUnchanged).

// Doc is an OpenAPI document.
type Doc struct {
	Components Components          `json:"components"`
	Info       Info                `json:"info"`
	OpenAPI    string              `json:"openapi"`
	Paths      map[string]PathItem `json:"paths"`
	Tags       []Tag               `json:"tags"`
}

// Components holds the security schemes.
type Components struct {
	SecuritySchemes map[string]SecurityScheme `json:"securitySchemes"`
}

// SecurityScheme is an apiKey scheme.
type SecurityScheme struct {
	Description string `json:"description"`
	In          string `json:"in"`
	Name        string `json:"name"`
	Type        string `json:"type"`
}

// Info describes the API.
type Info struct {
	Description string `json:"description"`
	Title       string `json:"title"`
	Version     string `json:"version"`
}

// Tag names a module.
type Tag struct {
	Name string `json:"name"`
}

// PathItem is the operations of a path by lower-case method.
type PathItem map[string]*Operation

// Operation is one endpoint at one of its paths.
type Operation struct {
	OperationID      string                `json:"operationId"`
	Parameters       []Parameter           `json:"parameters,omitempty"`
	RequestBody      *RequestBody          `json:"requestBody,omitempty"`
	Responses        map[string]Response   `json:"responses"`
	Security         []map[string][]string `json:"security,omitempty"`
	Summary          string                `json:"summary"`
	Tags             []string              `json:"tags"`
	ConferExtension  bool                  `json:"x-confer-extension"`
	MinAPILevel      int                   `json:"x-min-api-level"`
	RemovedInRelease string                `json:"x-removed-in-release,omitempty"`
	RequestStyle     string                `json:"x-request-style"`
	SinceRelease     string                `json:"x-since-release"`
}

// Parameter is a path or query parameter; a query parameter has a
// description, empty or not.
type Parameter struct {
	Description *string `json:"description,omitempty"`
	In          string  `json:"in"`
	Name        string  `json:"name"`
	Required    bool    `json:"required"`
	Schema      *Schema `json:"schema"`
}

// RequestBody is a request's body by media type.
type RequestBody struct {
	Content  map[string]MediaType `json:"content"`
	Required bool                 `json:"required"`
}

// MediaType is the schema of a body.
type MediaType struct {
	Schema *Schema `json:"schema"`
}

// Response is a reply.
type Response struct {
	Content     map[string]MediaType `json:"content"`
	Description string               `json:"description"`
}

// Schema is a JSON Schema of a value. Properties is set (possibly empty)
// for an object, nil otherwise.
type Schema struct {
	ContentMediaType string              `json:"contentMediaType,omitempty"`
	ContentSchema    *Schema             `json:"contentSchema,omitempty"`
	Description      string              `json:"description,omitempty"`
	Enum             *Enum               `json:"enum,omitempty"`
	Items            *Schema             `json:"items,omitempty"`
	Properties       *map[string]*Schema `json:"properties,omitempty"`
	Required         []string            `json:"required,omitempty"`
	Type             string              `json:"type,omitempty"`
	ConferExtension  bool                `json:"x-confer-extension,omitempty"`
}

// Enum is the allowed values of a string (Strings) or integer (Ints).
type Enum struct {
	Strings []string
	Ints    []int
}

// MarshalJSON writes the values that are set.
func (e Enum) MarshalJSON() ([]byte, error) {
	if e.Strings != nil {
		return json.Marshal(e.Strings)
	}
	return json.Marshal(e.Ints)
}

var paramRE = regexp.MustCompile(`\{([^}]*)\}`)

var cache sync.Map // release.Release -> *Doc

// For returns the description at release r, built once and then shared;
// callers must not change it.
func For(r release.Release) *Doc {
	if d, ok := cache.Load(r); ok {
		return d.(*Doc)
	}
	d, _ := cache.LoadOrStore(r, Build(r))
	return d.(*Doc)
}

// Build returns the description of the endpoints that exist at platform
// release r. Every catalogue path (aliases included) is a path of the
// document; its operationId is the entry's name, with a suffix for aliases.
func Build(r release.Release) *Doc {
	paths := map[string]PathItem{}
	// Paths of one shape must use one set of parameter names (OpenAPI 3.1
	// "Path Templating"); the first entry's names win.
	shapeNames := map[string]string{}
	var tags []string
	seenTag := map[string]bool{}
	for _, e := range catalog.All() {
		if !e.ExistsAt(r) {
			continue
		}
		if !seenTag[string(e.Module)] {
			seenTag[string(e.Module)] = true
			tags = append(tags, string(e.Module))
		}
		for i, p := range e.Paths() {
			shape := paramRE.ReplaceAllString(p, "{}")
			if first, ok := shapeNames[shape]; ok {
				p = first
			} else {
				shapeNames[shape] = p
			}
			item := paths[p]
			if item == nil {
				item = PathItem{}
				paths[p] = item
			}
			op := operation(&e, p)
			if i > 0 {
				op.OperationID = e.Name + ".alias" + strconv.Itoa(i)
			}
			item[strings.ToLower(e.Method)] = op
		}
	}
	sort.Strings(tags)
	tagDocs := make([]Tag, len(tags))
	for i, t := range tags {
		tagDocs[i] = Tag{Name: t}
	}
	return &Doc{
		OpenAPI: "3.1.0",
		Info: Info{
			Title:       "Confer platform API",
			Version:     r.Version(),
			Description: "The video-conferencing platform API as Confer serves it at platform release " + r.String() + ". Failures are HTTP 200 with success 0, error_code and description.",
		},
		Tags:  tagDocs,
		Paths: paths,
		Components: Components{SecuritySchemes: map[string]SecurityScheme{
			"account_token":  {Type: "apiKey", In: "query", Name: "account_token", Description: "From POST /api/v1/system/token; a form field in form-style requests"},
			"SSO_COOKIE_KEY": {Type: "apiKey", In: "cookie", Name: "SSO_COOKIE_KEY", Description: "Set by POST /api/v1/system/login"},
		}},
	}
}

func operation(e *catalog.Endpoint, path string) *Operation {
	op := &Operation{
		OperationID:     e.Name,
		Summary:         e.Summary,
		Tags:            []string{string(e.Module)},
		MinAPILevel:     e.MinLevel,
		SinceRelease:    e.Since.String(),
		RequestStyle:    styleName(e.Style),
		ConferExtension: e.Extension,
	}
	if e.Removed != 0 {
		op.RemovedInRelease = e.Removed.String()
	}
	var params []Parameter
	for _, m := range paramRE.FindAllStringSubmatch(path, -1) {
		params = append(params, Parameter{Name: m[1], In: "path", Required: true, Schema: &Schema{Type: "string"}})
	}
	if !e.Public {
		op.Security = []map[string][]string{{"account_token": {}, "SSO_COOKIE_KEY": {}}}
	}
	switch e.Style {
	case catalog.Query:
		for _, p := range e.Params {
			params = append(params, Parameter{Name: p.Name, In: "query", Required: p.Required, Description: &p.Doc, Schema: schema(p)})
		}
	case catalog.Form:
		op.RequestBody = &RequestBody{Required: len(e.Params) > 0, Content: map[string]MediaType{
			"application/x-www-form-urlencoded": {Schema: object(e.Params)},
		}}
	case catalog.Params:
		op.RequestBody = &RequestBody{Required: hasRequired(e.Params), Content: map[string]MediaType{
			"application/x-www-form-urlencoded": {Schema: paramsForm(e)},
		}}
	case catalog.JSON:
		op.RequestBody = &RequestBody{Required: hasRequired(e.Params), Content: map[string]MediaType{"application/json": {Schema: object(e.Params)}}}
	}
	op.Parameters = params
	reply := object(e.Reply)
	props := *reply.Properties
	props["success"] = &Schema{Type: "integer", Enum: &Enum{Ints: []int{0, 1}}}
	props["error_code"] = &Schema{Type: "integer", Description: "present on failure"}
	props["description"] = &Schema{Type: "string", Description: "on failure, ends with the code in parentheses"}
	reply.Required = []string{"success"}
	op.Responses = map[string]Response{"200": {
		Description: "The reply envelope; success 0 carries error_code and description",
		Content:     map[string]MediaType{"application/json": {Schema: reply}},
	}}
	return op
}

// paramsForm is the form of a params-style request (seed 000 "Common
// rules" 4): account_token and params, the JSON text whose schema is
// contentSchema. Tools show a string field's description but seldom its
// contentSchema, so the description also names the required parameters.
func paramsForm(e *catalog.Endpoint) *Schema {
	desc := "URL-encoded JSON text of the parameters object"
	if req := requiredPaths(e.Params, ""); len(req) > 0 {
		desc += ". Required: " + strings.Join(req, ", ") + " (a nested one when its parent is sent)"
	}
	props := map[string]*Schema{
		"account_token": {Type: "string"},
		"params": {
			Type: "string", Description: desc,
			ContentMediaType: "application/json", ContentSchema: object(e.Params),
		},
	}
	form := &Schema{Type: "object", Properties: &props}
	if !e.Public {
		form.Required = append(form.Required, "account_token")
	}
	if hasRequired(e.Params) {
		form.Required = append(form.Required, "params")
	}
	return form
}

// requiredPaths names the required parameters, nested ones by their path
// (invite_members[].account).
func requiredPaths(ps []catalog.Param, prefix string) []string {
	var out []string
	for _, p := range ps {
		if p.Required {
			out = append(out, prefix+p.Name)
		}
		switch {
		case p.Kind == catalog.Object:
			out = append(out, requiredPaths(p.Fields, prefix+p.Name+".")...)
		case p.Kind == catalog.Array && p.Elem == catalog.Object:
			out = append(out, requiredPaths(p.Fields, prefix+p.Name+"[].")...)
		}
	}
	return out
}

func styleName(s catalog.Style) string {
	return [...]string{"query", "form", "params", "json"}[s]
}

func hasRequired(ps []catalog.Param) bool {
	for _, p := range ps {
		if p.Required {
			return true
		}
	}
	return false
}

func object(ps []catalog.Param) *Schema {
	props := map[string]*Schema{}
	o := &Schema{Type: "object", Properties: &props}
	for _, p := range ps {
		props[p.Name] = schema(p)
		if p.Required {
			o.Required = append(o.Required, p.Name)
		}
	}
	return o
}

func schema(p catalog.Param) *Schema {
	s := kindSchema(p.Kind, p)
	if p.Kind == catalog.Array {
		s.Items = kindSchema(p.Elem, p)
	}
	if p.Doc != "" {
		s.Description = p.Doc
	}
	if p.Extension {
		s.ConferExtension = true
	}
	return s
}

func kindSchema(k catalog.Kind, p catalog.Param) *Schema {
	switch k {
	case catalog.String:
		s := &Schema{Type: "string"}
		if len(p.EnumS) > 0 {
			s.Enum = &Enum{Strings: p.EnumS}
		}
		return s
	case catalog.Int:
		s := &Schema{Type: "integer"}
		if len(p.Enum) > 0 {
			s.Enum = &Enum{Ints: p.Enum}
		}
		return s
	case catalog.Bool:
		return &Schema{Type: "boolean"}
	case catalog.Number:
		return &Schema{Type: "number"}
	case catalog.Object:
		return object(p.Fields)
	case catalog.Array:
		return &Schema{Type: "array"}
	}
	return &Schema{}
}
