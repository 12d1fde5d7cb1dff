package engine

import (
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// decodeTerminal is a terminal record with its decoded document.
func decodeTerminal(rec store.Record) (Terminal, error) {
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		return Terminal{}, err
	}
	return terminalOf(rec, doc), nil
}

// terminalOf is a terminal record with its document, decoded or built.
func terminalOf(rec store.Record, doc map[string]any) Terminal {
	return Terminal{Rec: rec, Doc: doc}
}

// encodeTerminal writes a terminal's document as the one JSON object it
// was decoded from.
func encodeTerminal(t Terminal) ([]byte, error) {
	return shape.Encode(t.Doc)
}
