package gen

import (
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/catalog/goname"
)

// keywords may not be used as parameter names.
var keywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true, "goto": true,
	"if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
	// Names the generated bodies use.
	"c": true, "ctx": true, "req": true, "out": true, "err": true, "path": true,
}

// Exported turns a wire name into an exported Go name (goname.Exported).
func Exported(name string) string { return goname.Exported(name) }

// unexported turns a wire name into an unexported Go name for an argument:
// "conf_id" is confID, "vmp_id" vmpID; a keyword gets a trailing "_".
func unexported(name string) string {
	s := goname.Unexported(name)
	if keywords[s] {
		s += "_"
	}
	return s
}

// MethodName is the name of the Client method of an endpoint
// (goname.MethodName): "vc.confs.speaker.update" is VCConfsSpeakerUpdate.
func MethodName(e *catalog.Endpoint) string { return goname.MethodName(e) }

// singular names one element of a list field (goname.Singular).
func singular(name string) string { return goname.Singular(name) }
