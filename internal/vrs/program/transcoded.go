package program

import "github.com/confer-platform/confer/internal/record"

// SetTranscoded records the parameters of a program's mp4 file (the
// document's transcoded member).
func SetTranscoded(p *Program, restype, picmergerstyle int) {
	p.Doc["transcoded"] = map[string]any{"restype": restype, "picmergerstyle": picmergerstyle}
}

// Transcoded returns the parameters of a program's mp4 file; ok is false
// when the program has none recorded.
func Transcoded(p Program) (restype, picmergerstyle int, ok bool) {
	t, ok := p.Doc["transcoded"].(map[string]any)
	return record.Int(t, "restype"), record.Int(t, "picmergerstyle"), ok
}
