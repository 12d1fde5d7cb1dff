// Package openapi generates the OpenAPI 3.1 description of the platform
// API from the catalogue (issue 3 "API description"), served without login
// at /api/openapi.json.
package openapi

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// Doc is a JSON document.
type Doc = map[string]any

var paramRE = regexp.MustCompile(`\{([^}]*)\}`)

var cache sync.Map // release.Release -> Doc

// For returns the description at release r, built once and then shared;
// callers must not change it.
func For(r release.Release) Doc {
	if d, ok := cache.Load(r); ok {
		return d.(Doc)
	}
	d, _ := cache.LoadOrStore(r, Build(r))
	return d.(Doc)
}

// Build returns the description of the endpoints that exist at platform
// release r. Every catalogue path (aliases included) is a path of the
// document; its operationId is the entry's name, with a suffix for aliases.
func Build(r release.Release) Doc {
	paths := Doc{}
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
			item, _ := paths[p].(Doc)
			if item == nil {
				item = Doc{}
				paths[p] = item
			}
			op := operation(&e, p)
			if i > 0 {
				op["operationId"] = e.Name + ".alias" + strconv.Itoa(i)
			}
			item[strings.ToLower(e.Method)] = op
		}
	}
	sort.Strings(tags)
	tagDocs := make([]any, len(tags))
	for i, t := range tags {
		tagDocs[i] = Doc{"name": t}
	}
	return Doc{
		"openapi": "3.1.0",
		"info": Doc{
			"title":       "Confer platform API",
			"version":     r.Version(),
			"description": "The video-conferencing platform API as Confer serves it at platform release " + r.String() + ". Failures are HTTP 200 with success 0, error_code and description.",
		},
		"tags":  tagDocs,
		"paths": paths,
		"components": Doc{
			"securitySchemes": Doc{
				"account_token":  Doc{"type": "apiKey", "in": "query", "name": "account_token", "description": "From POST /api/v1/system/token; a form field in form-style requests"},
				"SSO_COOKIE_KEY": Doc{"type": "apiKey", "in": "cookie", "name": "SSO_COOKIE_KEY", "description": "Set by POST /api/v1/system/login"},
			},
		},
	}
}

func operation(e *catalog.Endpoint, path string) Doc {
	op := Doc{
		"operationId":        e.Name,
		"summary":            e.Summary,
		"tags":               []any{string(e.Module)},
		"x-min-api-level":    e.MinLevel,
		"x-since-release":    e.Since.String(),
		"x-request-style":    styleName(e.Style),
		"x-confer-extension": e.Extension,
	}
	if e.Removed != 0 {
		op["x-removed-in-release"] = e.Removed.String()
	}
	var params []any
	for _, m := range paramRE.FindAllStringSubmatch(path, -1) {
		params = append(params, Doc{"name": m[1], "in": "path", "required": true, "schema": Doc{"type": "string"}})
	}
	if !e.Public {
		op["security"] = []any{Doc{"account_token": []any{}, "SSO_COOKIE_KEY": []any{}}}
	}
	switch e.Style {
	case catalog.Query:
		for _, p := range e.Params {
			params = append(params, Doc{"name": p.Name, "in": "query", "required": p.Required, "description": p.Doc, "schema": schema(p)})
		}
	case catalog.Form:
		op["requestBody"] = Doc{"required": len(e.Params) > 0, "content": Doc{
			"application/x-www-form-urlencoded": Doc{"schema": object(e.Params)},
		}}
	case catalog.Params:
		op["requestBody"] = Doc{"required": hasRequired(e.Params), "content": Doc{
			"application/x-www-form-urlencoded": Doc{"schema": paramsForm(e)},
		}}
	case catalog.JSON:
		op["requestBody"] = Doc{"required": hasRequired(e.Params), "content": Doc{"application/json": Doc{"schema": object(e.Params)}}}
	}
	if params != nil {
		op["parameters"] = params
	}
	reply := object(e.Reply)
	props := reply["properties"].(Doc)
	props["success"] = Doc{"type": "integer", "enum": []any{0, 1}}
	props["error_code"] = Doc{"type": "integer", "description": "present on failure"}
	props["description"] = Doc{"type": "string", "description": "on failure, ends with the code in parentheses"}
	reply["required"] = []any{"success"}
	op["responses"] = Doc{"200": Doc{
		"description": "The reply envelope; success 0 carries error_code and description",
		"content":     Doc{"application/json": Doc{"schema": reply}},
	}}
	return op
}

// paramsForm is the form of a params-style request (seed 000 "Common
// rules" 4): account_token and params, the JSON text whose schema is
// contentSchema. Tools show a string field's description but seldom its
// contentSchema, so the description also names the required parameters.
func paramsForm(e *catalog.Endpoint) Doc {
	desc := "URL-encoded JSON text of the parameters object"
	if req := requiredPaths(e.Params, ""); len(req) > 0 {
		desc += ". Required: " + strings.Join(req, ", ") + " (a nested one when its parent is sent)"
	}
	form := Doc{
		"type": "object",
		"properties": Doc{
			"account_token": Doc{"type": "string"},
			"params": Doc{
				"type": "string", "description": desc,
				"contentMediaType": "application/json", "contentSchema": object(e.Params),
			},
		},
	}
	var req []any
	if !e.Public {
		req = append(req, "account_token")
	}
	if hasRequired(e.Params) {
		req = append(req, "params")
	}
	if req != nil {
		form["required"] = req
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

func object(ps []catalog.Param) Doc {
	props := Doc{}
	var req []any
	for _, p := range ps {
		props[p.Name] = schema(p)
		if p.Required {
			req = append(req, p.Name)
		}
	}
	o := Doc{"type": "object", "properties": props}
	if req != nil {
		o["required"] = req
	}
	return o
}

func schema(p catalog.Param) Doc {
	s := kindSchema(p.Kind, p)
	if p.Kind == catalog.Array {
		s["items"] = kindSchema(p.Elem, p)
	}
	if p.Doc != "" {
		s["description"] = p.Doc
	}
	if p.Extension {
		s["x-confer-extension"] = true
	}
	return s
}

func kindSchema(k catalog.Kind, p catalog.Param) Doc {
	switch k {
	case catalog.String:
		s := Doc{"type": "string"}
		if len(p.EnumS) > 0 {
			s["enum"] = p.EnumS
		}
		return s
	case catalog.Int:
		s := Doc{"type": "integer"}
		if len(p.Enum) > 0 {
			s["enum"] = p.Enum
		}
		return s
	case catalog.Bool:
		return Doc{"type": "boolean"}
	case catalog.Number:
		return Doc{"type": "number"}
	case catalog.Object:
		return object(p.Fields)
	case catalog.Array:
		return Doc{"type": "array"}
	}
	return Doc{}
}
