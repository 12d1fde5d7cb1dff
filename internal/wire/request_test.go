package wire

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
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
		{"params in the query of an empty-bodied request", "/x?_method=DELETE&params=%7B%22mts%22%3A%5B%5D%7D", form, "", func(t *testing.T, a *Args) {
			if _, ok := a.Params["mts"]; !ok {
				t.Errorf("query params not decoded: %+v", a.Params)
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

// multipartBody builds a multipart/form-data body with text fields and one
// file part.
func multipartBody(t *testing.T, fields map[string]string, field, filename string, content []byte) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if field != "" {
		fw, err := w.CreateFormFile(field, filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

func TestReadArgsMultipart(t *testing.T) {
	body, ct := multipartBody(t, map[string]string{"account_token": "m", "params": `{"n":12345678901234567890}`, "_method": "PUT"},
		"file", "notes.txt", []byte("hello"))
	r := httptest.NewRequest("POST", "/x?debug=1", body)
	r.Header.Set("Content-Type", ct)
	a, err := ReadArgs(r, DefaultMaxBody)
	if err != nil {
		t.Fatalf("ReadArgs: %v", err)
	}
	if !a.PendingFiles() || a.Files != nil {
		t.Fatalf("stage 1 read the file part: %+v", a)
	}
	if err := a.ReadFiles(t.TempDir(), MaxUploadBody); err != nil {
		t.Fatalf("ReadFiles: %v", err)
	}
	defer a.Close()
	if a.Token() != "m" || a.Override() != "PUT" || a.JSON || a.Query.Get("debug") != "1" {
		t.Errorf("args = %+v", a)
	}
	if n := a.Params["n"].(interface{ String() string }).String(); n != "12345678901234567890" {
		t.Errorf("params.n = %s, not kept exact", n)
	}
	fhs := a.Files["file"]
	if len(fhs) != 1 || fhs[0].Filename != "notes.txt" || fhs[0].Size != 5 {
		t.Fatalf("Files = %+v", a.Files)
	}
	f, err := fhs[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if string(got) != "hello" {
		t.Errorf("file content = %q", got)
	}
	// The file field is present for the flat-parameter checks.
	if v, ok := a.Value("file"); !ok || v != "notes.txt" {
		t.Errorf("Value(file) = %q, %v", v, ok)
	}

	// An empty multipart body carries nothing.
	r = httptest.NewRequest("POST", "/x", strings.NewReader(""))
	r.Header.Set("Content-Type", ct)
	if a, err := ReadArgs(r, DefaultMaxBody); err != nil || a.Files != nil || len(a.Form) != 0 {
		t.Errorf("empty multipart: %+v, %v", a, err)
	}
}

func TestReadArgsMultipartErrors(t *testing.T) {
	code := func(t *testing.T, err error) int {
		t.Helper()
		var we *Error
		if !errors.As(err, &we) {
			t.Fatalf("error %v is not a wire error", err)
		}
		return we.Code
	}
	// No boundary, and a body that is not multipart.
	for _, ct := range []string{"multipart/form-data", "multipart/form-data; boundary=zz"} {
		r := httptest.NewRequest("POST", "/x", strings.NewReader("account_token=x"))
		r.Header.Set("Content-Type", ct)
		if _, err := ReadArgs(r, DefaultMaxBody); code(t, err) != CodeIllegalBody {
			t.Errorf("%s: error %v, want 24506", ct, err)
		}
	}
	// A multipart body may exceed DefaultMaxBody up to MaxUploadBody.
	big := bytes.Repeat([]byte("x"), 2*DefaultMaxBody)
	body, ct := multipartBody(t, nil, "file", "big.pdf", big)
	r := httptest.NewRequest("POST", "/x", body)
	r.Header.Set("Content-Type", ct)
	a, err := ReadArgs(r, DefaultMaxBody)
	if err == nil {
		err = a.ReadFiles(t.TempDir(), MaxUploadBody)
	}
	if err != nil || a.Files["file"][0].Size != int64(len(big)) {
		t.Fatalf("2 MiB upload: %v", err)
	}
	// Above MaxUploadBody: 90413, whether the length is announced or not.
	huge := bytes.Repeat([]byte("x"), MaxUploadBody+1)
	for _, announced := range []bool{true, false} {
		body, ct := multipartBody(t, nil, "file", "huge.pdf", huge)
		r := httptest.NewRequest("POST", "/x", body)
		r.Header.Set("Content-Type", ct)
		if !announced {
			r.ContentLength = -1
		}
		a, err := ReadArgs(r, DefaultMaxBody)
		if err == nil {
			err = a.ReadFiles(t.TempDir(), MaxUploadBody)
		}
		if code(t, err) != CodeBodyTooLarge {
			t.Errorf("announced %v: error %v, want 90413", announced, err)
		}
	}
	// Bad params inside a multipart body.
	body, ct = multipartBody(t, map[string]string{"params": "[1]"}, "", "", nil)
	r = httptest.NewRequest("POST", "/x", body)
	r.Header.Set("Content-Type", ct)
	if _, err := ReadArgs(r, DefaultMaxBody); code(t, err) != CodeIllegalBody {
		t.Errorf("params [1]: error %v, want 24506", err)
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
	e.Lockout = Counted(5, 1, "")
	b, err := MarshalObject(Failure(e))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"success":0,"error_code":12103,"description":"conference 77 does not exist (12103)","currentnum":1,"maxlocknum":5,"unlocktime":""}`
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
	f.Add("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../a\"\r\n\r\nx\r\n--b--\r\n", "multipart/form-data; boundary=b", "")
	f.Add("--b\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n{\"a\":1}\r\n--b--\r\n", "multipart/form-data; boundary=b", "")
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

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Stage 1 of a multipart body stops at the first file part: a 20 MB
// upload is not read before the caller is authenticated (issue 20 item 1),
// and ReadFiles keeps the file on disk, not in memory. Without dir the file
// parts are dropped and the body may not exceed the text limit.
func TestReadArgsMultipartStaged(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 20<<20)
	body, ct := multipartBody(t, map[string]string{"account_token": "t"}, "file", "big.pdf", big)
	cr := &countingReader{r: body}
	r := httptest.NewRequest("POST", "/x", cr)
	r.Header.Set("Content-Type", ct)
	a, err := ReadArgs(r, DefaultMaxBody)
	if err != nil {
		t.Fatal(err)
	}
	if a.Token() != "t" || !a.PendingFiles() {
		t.Fatalf("token %q, pending %v", a.Token(), a.PendingFiles())
	}
	if cr.n > 64<<10 {
		t.Fatalf("stage 1 read %d bytes of a 20 MB upload, want at most 64 KiB", cr.n)
	}
	dir := t.TempDir()
	if err := a.ReadFiles(dir, MaxUploadBody); err != nil {
		t.Fatal(err)
	}
	if f := a.Files["file"]; len(f) != 1 || f[0].Size != int64(len(big)) {
		t.Fatalf("files %+v", a.Files)
	}
	a.Close()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Close left %d temporary files", len(left))
	}

	// An endpoint that takes no file: the body is bounded by the text limit.
	body, ct = multipartBody(t, map[string]string{"account_token": "t"}, "file", "big.pdf", big)
	r = httptest.NewRequest("POST", "/x", body)
	r.Header.Set("Content-Type", ct)
	a, err = ReadArgs(r, DefaultMaxBody)
	if err != nil {
		t.Fatal(err)
	}
	var we *Error
	if err := a.ReadFiles("", MaxUploadBody); !errors.As(err, &we) || we.Code != CodeBodyTooLarge {
		t.Fatalf("file part on an endpoint without files: %v, want 90413", err)
	}
	// Text parts above the text limit: 90413 in stage 1.
	body, ct = multipartBody(t, map[string]string{"params": strings.Repeat("y", DefaultMaxBody+1)}, "", "", nil)
	r = httptest.NewRequest("POST", "/x", body)
	r.Header.Set("Content-Type", ct)
	if _, err := ReadArgs(r, DefaultMaxBody); !errors.As(err, &we) || we.Code != CodeBodyTooLarge {
		t.Fatalf("2 MiB of text parts: %v, want 90413", err)
	}
}
