package vrs

import "testing"

func TestDownloadName(t *testing.T) {
	testCases := []struct {
		alias string
		gid   int
		ext   string
		name  string
		disp  string
	}{
		{"desk", 7, ".webm", "desk.webm", `attachment; filename="desk.webm"; filename*=UTF-8''desk.webm`},
		{"Board meeting 3/4", 7, ".mkv", "Board meeting 3_4.mkv", `attachment; filename="Board meeting 3_4.mkv"; filename*=UTF-8''Board%20meeting%203_4.mkv`},
		{"周会", 12, ".webm", "周会.webm", `attachment; filename="__.webm"; filename*=UTF-8''%E5%91%A8%E4%BC%9A.webm`},
		{"it's \"x\"", 3, ".webm", "it's _x_.webm", `attachment; filename="it's _x_.webm"; filename*=UTF-8''it%27s%20_x_.webm`},
		{" .. ", 9, ".webm", "program-9.webm", `attachment; filename="program-9.webm"; filename*=UTF-8''program-9.webm`},
	}
	for _, tc := range testCases {
		name := downloadName(tc.alias, tc.gid, tc.ext)
		if name != tc.name {
			t.Errorf("downloadName(%q, %d, %q) = %q, want %q", tc.alias, tc.gid, tc.ext, name, tc.name)
		}
		if d := contentDisposition(name); d != tc.disp {
			t.Errorf("contentDisposition(%q) = %q, want %q", name, d, tc.disp)
		}
	}
}
