package sqlstore

import (
	"encoding/json"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// confStart is the start_at column of a record (migration 0060): for a
// conference its document's top-level start_time in whole seconds, else
// its creation second, as the index over the document computed it before
// (0031: SQLite's unixepoch of json_extract, PostgreSQL's timestamptz
// cast); 0 for the other kinds, which the partial index leaves out. The
// layouts read are those the two engines read: date, T or space, hours
// and minutes with optional seconds and fraction, an optional zone (Z or
// ±hh:mm; none is UTC). A start_time that is not such a string counts as
// absent, as an unreadable one did (SQLite read a number as a Julian day;
// the engine writes strings only: record.TimeLayout).
func confStart(r store.Record) int64 {
	if r.Kind != "conf" {
		return 0
	}
	if s, ok := docStart(r).(int64); ok {
		return s
	}
	return nanos(r.CreatedAt) / int64(time.Second)
}

// docStart is the start second a conference's document gives, nil when
// it gives none: an update writes COALESCE(this, the stored creation
// second), so that a record updated without its creation time (an
// UpdateRecord of a record built afresh) still orders by the stored one.
func docStart(r store.Record) any {
	if r.Kind != "conf" {
		return nil
	}
	if s, ok := topLevelString(r.Data, "start_time"); ok {
		if t, ok := parseStart(s); ok {
			return t.Unix()
		}
	}
	return nil
}

var startLayouts = []string{
	"2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05Z07:00",
	"2006-01-02T15:04Z07:00", "2006-01-02 15:04Z07:00",
	"2006-01-02T15:04:05", "2006-01-02 15:04:05",
	"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02",
}

// parseStart reads a start time in one of startLayouts (a fraction of a
// second is accepted after the seconds by time.Parse).
func parseStart(s string) (time.Time, bool) {
	for _, l := range startLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// topLevelString finds the string value of key among the members of the
// JSON object data itself (not of objects nested in it) without decoding
// the rest: a conference document is a few kilobytes and this runs on
// every write of one. ok is false when the key is absent, its value is
// not a string, or data is not well formed where it was scanned.
func topLevelString(data []byte, key string) (string, bool) {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			end := stringEnd(data, i)
			if end < 0 {
				return "", false
			}
			if depth == 1 && string(data[i+1:end]) == key {
				j := skipSpace(data, end+1)
				if j < len(data) && data[j] == ':' {
					j = skipSpace(data, j+1)
					if j >= len(data) || data[j] != '"' {
						return "", false
					}
					e := stringEnd(data, j)
					var s string
					if e < 0 || json.Unmarshal(data[j:e+1], &s) != nil {
						return "", false
					}
					return s, true
				}
			}
			i = end
		}
	}
	return "", false
}

// stringEnd is the index of the quote closing the string opened at i, -1
// when there is none.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return -1
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}
