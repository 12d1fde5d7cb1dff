package vc

import (
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
)

// Choosing the upload terminal moves its flag: off the previous one, on
// the new one; choosing the same again sets it again, "" clears it.
func TestUploadFlags(t *testing.T) {
	off, on := model.Some(0), model.Some(1)
	for _, tc := range []struct {
		prev, next string
		want       []engine.TerminalFlags
	}{
		{"", "", nil},
		{"", "2", []engine.TerminalFlags{{MtID: "2", Upload: on}}},
		{"1", "2", []engine.TerminalFlags{{MtID: "1", Upload: off}, {MtID: "2", Upload: on}}},
		{"2", "2", []engine.TerminalFlags{{MtID: "2", Upload: on}}},
		{"4.1", "", []engine.TerminalFlags{{MtID: "4.1", Upload: off}}},
	} {
		if got := uploadFlags(tc.prev, tc.next); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q -> %q: %+v, want %+v", tc.prev, tc.next, got, tc.want)
		}
	}
}
