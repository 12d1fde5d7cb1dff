package openapi

// The description as the map document built it before it was typed
// (kept as the reference of TestDocumentBytesUnchanged: the typed
// document must encode to the same bytes).

import (
	"sort"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/release"
)

// mapDoc is a JSON document.
type mapDoc = map[string]any

// Build returns the description of the endpoints that exist at platform
// release r. Every catalogue path (aliases included) is a path of the
// document; its operationId is the entry's name, with a suffix for aliases.
func mapBuild(r release.Release) mapDoc {
	paths := mapDoc{}
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
			item, _ := paths[p].(mapDoc)
			if item == nil {
				item = mapDoc{}
				paths[p] = item
			}
			op := mapOperation(&e, p)
			if i > 0 {
				op["operationId"] = e.Name + ".alias" + strconv.Itoa(i)
			}
			item[strings.ToLower(e.Method)] = op
		}
	}
	sort.Strings(tags)
	tagDocs := make([]any, len(tags))
	for i, t := range tags {
		tagDocs[i] = mapDoc{"name": t}
	}
	return mapDoc{
		"openapi": "3.1.0",
		"info": mapDoc{
			"title":       "Confer platform API",
			"version":     r.Version(),
			"description": "The video-conferencing platform API as Confer serves it at platform release " + r.String() + ". Failures are HTTP 200 with success 0, error_code and description.",
		},
		"tags":  tagDocs,
		"paths": paths,
		"components": mapDoc{
			"securitySchemes": mapDoc{
				"account_token":  mapDoc{"type": "apiKey", "in": "query", "name": "account_token", "description": "From POST /api/v1/system/token; a form field in form-style requests"},
				"SSO_COOKIE_KEY": mapDoc{"type": "apiKey", "in": "cookie", "name": "SSO_COOKIE_KEY", "description": "Set by POST /api/v1/system/login"},
			},
		},
	}
}

func mapOperation(e *catalog.Endpoint, path string) mapDoc {
	op := mapDoc{
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
		params = append(params, mapDoc{"name": m[1], "in": "path", "required": true, "schema": mapDoc{"type": "string"}})
	}
	if !e.Public {
		op["security"] = []any{mapDoc{"account_token": []any{}, "SSO_COOKIE_KEY": []any{}}}
	}
	switch e.Style {
	case catalog.Query:
		for _, p := range e.Params {
			params = append(params, mapDoc{"name": p.Name, "in": "query", "required": p.Required, "description": p.Doc, "schema": mapSchema(p)})
		}
	case catalog.Form:
		op["requestBody"] = mapDoc{"required": len(e.Params) > 0, "content": mapDoc{
			"application/x-www-form-urlencoded": mapDoc{"schema": mapObject(e.Params)},
		}}
	case catalog.Params:
		op["requestBody"] = mapDoc{"required": hasRequired(e.Params), "content": mapDoc{
			"application/x-www-form-urlencoded": mapDoc{"schema": mapParamsForm(e)},
		}}
	case catalog.JSON:
		op["requestBody"] = mapDoc{"required": hasRequired(e.Params), "content": mapDoc{"application/json": mapDoc{"schema": mapObject(e.Params)}}}
	}
	if params != nil {
		op["parameters"] = params
	}
	reply := mapObject(e.Reply)
	props := reply["properties"].(mapDoc)
	props["success"] = mapDoc{"type": "integer", "enum": []any{0, 1}}
	props["error_code"] = mapDoc{"type": "integer", "description": "present on failure"}
	props["description"] = mapDoc{"type": "string", "description": "on failure, ends with the code in parentheses"}
	reply["required"] = []any{"success"}
	op["responses"] = mapDoc{"200": mapDoc{
		"description": "The reply envelope; success 0 carries error_code and description",
		"content":     mapDoc{"application/json": mapDoc{"schema": reply}},
	}}
	return op
}

// paramsForm is the form of a params-style request (seed 000 "Common
// rules" 4): account_token and params, the JSON text whose schema is
// contentSchema. Tools show a string field's description but seldom its
// contentSchema, so the description also names the required parameters.
func mapParamsForm(e *catalog.Endpoint) mapDoc {
	desc := "URL-encoded JSON text of the parameters object"
	if req := requiredPaths(e.Params, ""); len(req) > 0 {
		desc += ". Required: " + strings.Join(req, ", ") + " (a nested one when its parent is sent)"
	}
	form := mapDoc{
		"type": "object",
		"properties": mapDoc{
			"account_token": mapDoc{"type": "string"},
			"params": mapDoc{
				"type": "string", "description": desc,
				"contentMediaType": "application/json", "contentSchema": mapObject(e.Params),
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

func mapObject(ps []catalog.Param) mapDoc {
	props := mapDoc{}
	var req []any
	for _, p := range ps {
		props[p.Name] = mapSchema(p)
		if p.Required {
			req = append(req, p.Name)
		}
	}
	o := mapDoc{"type": "object", "properties": props}
	if req != nil {
		o["required"] = req
	}
	return o
}

func mapSchema(p catalog.Param) mapDoc {
	s := mapKindSchema(p.Kind, p)
	if p.Kind == catalog.Array {
		s["items"] = mapKindSchema(p.Elem, p)
	}
	if p.Doc != "" {
		s["description"] = p.Doc
	}
	if p.Extension {
		s["x-confer-extension"] = true
	}
	return s
}

func mapKindSchema(k catalog.Kind, p catalog.Param) mapDoc {
	switch k {
	case catalog.String:
		s := mapDoc{"type": "string"}
		if len(p.EnumS) > 0 {
			s["enum"] = p.EnumS
		}
		return s
	case catalog.Int:
		s := mapDoc{"type": "integer"}
		if len(p.Enum) > 0 {
			s["enum"] = p.Enum
		}
		return s
	case catalog.Bool:
		return mapDoc{"type": "boolean"}
	case catalog.Number:
		return mapDoc{"type": "number"}
	case catalog.Object:
		return mapObject(p.Fields)
	case catalog.Array:
		return mapDoc{"type": "array"}
	}
	return mapDoc{}
}
