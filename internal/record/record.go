// Package record names the kinds of the store's records that several
// modules read (store.Record.Kind) and reads the fields of their JSON
// documents (decoded with shape.Decode): strings, integers and times as
// the platform writes them.
package record

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/wire"
)

// Record kinds of the store (store.Record.Kind) used across modules.
const (
	KindConf             = "conf"
	KindPersonalTemplate = "personal_template"
	KindPublicTemplate   = "public_template"
	KindRoom             = "virtual_meeting_room"
	KindArea             = "meeting_room_area"
	KindFile             = "meeting_file"

	// KindMT is a conference's terminal (internal/engine). Its id is
	// "<conf_id>/<mt_id>"; OwnerMoid holds the conf_id.
	KindMT = "mt"

	// KindCallRecord is a terminal's call in a running conference, and
	// KindHistory an ended conference with its calls (internal/engine
	// history.go): Confer's call records, not the platform's.
	KindCallRecord = "call_record"
	KindHistory    = "conf_history"

	// KindAudit is an entry of the stored audit trail (internal/server
	// audit_trail.go), in the acting account's domain.
	KindAudit = "audit"
)

// TimeLayout is ISO 8601 with a numeric UTC offset, as seed 000
// "Resources" 1 writes times: <YYYY-MM-DD>T<hh:mm:ss><+hh:mm>.
const TimeLayout = "2006-01-02T15:04:05-07:00"

// FormatTime writes t in TimeLayout, keeping its offset.
func FormatTime(t time.Time) string { return t.Format(TimeLayout) }

// ParseTime reads a time parameter: ISO 8601 with an offset, or
// "YYYY-MM-DD HH:MM:SS" in the platform's zone (wire.ParseTime).
func ParseTime(s string) (time.Time, error) { return wire.ParseTime(s) }

// Window reads the optional start_time and end_time query parameters of
// a list (the history's and the audit trail's): zero times when absent,
// 90400 naming the field when unreadable.
func Window(q interface{ Get(string) string }) (from, to time.Time, err error) {
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{"start_time", &from}, {"end_time", &to}} {
		if s := q.Get(f.name); s != "" {
			if *f.t, err = ParseTime(s); err != nil {
				return from, to, wire.InvalidParam(f.name, "must be a time such as 2026-03-01T10:00:00+08:00 or 2026-03-01 10:00:00")
			}
		}
	}
	return from, to, nil
}

// Int reads an integer field of a document (json.Number, float64, int or
// a numeric string); 0 when absent or not a number.
func Int(doc map[string]any, key string) int {
	n, _ := IntOK(doc[key])
	return n
}

// IntOK converts a document value to an integer.
func IntOK(v any) (int, bool) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return int(n), true
		}
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return int(f), true
		}
	case float64:
		if x == math.Trunc(x) {
			return int(x), true
		}
	case int:
		return x, true
	case int64:
		return int(x), true
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, true
		}
	}
	return 0, false
}

// Str reads a string field of a document (a number is written as text).
func Str(doc map[string]any, key string) string {
	switch x := doc[key].(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return ""
}
