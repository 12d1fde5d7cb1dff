package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestReads(t *testing.T) {
	doc := map[string]any{"n": json.Number("12"), "f": 3.0, "half": 2.5, "s": " 7 ", "word": "x", "num": json.Number("1110000")}
	for _, tc := range []struct {
		key  string
		want int
		ok   bool
	}{{"n", 12, true}, {"f", 3, true}, {"half", 0, false}, {"s", 7, true}, {"word", 0, false}, {"absent", 0, false}} {
		if n, ok := IntOK(doc[tc.key]); n != tc.want || ok != tc.ok {
			t.Errorf("IntOK(%s) = %d, %v; want %d, %v", tc.key, n, ok, tc.want, tc.ok)
		}
	}
	if Int(doc, "n") != 12 || Str(doc, "num") != "1110000" || Str(doc, "word") != "x" || Str(doc, "f") != "" {
		t.Errorf("Int/Str: %d %q %q %q", Int(doc, "n"), Str(doc, "num"), Str(doc, "word"), Str(doc, "f"))
	}
	at, err := ParseTime("2026-03-01T10:00:00+08:00")
	if err != nil || FormatTime(at) != "2026-03-01T10:00:00+08:00" || !at.Equal(time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("times: %v %v", at, err)
	}
}

// Text reads a string or a number's text, and "" for anything else.
func TestText(t *testing.T) {
	var d struct {
		A, B, C, D Text
	}
	if err := json.Unmarshal([]byte(`{"A":"x\u003c","B":12,"C":null,"D":{"k":1}}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.A != "x<" || d.B != "12" || d.C != "" || d.D != "" {
		t.Fatalf("read %+v", d)
	}
}

// Integer reads a member as Int reads it from a decoded document.
func TestInteger(t *testing.T) {
	const data = `{"n":12,"f":3.0,"half":2.5,"s":" 7 ","word":"x","null":null,"obj":{"k":1},"big":1110000}`
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var d map[string]Integer
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	for k := range doc {
		if int(d[k]) != Int(doc, k) {
			t.Errorf("%s: Integer %d, Int %d", k, d[k], Int(doc, k))
		}
	}
	if d["n"] != 12 || d["s"] != 7 || d["half"] != 0 {
		t.Errorf("read %v", d)
	}
}
