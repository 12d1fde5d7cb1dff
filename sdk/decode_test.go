package sdk

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestLenientDecode: fields in an older release's JSON type still decode.
func TestLenientDecode(t *testing.T) {
	type member struct {
		MtID string `json:"mt_id"`
	}
	type reply struct {
		RecID    string         `json:"rec_id"`
		Progress int            `json:"current_progress"`
		Ratio    float64        `json:"ratio"`
		On       bool           `json:"on"`
		Members  []member       `json:"members"`
		Poll     *member        `json:"poll,omitempty"`
		Extra    map[string]any `json:"extra"`
		Any      any            `json:"any"`
	}
	raw := `{"success":1,"rec_id":12,"current_progress":"340","ratio":"1.5","on":1,"members":[{"mt_id":3}],"poll":{"mt_id":"4"},"extra":{"a":1},"any":[1,"x"]}`
	var got reply
	if err := decodeInto([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	want := reply{RecID: "12", Progress: 340, Ratio: 1.5, On: true, Members: []member{{"3"}}, Poll: &member{"4"},
		Extra: map[string]any{"a": float64(1)}, Any: []any{float64(1), "x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeInto = %+v, want %+v", got, want)
	}
	if err := decodeInto([]byte(`{"rec_id":{"x":1}}`), &got); err == nil {
		t.Error("an object decoded into a string")
	}
	var rm json.RawMessage
	if err := decodeInto([]byte(raw), &rm); err != nil || string(rm) != raw {
		t.Errorf("RawMessage = %s, %v", rm, err)
	}
}

func TestErrorMatching(t *testing.T) {
	err := error(&Error{Code: 12103, Description: "conference 1 does not exist (12103)", Endpoint: "vc.confs.get"})
	if got := err.Error(); got != "confer: vc.confs.get: conference 1 does not exist (12103)" {
		t.Errorf("Error() = %q", got)
	}
	for _, target := range []error{CodeConfNotFound, ErrNotFound, &Error{Code: 12103}} {
		if !errors.Is(err, target) {
			t.Errorf("errors.Is(err, %v) = false", target)
		}
	}
	for _, target := range []error{CodeMTNotFound, ErrNoPermission, ErrTransport, ErrNoResource} {
		if errors.Is(err, target) {
			t.Errorf("errors.Is(err, %v) = true", target)
		}
	}
	if c := Codes(ErrNoResource); len(c) == 0 || c[0] != CodeNoConfResource {
		t.Errorf("Codes(ErrNoResource) = %v", c)
	}
	de := &DebugError{Endpoint: "vc.confs.mts.add", List: map[string]any{
		"mts":  []any{map[string]any{}, map[string]any{"bitrate": "required parameter is missing"}},
		"name": map[string]any{"name": "too long"},
	}}
	want := []string{"mts[1].bitrate: required parameter is missing", "name: too long"}
	if got := de.Problems(); !reflect.DeepEqual(got, want) {
		t.Errorf("Problems() = %q, want %q", got, want)
	}
	if !errors.Is(de, ErrInvalidParam) || !errors.Is(de, CodeInvalidParam) {
		t.Error("a DebugError does not match ErrInvalidParam")
	}
}

func TestEndpointPaths(t *testing.T) {
	ep, _ := LookupEndpoint("vc.confs.mts.get")
	p, err := ep.Expand([]string{"111 0", "a/b"})
	if err != nil || p != "/api/v1/vc/confs/111%200/mts/a%2Fb" {
		t.Errorf("Expand = %q, %v", p, err)
	}
	if _, err := ep.Expand([]string{"1"}); err == nil {
		t.Error("Expand with a missing path parameter")
	}
	if args, ok := ep.Match(p); !ok || !reflect.DeepEqual(args, []string{"111 0", "a/b"}) {
		t.Errorf("Match = %q, %v", args, ok)
	}
	hb, _ := LookupEndpoint("system.token.heartbeat")
	if got := redact(hb, []string{"secret-token"}); got != "/api/v1/system/token/%2A%2A%2A/heartbeat" && got != "/api/v1/system/token/***/heartbeat" {
		t.Errorf("redact = %q", got)
	}
}
