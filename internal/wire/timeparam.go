package wire

import (
	"strings"
	"time"
)

// ParseTime reads a time parameter in the forms the platform's clients
// send: ISO 8601 with an offset ("Z" or ±hh:mm, seed 000 "Resources" 1),
// with or without fractional seconds, or a wall-clock time
// "YYYY-MM-DD HH:MM:SS" (or with a "T") without an offset, which is read
// in the platform's zone, the zone conferd runs in (issue 21: published
// clients of the platform send that form; docs/api.md "Times").
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err2 := time.ParseInLocation(layout, s, time.Local); err2 == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}
