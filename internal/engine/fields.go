package engine

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Creation types of reference 04 "创建会议" (create_type): 1 instant
// conference, 2 public template, 3 personal template (2 and 3 from
// 5.2.0.4.0, seed 001), 4 virtual meeting room.
const (
	CreateInstant          = 1
	CreatePublicTemplate   = 2
	CreatePersonalTemplate = 3
	CreateRoom             = 4
)

// DefaultMaxJoinMt is the size of a conference that states none: 192, the
// value seed 000 "Limits" 2 gives for room creation and every example of
// reference 04 uses. A running conference takes max_join_mt ports.
const DefaultMaxJoinMt = 192

// PlatformID is the moid of Confer's one conference platform
// (mc.platforms.list; platform_id of a conference).
const PlatformID = "c0f3e7a1-5d2b-4c8e-9f60-1a2b3c4d5e6f"

// TimeLayout is ISO 8601 with a numeric UTC offset, as seed 000
// "Resources" 1 writes times: <YYYY-MM-DD>T<hh:mm:ss><+hh:mm>.
const TimeLayout = "2006-01-02T15:04:05-07:00"

// FormatTime writes t in TimeLayout, keeping its offset.
func FormatTime(t time.Time) string { return t.Format(TimeLayout) }

// ParseTime reads an ISO 8601 time with an offset ("Z" or ±hh:mm), with
// or without fractional seconds.
func ParseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
}

// EndTime is start plus duration minutes; zero for a permanent conference
// (duration 0).
func EndTime(start time.Time, duration int) time.Time {
	if duration <= 0 {
		return time.Time{}
	}
	return start.Add(time.Duration(duration) * time.Minute)
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

// Ports returns the terminal ports a conference takes: its max_join_mt,
// DefaultMaxJoinMt when it has none.
func Ports(doc map[string]any) int {
	if n := Int(doc, "max_join_mt"); n > 0 {
		return n
	}
	return DefaultMaxJoinMt
}
