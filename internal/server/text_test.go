package server

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/wire"
)

// Texts with NUL or invalid UTF-8 are refused with the field's path; other
// texts pass.
func TestBadText(t *testing.T) {
	var params map[string]any
	if err := json.Unmarshal([]byte(`{"ok":"é","mts":[{"mt_id":"1"},{"mt_id":"a\u0000b"}],"room":{"name":"x"}}`), &params); err != nil {
		t.Fatal(err)
	}
	req := &api.Request{
		PathParams: map[string]string{"conf_id": "1\x00", "mt_id": "2"},
		Args: &wire.Args{
			Query:  url.Values{"account_token": {"t"}, "account": {"\xff"}},
			Form:   url.Values{"name": {"fine"}},
			Params: params,
		},
	}
	var got []string
	for _, p := range badText(req) {
		got = append(got, p.Path()+": "+p.Msg)
	}
	want := []string{"conf_id: " + msgBadText, "account: " + msgBadText, "mts[1].mt_id: " + msgBadText}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("badText = %q, want %q", got, want)
	}
	req.PathParams, req.Args.Query, req.Args.Params = nil, url.Values{"a": {"中文"}}, map[string]any{"x": []any{"y", 1.0}}
	if ps := badText(req); len(ps) != 0 {
		t.Fatalf("good text refused: %v", ps)
	}
}
