package ops

// The values of fastlog.go's lines, each written as log/slog writes it:
// levels, times, floats and strings (log/slog handler.go, text_handler.go,
// json_handler.go).

import (
	"log/slog"
	"math"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// appendLevel appends slog.Level.String() without its allocation for
// levels between the named ones (log/slog level.go).
func appendLevel(b []byte, l slog.Level) []byte {
	var base string
	var val slog.Level
	switch {
	case l < slog.LevelInfo:
		base, val = "DEBUG", l-slog.LevelDebug
	case l < slog.LevelWarn:
		base, val = "INFO", l-slog.LevelInfo
	case l < slog.LevelError:
		base, val = "WARN", l-slog.LevelWarn
	default:
		base, val = "ERROR", l-slog.LevelError
	}
	b = append(b, base...)
	if val > 0 {
		b = append(b, '+')
	}
	if val != 0 {
		b = strconv.AppendInt(b, int64(val), 10)
	}
	return b
}

// appendRFC3339Millis appends t as log/slog's function of that name
// (handler.go): RFC 3339 with exactly three digits of milliseconds.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	if b, ok := appendRFC3339(b, t, true); ok {
		return b
	}
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...) // drop the 4th digit
}

// appendJSONTime is log/slog's (json_handler.go), time.RFC3339Nano in
// quotes, for years 0 to 9999; slog writes an error value before the
// others, and those are left to it.
func appendJSONTime(b []byte, t time.Time) ([]byte, bool) {
	b = append(b, '"')
	b, ok := appendRFC3339(b, t, false)
	return append(b, '"'), ok
}

// appendRFC3339 appends t as t.AppendFormat(b, time.RFC3339Nano) does
// (time format_rfc3339.go), with exactly three digits of milliseconds if
// millis; it reports false, having appended nothing, for years outside 0
// to 9999.
func appendRFC3339(b []byte, t time.Time, millis bool) ([]byte, bool) {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return b, false
	}
	hour, min, sec := t.Clock()
	b = append(b, digit(year/1000), digit(year/100%10), digit(year/10%10), digit(year%10),
		'-', digit(int(month)/10), digit(int(month)%10), '-', digit(day/10), digit(day%10),
		'T', digit(hour/10), digit(hour%10), ':', digit(min/10), digit(min%10),
		':', digit(sec/10), digit(sec%10))
	ns := t.Nanosecond()
	if millis {
		ms := ns / 1e6
		b = append(b, '.', digit(ms/100), digit(ms/10%10), digit(ms%10))
	} else if ns != 0 { // nine digits, trailing zeros trimmed
		n := 9
		for ns%10 == 0 {
			ns /= 10
			n--
		}
		b = append(b, '.')
		for i := n - 1; i >= 0; i-- {
			b = append(b, digit(ns/pow10[i]%10))
		}
	}
	_, offset := t.Zone()
	if offset == 0 {
		return append(b, 'Z'), true
	}
	zone := offset / 60 // minutes
	if zone < 0 {
		b = append(b, '-')
		zone = -zone
	} else {
		b = append(b, '+')
	}
	if h := zone / 60; h < 100 {
		b = append(b, digit(h/10), digit(h%10))
	} else {
		b = strconv.AppendInt(b, int64(h), 10)
	}
	return append(b, ':', digit(zone%60/10), digit(zone%60%10)), true
}

var pow10 = [9]int{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

func digit(d int) byte { return '0' + byte(d) }

// appendJSONFloat is encoding/json's float64 encoding (encode.go
// floatEncoder), which slog's JSONHandler calls; NaN and infinities are
// an error there, left to slog.
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// jsonSafe holds the ASCII bytes written as they are inside a JSON
// string: all but the control characters, '"' and '\' (encoding/json
// tables.go safeSet, copied by log/slog). slog does not escape HTML.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// textPlain holds the bytes that leave a text value unquoted when they
// stand alone: jsonSafe but space and '=', and '\' (log/slog
// text_handler.go needsQuoting); bytes from 0x80 on start a rune that
// textNeedsQuoting decodes.
var textPlain = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c == '\\' || jsonSafe[c] && c != ' ' && c != '='
	}
	return t
}()

// appendTextString appends s as slog's TextHandler writes a string key or
// value: as it is, or quoted by strconv.Quote when needsQuoting.
func appendTextString(b []byte, s string) []byte {
	if textNeedsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func textNeedsQuoting(s string) bool {
	if len(s) == 0 {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if textPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

const hexDigits = "0123456789abcdef"

// appendEscapedJSONString is log/slog's (json_handler.go), itself
// encoding/json's string encoding without HTML escaping: control
// characters, '"' and '\' escaped, invalid UTF-8 as \ufffd, U+2028 and
// U+2029 escaped.
func appendEscapedJSONString(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, '\\')
			switch c {
			case '\\', '"':
				b = append(b, c)
			case '\n':
				b = append(b, 'n')
			case '\r':
				b = append(b, 'r')
			case '\t':
				b = append(b, 't')
			default:
				b = append(b, 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
