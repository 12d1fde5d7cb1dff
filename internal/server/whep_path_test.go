package server_test

import (
	"testing"

	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/vc"
)

// TestWHEPPathIsTheSFUs: the WHEP links vc gives (monitors, TV walls)
// point where the SFU serves WHEP; vc names the path without importing
// the SFU.
func TestWHEPPathIsTheSFUs(t *testing.T) {
	if vc.PathWHEP != sfu.PathWHEP {
		t.Fatalf("vc.PathWHEP %q, sfu.PathWHEP %q", vc.PathWHEP, sfu.PathWHEP)
	}
}
