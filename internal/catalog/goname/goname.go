// Package goname names the Go types and methods generated from the
// endpoint catalogue: the SDK's (sdk/internal/gen) and the server's typed
// models (internal/model/gen) use the same names for the same endpoint.
package goname

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

func words(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' || r == '-' || r == ' ' })
}

// Exported turns a wire name (snake case, or dotted) into an exported Go
// name: "conf_id" is ConfID, "mt_vmps" MtVMPs, "e164" E164.
func Exported(name string) string {
	var b strings.Builder
	for _, part := range words(name) {
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

// Unexported turns a wire name into an unexported Go name: "conf_id" is
// confID, "vmp_id" vmpID. It does not avoid Go's keywords.
func Unexported(name string) string {
	parts := words(name)
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
	return s
}

// MethodName names an endpoint in Go: the module, then the rest of the
// catalogue name, e.g. "vc.confs.speaker.update" is VCConfsSpeakerUpdate.
func MethodName(e *catalog.Endpoint) string {
	rest := strings.TrimPrefix(e.Name, string(e.Module))
	return moduleNames[e.Module] + Exported(rest)
}

// Singular names one element of a list field: "confs" is Conf,
// "mt_videos" MtVideo; a name that does not look plural gets "Item".
func Singular(name string) string {
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
