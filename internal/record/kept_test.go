package record_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
)

type keptDoc struct {
	ID    model.Opt[int]    `json:"id,omitzero"`
	Name  model.Opt[string] `json:"name,omitzero"`
	List  []int             `json:"list,omitempty"`
	Inner *struct {
		A int `json:"a"`
	} `json:"inner,omitempty"`
}

// mapWrite is what the map document writes for data (decoded with
// UseNumber, written by json.Marshal: shape.Encode's bytes).
func mapWrite(t *testing.T, data string) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(data)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKeptRoundTrip: a document read with DecodeKept and written with
// EncodeKept has the bytes the map document writes, whatever its members'
// forms, names and nesting; what the type holds exactly is typed.
func TestKeptRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		data  string
		typed []string // members expected typed
	}{
		{`{"id":1,"inner":{"a":2},"list":[1,2],"name":"n","z":{"}":"{[\"]"}}`, []string{"id", "name", "list", "inner"}},
		{` { "name" : "a\"b", "id" : "1", "list":[] , "inner":{"a":1,"b":2}} `, []string{"list", "name"}},
		{`{"id":-0,"name":"<&>","list":null,"inner":null,"k\u00e9y":1e3,"x":[{"b":1,"a":2}]}`, []string{"name"}},
		{`{"id":1,"id":"2","name":"é","name":"ok"}`, []string{"name"}},
		{`{"name":"a\u00e9","list":[ 1, 2 ],"inner":{ "a" : 1 }}`, []string{"name", "list", "inner"}},
		{`{"id":9007199254740993,"name":"\u2028"}`, []string{"id", "name"}},
		{`{}`, nil},
	} {
		var d keptDoc
		extra, err := record.DecodeKept([]byte(tc.data), &d)
		if err != nil {
			t.Fatalf("%s: %v", tc.data, err)
		}
		got, err := record.EncodeKept(d, extra)
		if err != nil {
			t.Fatal(err)
		}
		if want := mapWrite(t, tc.data); string(got) != want {
			t.Errorf("%s\nwritten %s\nwant    %s", tc.data, got, want)
		}
		for _, k := range tc.typed {
			if _, kept := extra[k]; kept {
				t.Errorf("%s: %s kept, want typed", tc.data, k)
			}
		}
		if len(extra)+len(tc.typed) < len(mapWriteKeys(t, tc.data)) {
			t.Errorf("%s: typed %v, kept %v", tc.data, tc.typed, extra)
		}
	}
	if _, err := record.DecodeKept([]byte(`{"id":`), &keptDoc{}); err == nil {
		t.Error("invalid JSON read")
	}
}

func mapWriteKeys(t *testing.T, data string) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
