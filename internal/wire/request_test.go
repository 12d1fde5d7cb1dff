package wire

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestReadArgs(t *testing.T) {
	form := "application/x-www-form-urlencoded;charset=utf-8"
	tests := []struct {
		name, target, ct, body string
		check                  func(t *testing.T, a *Args)
	}{
		{"query token", "/x?account_token=q", "", "", func(t *testing.T, a *Args) {
			if a.Token() != "q" {
				t.Errorf("Token() = %q", a.Token())
			}
		}},
		{"form token and params", "/x", form, "account_token=f&params=%7B%22mts%22%3A%5B%7B%22bitrate%22%3A2048%7D%5D%7D", func(t *testing.T, a *Args) {
			if a.Token() != "f" || a.Params == nil || a.JSON {
				t.Errorf("args = %+v", a)
			}
			mts := a.Params["mts"].([]any)
			if mts[0].(map[string]any)["bitrate"].(interface{ String() string }).String() != "2048" {
				t.Errorf("bitrate not kept exact: %v", mts)
			}
		}},
		{"json body", "/x?account_token=j", "application/json", `{"room_name":"r","max_join_mt":192}`, func(t *testing.T, a *Args) {
			if !a.JSON || a.Token() != "j" {
				t.Errorf("args = %+v", a)
			}
			if v, _ := a.Value("max_join_mt"); v != "192" {
				t.Errorf("Value(max_join_mt) = %q", v)
			}
		}},
		{"override in query", "/x?_method=delete", form, "", func(t *testing.T, a *Args) {
			if a.Override() != "DELETE" {
				t.Errorf("Override() = %q", a.Override())
			}
		}},
		{"override in form", "/x", form, "_method=PUT", func(t *testing.T, a *Args) {
			if a.Override() != "PUT" {
				t.Errorf("Override() = %q", a.Override())
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", tc.target, strings.NewReader(tc.body))
			if tc.ct != "" {
				r.Header.Set("Content-Type", tc.ct)
			}
			a, err := ReadArgs(r, DefaultMaxBody)
			if err != nil {
				t.Fatalf("ReadArgs: %v", err)
			}
			tc.check(t, a)
		})
	}
}

func TestHeaderAPILevel(t *testing.T) {
	for _, tc := range []struct {
		key, val string
		want     int
		err      bool
	}{
		{"", "", 0, false},
		{"API-Level", "2", 2, false},
		{"Api_level", "3", 3, false},
		{"API-Level", " 1 ", 1, false},
		{"API-Level", "0", 0, true},
		{"API-Level", "x", 0, true},
	} {
		h := http.Header{}
		if tc.key != "" {
			h[http.CanonicalHeaderKey(tc.key)] = []string{tc.val}
		}
		got, err := HeaderAPILevel(h)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("HeaderAPILevel(%s: %q) = %d, %v; want %d, error %v", tc.key, tc.val, got, err, tc.want, tc.err)
		}
	}
}

func TestFailureEnvelope(t *testing.T) {
	e := Errorf(CodeConfNotFound, "conference %s does not exist", "77")
	e.Extra = map[string]any{"currentnum": 1}
	b, err := MarshalObject(Failure(e))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"success":0,"error_code":12103,"description":"conference 77 does not exist (12103)","currentnum":1}`
	if string(b) != want {
		t.Fatalf("Failure = %s, want %s", b, want)
	}
	if AsError(errors.New("db down")).Code != CodeSystemError {
		t.Fatal("a plain error must become 99999")
	}
}

// FuzzReadArgs feeds the decoder arbitrary bodies, content types and query
// strings: it must never panic, and every failure must be a client error.
func FuzzReadArgs(f *testing.F) {
	f.Add("params=%7B%22a%22%3A1%7D", "application/x-www-form-urlencoded", "account_token=x")
	f.Add(`{"room_name":"r"}`, "application/json", "")
	f.Add("a=%zz", "", "_method=DELETE")
	f.Add("{", "", "debug=1")
	f.Fuzz(func(t *testing.T, body, ct, query string) {
		r := httptest.NewRequest("POST", "/x", strings.NewReader(body))
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", ct)
		a, err := ReadArgs(r, 1024)
		if err != nil {
			var we *Error
			if !errors.As(err, &we) || (we.Code != CodeIllegalBody && we.Code != CodeBodyTooLarge) {
				t.Fatalf("ReadArgs error %v is not a client error", err)
			}
			return
		}
		_ = a.Token()
		_ = a.Override()
		_, _ = a.Value("params")
	})
}
