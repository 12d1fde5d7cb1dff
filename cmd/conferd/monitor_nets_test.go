package main

import (
	"flag"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/vc"
)

// --monitor-rtp-nets (docs/live.md "Monitors"): "private", "none" and
// networks; anything else stops the start.
func TestMonitorNets(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want []netip.Prefix
	}{
		{"private", vc.DefaultMonitorNets},
		{"none", []netip.Prefix{}},
		{"203.0.113.7/24, 2001:db8::/32", []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("2001:db8::/32")}},
		{"private,198.51.100.0/24", append(slices.Clone(vc.DefaultMonitorNets), netip.MustParsePrefix("198.51.100.0/24"))},
	} {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f := addRTCFlags(fs)
		if err := fs.Parse([]string{"--monitor-rtp-nets", c.arg}); err != nil {
			t.Fatal(err)
		}
		got, err := f.monitorNetworks()
		if err != nil || got == nil || !slices.Equal(got, c.want) {
			t.Errorf("--monitor-rtp-nets %q = %v, %v; want %v", c.arg, got, err, c.want)
		}
	}
	code, _, errs := runCmd(t, "serve", "--db", filepath.Join(t.TempDir(), "c.db"), "--create", "--monitor-rtp-nets", "10.0.0.0/33")
	if code != exitUsage || !strings.Contains(errs, "--monitor-rtp-nets") {
		t.Errorf("a bad network: exit %d, %q", code, errs)
	}
}
