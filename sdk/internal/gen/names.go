package gen

import (
	"strings"

	"github.com/confer-platform/confer/internal/catalog"
)

// initialisms are the word parts written in capitals in Go names.
var initialisms = map[string]string{
	"api": "API", "http": "HTTP", "id": "ID", "ip": "IP", "json": "JSON", "uri": "URI", "url": "URL",
	"sms": "SMS", "rtc": "RTC", "vip": "VIP", "vips": "VIPs", "vad": "VAD", "fec": "FEC",
	"vmp": "VMP", "vmps": "VMPs", "hdu": "HDU", "hdus": "HDUs",
	"mc": "MC", "vc": "VC", "amc": "AMC", "vrs": "VRS", "upu": "UPU", "krtc": "KRTC", "nms": "NMS",
}

// moduleNames prefix the method names of each module.
var moduleNames = map[catalog.Module]string{
	catalog.System: "System", catalog.MC: "MC", catalog.VC: "VC", catalog.AMC: "AMC",
	catalog.VRS: "VRS", catalog.UPU: "UPU", catalog.KRTC: "KRTC", catalog.NMS: "NMS",
}

// keywords may not be used as parameter names.
var keywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true, "goto": true,
	"if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
	// Names the generated bodies use.
	"c": true, "ctx": true, "req": true, "out": true, "err": true, "path": true,
}

// Exported turns a wire name (snake case, or dotted) into an exported Go
// name: "conf_id" is ConfID, "mt_vmps" MtVMPs, "e164" E164.
func Exported(name string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' || r == '-' || r == ' ' }) {
		if s, ok := initialisms[part]; ok {
			b.WriteString(s)
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	s := b.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "N" + s
	}
	return s
}

// unexported turns a wire name into an unexported Go name for an argument:
// "conf_id" is confID, "vmp_id" vmpID.
func unexported(name string) string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' || r == '-' || r == ' ' })
	if len(parts) == 0 {
		return "arg"
	}
	s := strings.ToLower(parts[0]) + Exported(strings.Join(parts[1:], "_"))
	if len(parts) == 1 {
		s = strings.ToLower(parts[0])
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "n" + s
	}
	if keywords[s] {
		s += "_"
	}
	return s
}

// MethodName is the name of the Client method of an endpoint: the module,
// then the rest of the catalogue name, e.g. "vc.confs.speaker.update" is
// VCConfsSpeakerUpdate.
func MethodName(e *catalog.Endpoint) string {
	rest := strings.TrimPrefix(e.Name, string(e.Module))
	return moduleNames[e.Module] + Exported(rest)
}

// singular names one element of a list field: "confs" is Conf,
// "mt_videos" MtVideo; a name that does not look plural gets "Item".
func singular(name string) string {
	s := Exported(name)
	switch {
	case strings.HasSuffix(s, "ies") && len(s) > 4:
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "ss"), strings.HasSuffix(s, "us"), strings.HasSuffix(s, "is"):
		return s + "Item"
	case strings.HasSuffix(s, "s") && len(s) > 2:
		return s[:len(s)-1]
	}
	return s + "Item"
}
