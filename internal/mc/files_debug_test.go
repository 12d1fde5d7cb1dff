package mc_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// Issue 20 item 6: debug=1 on an upload reports every problem the real
// request is refused for, the file part's included, and stores nothing.
func TestMeetingFileUploadDebug(t *testing.T) {
	env := mfStart(t, testdb.SQLite(t))
	c := env.LoggedIn(t)
	mfConf(t, env.Env, env.Domain, "1110600", "mtg-d")
	debugUpload := func(fields url.Values, files map[string][]byte) testserver.Reply {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		w.WriteField("account_token", c.Token)
		for k, vs := range fields {
			for _, v := range vs {
				w.WriteField(k, v)
			}
		}
		for name, content := range files {
			fw, _ := w.CreateFormFile("file", name)
			fw.Write(content)
		}
		w.Close()
		req, _ := http.NewRequest("POST", env.URL+mfPath+"mtg-d?debug=1", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		return c.Send(req)
	}
	for _, tc := range []struct {
		name   string
		fields url.Values
		files  map[string][]byte
		want   string // in debug_list.file.file; "" for none
	}{
		{"no file part", nil, nil, "required parameter is missing"},
		{"file as a text field", url.Values{"file": {"notes.txt"}}, nil, "required parameter is missing"},
		{"type not accepted", nil, map[string][]byte{"run.exe": []byte("x")}, `file type "exe" is not accepted`},
		{"empty file", nil, map[string][]byte{"empty.txt": nil}, "is empty"},
		{"two files", nil, map[string][]byte{"a.txt": []byte("a"), "b.txt": []byte("b")}, "one file per upload"},
		{"good", nil, map[string][]byte{"good.txt": []byte("fine")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := testserver.MustOK(t, debugUpload(tc.fields, tc.files))
			list, _ := body["debug_list"].(map[string]any)
			file, _ := list["file"].(map[string]any)
			msg, _ := file["file"].(string)
			if tc.want == "" && len(list) != 0 || tc.want != "" && !strings.Contains(msg, tc.want) {
				t.Fatalf("debug_list %v, want file: %q", body["debug_list"], tc.want)
			}
		})
	}
	if l := mfList(t, c, "mtg-d"); len(l) != 0 || len(mfDisk(t, env.Dir)) != 0 {
		t.Fatalf("debug mode stored %d files", len(l))
	}
}
