package program

import "github.com/confer-platform/confer/internal/record"

// transcoded is the document's transcoded member: the parameters of the
// program's mp4 file (members in name order, as the map it replaced
// was stored).
type transcoded struct {
	Picmergerstyle int `json:"picmergerstyle"`
	Restype        int `json:"restype"`
}

// SetTranscoded records the parameters of a program's mp4 file (the
// document's transcoded member).
func SetTranscoded(p *Program, restype, picmergerstyle int) {
	p.Doc["transcoded"] = transcoded{Restype: restype, Picmergerstyle: picmergerstyle}
}

// Transcoded returns the parameters of a program's mp4 file; ok is false
// when the program has none recorded (or one of another form).
func Transcoded(p Program) (restype, picmergerstyle int, ok bool) {
	var t transcoded
	ok = record.Member(p.Doc["transcoded"], &t)
	return t.Restype, t.Picmergerstyle, ok
}
