package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/confer-platform/confer/sdk"
)

// TestCallParams pins the parameters a generic call builds from its
// NAME=VALUE, NAME:=JSON and dotted pairs, as the JSON the SDK sends.
func TestCallParams(t *testing.T) {
	ep, _, ok := sdk.MatchEndpoint("POST", "/api/v1/vc/confs/1110000/vmps")
	if !ok {
		t.Fatal("no vmps endpoint")
	}
	for _, c := range []struct {
		query string
		pairs []string
		want  string // JSON, or "error: " and a part of the message
	}{
		{"", []string{"mode=1", "layout=2"}, `{"layout":2,"mode":1}`},
		{"", []string{"members:=[{\"mt_id\":\"1\"}]", "poll.num=3", "poll.keep_time=5"}, `{"members":[{"mt_id":"1"}],"poll":{"keep_time":5,"num":3}}`},
		{"", []string{`poll:={"num":1}`, "poll.keep_time=5", "a.b.c=x"}, `{"a":{"b":{"c":"x"}},"poll":{"keep_time":5,"num":1}}`},
		{"mode=2", []string{"layout=1"}, `{"layout":1,"mode":2}`},
		{"", []string{"mode=1", "mode.x=2"}, "error: mode is set both as a value and as an object"},
		{"", []string{"novalue"}, "error: want NAME=VALUE"},
	} {
		got, err := callParams(ep, c.query, c.pairs)
		if want, ok := strings.CutPrefix(c.want, "error: "); ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%v: %v, want an error with %q", c.pairs, err, want)
			}
			continue
		}
		b, _ := json.Marshal(got)
		if err != nil || string(b) != c.want {
			t.Errorf("%v: %s %v, want %s", c.pairs, b, err, c.want)
		}
	}
}
