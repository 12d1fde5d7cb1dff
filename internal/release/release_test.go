package release

import "testing"

func TestEffective(t *testing.T) {
	tests := []struct {
		platform  string
		header    int
		wantRel   string
		wantLevel int
	}{
		{"6.1.0.4.0", 0, "6.0.0.3.0", 1}, // no header means level 1
		{"6.1.0.4.0", 1, "6.0.0.3.0", 1},
		{"6.1.0.4.0", 2, "6.1.0.2.0", 2},
		{"6.1.0.4.0", 3, "6.1.0.4.0", 3},
		{"6.1.0.4.0", 9, "6.1.0.4.0", 3}, // capped
		{"6.1.0.2.0", 3, "6.1.0.2.0", 2},
		{"6.0.0.3.0", 3, "6.0.0.3.0", 1},
		{"5.2.0.4.0", 3, "5.2.0.4.0", 0}, // no levels before 6.0.0.3.0
		{"5.0.0.4.1", 0, "5.0.0.4.1", 0},
	}
	for _, tc := range tests {
		r, l := Effective(MustParse(tc.platform), tc.header)
		if r.String() != tc.wantRel || l != tc.wantLevel {
			t.Errorf("Effective(%s, %d) = %s, %d; want %s, %d", tc.platform, tc.header, r, l, tc.wantRel, tc.wantLevel)
		}
	}
}

func TestParse(t *testing.T) {
	for i, info := range All {
		r, err := Parse(info.Name)
		if err != nil || int(r) != i {
			t.Errorf("Parse(%s) = %d, %v", info.Name, r, err)
		}
	}
	if r, err := Parse("V6.0.0.3.0"); err != nil || r != R6_0_0_3_0 {
		t.Errorf("Parse(V6.0.0.3.0) = %v, %v", r, err)
	}
	if _, err := Parse("7.0"); err == nil {
		t.Error("Parse(7.0) succeeded")
	}
	if R6_1_0_4_0.Version() != "6.1.0.4.0.20210115" || Latest != R6_1_0_4_0 || len(All) != 10 {
		t.Error("release table changed unexpectedly")
	}
}
