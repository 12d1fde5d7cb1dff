// Package release is the catalogue of the platform releases that Confer
// emulates (seed 001 "Versioning") and their API-Levels (seed 000
// "Versioning"; docs/compatibility.md).
package release

import (
	"fmt"
	"strings"
)

// Release is an index into All; a larger value is a newer release.
type Release int

// Info describes one platform release.
type Info struct {
	Name  string // dotted release, e.g. "6.0.0.3.0"
	Level int    // API-Level; 0 before the header existed (6.0.0.3.0)
	Build string // build date that the version endpoints append
}

// All lists the emulated releases, oldest first (seed 001 "Versioning").
// API-Level 1 is 6.0.0.3.0 (seed 000 "Versioning" 2); Confer assigns level 2
// to 6.1.0.2.0 and level 3 to 6.1.0.4.0.
var All = []Info{
	{"5.0.0.4.1", 0, "20170630"},
	{"5.1.0.1.0", 0, "20171215"},
	{"5.1.0.2.0", 0, "20180330"},
	{"5.1.0.2.1", 0, "20180515"},
	{"5.1.0.4.0", 0, "20180930"},
	{"5.2.0.2.0", 0, "20190115"},
	{"5.2.0.4.0", 0, "20190425"},
	{"6.0.0.3.0", 1, "20190826"},
	{"6.1.0.2.0", 2, "20200630"},
	{"6.1.0.4.0", 3, "20210115"},
}

// Named releases used by rules and catalogue entries.
const (
	R5_0_0_4_1 Release = iota
	R5_1_0_1_0
	R5_1_0_2_0
	R5_1_0_2_1
	R5_1_0_4_0
	R5_2_0_2_0
	R5_2_0_4_0
	R6_0_0_3_0
	R6_1_0_2_0
	R6_1_0_4_0
)

// Latest is the newest emulated release and the default of --release.
const Latest = R6_1_0_4_0

// Baseline is the oldest emulated release; seed 001's "baseline" endpoints
// exist from here on.
const Baseline = R5_0_0_4_1

// Parse finds a release by its dotted name; a leading "V" is accepted.
func Parse(s string) (Release, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "V")
	for i, r := range All {
		if r.Name == s {
			return Release(i), nil
		}
	}
	names := make([]string, len(All))
	for i, r := range All {
		names[i] = r.Name
	}
	return 0, fmt.Errorf("unknown platform release %q (known: %s)", s, strings.Join(names, ", "))
}

// MustParse is Parse for names known to be valid.
func MustParse(s string) Release {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

func (r Release) String() string { return All[r].Name }

// Level returns the API-Level of r, 0 before API-Levels existed.
func (r Release) Level() int { return All[r].Level }

// Version is the version string of the version endpoints: the dotted
// release plus the build date (seed 000 "Version information").
func (r Release) Version() string { return All[r].Name + "." + All[r].Build }

// HasLevels tells whether r reads the API-Level header (from 6.0.0.3.0,
// seed 000 "Versioning" 2).
func (r Release) HasLevels() bool { return r.Level() > 0 }

// ForLevel returns the newest release whose level is at most level.
func ForLevel(level int) Release {
	best := R6_0_0_3_0
	for i, r := range All {
		if r.Level > 0 && r.Level <= level {
			best = Release(i)
		}
	}
	return best
}

// Effective returns the release whose shapes a request sees and the caller's
// effective API-Level. platform is the emulated release; header is the
// API-Level header, 0 when absent. Releases before 6.0.0.3.0 ignore the
// header. Otherwise no header means level 1, and a level above the
// platform's is capped at the platform's (seed 000 "Versioning" 4 and 5).
func Effective(platform Release, header int) (Release, int) {
	if !platform.HasLevels() {
		return platform, 0
	}
	level := header
	if level < 1 {
		level = 1
	}
	if level > platform.Level() {
		level = platform.Level()
	}
	return ForLevel(level), level
}
