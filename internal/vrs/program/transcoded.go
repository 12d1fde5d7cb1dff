package program

import "encoding/json"

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
	p.Doc.Transcoded = &transcoded{Restype: restype, Picmergerstyle: picmergerstyle}
	p.Doc.forget("transcoded")
}

// Transcoded returns the parameters of a program's mp4 file; ok is false
// when the program has none recorded (or one of another form).
func Transcoded(p Program) (restype, picmergerstyle int, ok bool) {
	if t := p.Doc.Transcoded; t != nil {
		return t.Restype, t.Picmergerstyle, true
	}
	var t transcoded // of another form, read as the map document read it (null is none)
	raw, kept := p.Doc.Extra["transcoded"]
	ok = kept && string(raw) != "null" && json.Unmarshal(raw, &t) == nil
	return t.Restype, t.Picmergerstyle, ok
}
