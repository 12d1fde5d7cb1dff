// Package catalog is the one table of every endpoint of the platform
// (DESIGN principle 1). Routing, login checks, release gating and the API
// description all read it; handlers attach to entries by name.
package catalog

import "github.com/confer-platform/confer/internal/release"

// Module is the {app} part of a path (seed 000 "What the service does").
type Module string

// The modules.
const (
	System Module = "system"
	MC     Module = "mc"
	VC     Module = "vc"
	AMC    Module = "amc"
	VRS    Module = "vrs"
	UPU    Module = "upu"
	KRTC   Module = "krtc"
	NMS    Module = "nms"
)

// Modules lists every module, in the order of seed 000's module table.
var Modules = []Module{System, MC, VC, AMC, VRS, UPU, KRTC, NMS}

// Style is how a request carries its parameters (seed 000 "Common rules").
type Style int

const (
	// Query: parameters flat in the query string (GET, DELETE).
	Query Style = iota
	// Form: plain form fields (token, login).
	Form
	// Params: form style with structured parameters in the field `params`.
	Params
	// JSON: the body is a JSON object, account_token in the query (krtc).
	JSON
)

// Kind is the type of a parameter or reply field.
type Kind int

const (
	String Kind = iota
	Int
	Bool
	Number
	Object
	Array
	Any
)

// Param describes one parameter or reply field.
type Param struct {
	Name     string
	Kind     Kind
	Required bool
	Enum     []int    // allowed integer values; empty means any
	EnumS    []string // allowed string values; empty means any
	Fields   []Param  // members of an Object, or of each element of an Array of objects
	Elem     Kind     // element kind of an Array
	Doc      string
	// Extension marks Confer's own parameter, not one of the platform
	// (x-confer-extension in the API description).
	Extension bool
}

// Endpoint is one entry of the catalogue.
type Endpoint struct {
	Name      string // unique, e.g. "system.login"
	Module    Module
	Method    string
	Path      string   // pattern with {name} parameters
	Aliases   []string // further paths served by the same entry
	Summary   string
	MinLevel  int             // minimum API-Level (reference "最低支持版本")
	Since     release.Release // release that introduced it (Baseline for seed 001's "baseline")
	Removed   release.Release // release that removed it; 0 when never removed
	Public    bool            // served without account_token and session
	Style     Style
	Params    []Param
	Reply     []Param
	Extension bool // Confer's own addition, not a platform endpoint
}

// ExistsAt tells whether the endpoint exists at platform release r.
func (e *Endpoint) ExistsAt(r release.Release) bool {
	return r >= e.Since && (e.Removed == 0 || r < e.Removed)
}

// Paths returns the main path and its aliases.
func (e *Endpoint) Paths() []string {
	return append([]string{e.Path}, e.Aliases...)
}
