package nms

import (
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
)

// callOf reads a terminal's account and protocol as terminalOf does from
// the whole decoded document.
func TestCallOfReadsAsTerminalOf(t *testing.T) {
	for _, doc := range []string{
		`{"mt_id":"1","account":"10.77.0.1","account_type":7,"protocol":0,"alias":"10.77.0.1","online":1}`,
		`{"account":"0512110000001","protocol":1}`,
		`{"account":5551234,"protocol":"1"}`,
		`{"account":12.5,"protocol":1.0}`,
		`{"account":null,"protocol":2.5}`,
		`{"protocol":1,"nested":{"account":"x","protocol":0},"account":"last"}`,
		`{}`,
	} {
		acct, protocol, err := callOf([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		m, err := engine.DecodeTerminal(store.Record{Data: []byte(doc)})
		if err != nil {
			t.Fatal(err)
		}
		want := terminalOf("d", m)
		if acct != want.account || protocol != want.protocol {
			t.Errorf("%s: callOf = %q, %d; terminalOf = %q, %d", doc, acct, protocol, want.account, want.protocol)
		}
	}
	if _, _, err := callOf([]byte(`{"account":`)); err == nil {
		t.Error("a truncated document was read")
	}
}
