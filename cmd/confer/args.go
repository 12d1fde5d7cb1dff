package main

import (
	"bytes"
	"encoding/json"
	"net"
	"strconv"
	"strings"
)

// multi is a flag that may be repeated.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// Account types of terminals and members (seed 001 "Enumerations").
const (
	accountMoid  = 1
	accountE164  = 5
	accountPhone = 6
	accountIP    = 7
	accountAlias = 8
)

var accountPrefixes = map[string]int{"moid": accountMoid, "e164": accountE164, "tel": accountPhone, "ip": accountIP, "alias": accountAlias}

// parseAccount reads a terminal account: "e164:1234", "tel:...", "ip:...",
// "alias:name@10.0.0.1", "moid:...", or a bare IP address (7), number (5)
// or alias@ip (8).
func parseAccount(s string) (int, string, error) {
	if pre, rest, ok := strings.Cut(s, ":"); ok {
		if t, known := accountPrefixes[strings.ToLower(pre)]; known && rest != "" {
			return t, rest, nil
		}
	}
	switch {
	case net.ParseIP(s) != nil:
		return accountIP, s, nil
	case s != "" && strings.Trim(s, "0123456789") == "":
		return accountE164, s, nil
	case strings.Contains(s, "@"):
		return accountAlias, s, nil
	}
	return 0, "", usagef("cannot tell the account type of %q: write e164:, tel:, ip:, alias: or moid: before it", s)
}

// protocolValue reads h323 or sip.
func protocolValue(s string) (int, error) {
	switch strings.ToLower(strings.ReplaceAll(s, ".", "")) {
	case "h323", "0":
		return 0, nil
	case "sip", "1":
		return 1, nil
	}
	return 0, usagef("protocol %q: want h323 or sip", s)
}

// jsonValue reads the value of key=value: JSON when it is JSON (a number,
// true, an object...), else the text as a string.
func jsonValue(v string) json.RawMessage {
	t := strings.TrimSpace(v)
	if t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	b, _ := json.Marshal(v)
	return b
}

// applySets merges key=value pairs (--set) into a request struct, checking
// the names against the struct's fields.
func applySets(req any, sets []string) error {
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return usagef("--set %q: want name=value", s)
		}
		try := func(val json.RawMessage) error {
			obj, _ := json.Marshal(map[string]json.RawMessage{k: val})
			dec := json.NewDecoder(bytes.NewReader(obj))
			dec.DisallowUnknownFields()
			return dec.Decode(req)
		}
		err := try(jsonValue(v))
		if err != nil && strings.Contains(err.Error(), "cannot unmarshal") {
			quoted, _ := json.Marshal(v)
			err = try(quoted)
		}
		if err != nil {
			return usagef("--set %s: %v", k, strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return nil
}

func atoiArg(name, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, usagef("%s %q: want a number", name, s)
	}
	return n, nil
}

// b2i is the 0/1 of a boolean flag.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
