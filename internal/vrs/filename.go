package vrs

import (
	"strconv"
	"strings"
	"unicode"
)

// downloadName is the name a program's download is saved under: its
// alias (the recording's video_name) with the file's suffix, not its
// number (issue 35 item 7). Characters a file name cannot hold become
// "_"; a program without a usable alias is "program-<gid>".
func downloadName(alias string, gid int, ext string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|':
			return '_'
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, strings.TrimSpace(alias))
	name = strings.Trim(name, ". ")
	if len(name) > 120 {
		cut := 120
		for cut > 0 && !utf8Start(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	if name == "" {
		name = "program-" + strconv.Itoa(gid)
	}
	return name + ext
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }

// contentDisposition is the header of a download named name (RFC 6266
// section 4.3): an ASCII filename for old clients, filename* with the
// UTF-8 name (RFC 8187) for the others.
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII || r == '\\' {
			return '_'
		}
		return r
	}, name)
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + extValue(name)
}

// extValue percent-encodes every byte that is not an attr-char (RFC 8187
// section 3.2.1).
func extValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || strings.IndexByte("!#$&+-.^_`|~", c) >= 0) {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)+strconv.FormatUint(uint64(c)&15, 16)))
	}
	return b.String()
}
