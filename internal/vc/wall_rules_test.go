package vc

import (
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// A wall's registration names its device and channel (digits, an
// underscore, digits, up to six each) and a name of 1 to 64 bytes.
func TestWallRegistration(t *testing.T) {
	for _, tc := range []struct {
		id, name string
		code     int
	}{
		{"3_0", "Lobby", 0},
		{"123456_654321", strings.Repeat("n", 64), 0},
		{"3_0", "", wire.CodeInvalidParam},
		{"3_0", strings.Repeat("n", 65), wire.CodeInvalidParam},
		{"30", "Lobby", wire.CodeInvalidParam},
		{"3_", "Lobby", wire.CodeInvalidParam},
		{"1234567_0", "Lobby", wire.CodeInvalidParam},
		{"a_0", "Lobby", wire.CodeInvalidParam},
		{"", "Lobby", wire.CodeInvalidParam},
	} {
		if got := codeOf(wallRegistration(model.VCTvWallsCreateRequest{HDUID: tc.id, HDUName: tc.name})); got != tc.code {
			t.Errorf("%q %q: code %d, want %d", tc.id, tc.name, got, tc.code)
		}
	}
}
