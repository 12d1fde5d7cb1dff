package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/confer-platform/confer/sdk"
)

// capture returns the command's context, recording each reply for --json.
func (a *app) capture() context.Context {
	return sdk.CaptureReply(a.ctx, &a.raw)
}

// printJSON prints a reply indented.
func (a *app) printJSON(raw []byte) {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		buf.Reset()
		buf.Write(raw)
	}
	buf.WriteByte('\n')
	a.out.Write(buf.Bytes())
}

// printValue prints any value as indented JSON.
func (a *app) printValue(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "%s\n", b)
	return nil
}

// table prints rows under a header, aligned.
func (a *app) table(head []string, rows [][]string) {
	w := tabwriter.NewWriter(a.out, 0, 4, 2, ' ', 0)
	if len(head) > 0 {
		fmt.Fprintln(w, strings.Join(head, "\t"))
	}
	for _, r := range rows {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
}

// done prints the result of a change: the platform's reply with --json,
// else msg (or the debug-mode verdict).
func (a *app) done(format string, args ...any) error {
	switch {
	case a.g.json:
		a.printJSON(a.raw)
	case a.g.debug:
		fmt.Fprintln(a.out, "Valid: the platform would accept this request (debug mode, nothing was executed).")
	default:
		fmt.Fprintf(a.out, format+"\n", args...)
	}
	return nil
}

// show prints a reply: indented JSON with --json, else the table.
func (a *app) show(table func()) error {
	if a.g.json {
		a.printJSON(a.raw)
		return nil
	}
	table()
	return nil
}

// field is one top-level member of a JSON object, in its order.
type field struct {
	key string
	val json.RawMessage
}

// orderedFields reads the members of a JSON object in the order sent.
func orderedFields(raw []byte) []field {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, field{k, v})
	}
	return out
}

// text renders a JSON value for a table cell: strings bare, objects and
// lists as compact JSON.
func text(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) == nil {
		return buf.String()
	}
	return string(v)
}

// keyValues prints the members of the reply (without success) as a
// two-column table; a list of objects is printed as a table after it.
func (a *app) keyValues(raw []byte) {
	var rows [][]string
	var lists []field
	for _, f := range orderedFields(raw) {
		if f.key == "success" {
			continue
		}
		if isObjectList(f.val) {
			lists = append(lists, f)
			continue
		}
		rows = append(rows, []string{f.key, text(f.val)})
	}
	a.table(nil, rows)
	for _, l := range lists {
		fmt.Fprintf(a.out, "\n%s:\n", l.key)
		a.objectTable(l.val, nil)
	}
}

func isObjectList(v json.RawMessage) bool {
	var xs []json.RawMessage
	if json.Unmarshal(v, &xs) != nil || len(xs) == 0 {
		return false
	}
	for _, x := range xs {
		if t := bytes.TrimSpace(x); len(t) == 0 || t[0] != '{' {
			return false
		}
	}
	return true
}

// objectTable prints a JSON list of objects as a table: cols when given
// (upper-cased for the header), else every key in order of appearance.
func (a *app) objectTable(list json.RawMessage, cols []string) {
	var xs []json.RawMessage
	_ = json.Unmarshal(list, &xs)
	var objs []map[string]json.RawMessage
	var keys []string
	seen := map[string]bool{}
	for _, x := range xs {
		var m map[string]json.RawMessage
		if json.Unmarshal(x, &m) != nil {
			continue
		}
		objs = append(objs, m)
		for _, f := range orderedFields(x) {
			if !seen[f.key] {
				seen[f.key] = true
				keys = append(keys, f.key)
			}
		}
	}
	if cols == nil {
		cols = keys
	}
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = strings.ToUpper(c)
	}
	rows := make([][]string, 0, len(objs))
	for _, m := range objs {
		row := make([]string, len(cols))
		for i, c := range cols {
			row[i] = text(m[c])
		}
		rows = append(rows, row)
	}
	a.table(head, rows)
}

// listField returns a top-level member of the reply.
func listField(raw []byte, key string) json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(raw, &m)
	return m[key]
}

func itoa(i int) string { return strconv.Itoa(i) }

func yesNo(v int) string {
	if v == 1 {
		return "yes"
	}
	return "no"
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
