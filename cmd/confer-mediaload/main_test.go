package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlags: bad flags are refused before any media is made or sent.
func TestFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "xml"}, "--format"},
		{[]string{"--no-such-flag"}, "not defined"},
		{[]string{"-h"}, "help requested"},
	} {
		var out, errOut bytes.Buffer
		err := run(c.args, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}
