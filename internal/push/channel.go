package push

import "strings"

// Channel names (Bayeux 1.0 section 2.2): absolute paths of non-empty
// segments. A subscription may end in the wildcard segment "*" (one more
// segment) or "**" (one or more segments); wildcards appear nowhere else
// (reference 02 "通道说明": "通配符仅能在通道的最后一段中使用").

// validPattern tells whether s is a channel name or a subscription pattern.
func validPattern(s string) bool {
	if len(s) < 2 || s[0] != '/' {
		return false
	}
	segs := strings.Split(s[1:], "/")
	for i, seg := range segs {
		if seg == "" {
			return false
		}
		if (seg == "*" || seg == "**") && i != len(segs)-1 {
			return false
		}
		if seg != "*" && seg != "**" && strings.ContainsRune(seg, '*') {
			return false
		}
	}
	return true
}

// isMeta tells whether a channel is a meta or service channel, which no
// client subscribes to.
func isMeta(ch string) bool {
	return ch == "/meta" || strings.HasPrefix(ch, "/meta/") || ch == "/service" || strings.HasPrefix(ch, "/service/")
}

// domainOf returns the user domain a channel or pattern lies in:
// "/userdomains/{d}/..." gives d; anything else, or a wildcard in the
// domain's place, gives "".
func domainOf(ch string) string {
	rest, ok := strings.CutPrefix(ch, "/userdomains/")
	if !ok {
		return ""
	}
	d, _, _ := strings.Cut(rest, "/")
	if d == "*" || d == "**" {
		return ""
	}
	return d
}

// patternsFor returns every subscription pattern that matches the concrete
// channel ch: ch itself, its parent with "*", and each ancestor with "**".
// Fan-out looks these up instead of testing every subscription.
func patternsFor(ch string) []string {
	segs := strings.Split(ch[1:], "/")
	out := make([]string, 0, len(segs)+2)
	out = append(out, ch)
	parent := ch[:strings.LastIndexByte(ch, '/')]
	out = append(out, parent+"/*")
	prefix := ""
	for i := 0; i < len(segs); i++ {
		out = append(out, prefix+"/**")
		prefix += "/" + segs[i]
	}
	return out
}

// matches tells whether a subscription pattern matches the concrete
// channel ch.
func matches(pattern, ch string) bool {
	for _, p := range patternsFor(ch) {
		if p == pattern {
			return true
		}
	}
	return false
}
