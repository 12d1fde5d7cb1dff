package mc_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
	"github.com/confer-platform/confer/internal/wire"
)

// Helpers of the meeting file tests (prefixed mf).

const mfPath = "/api/v1/mc/meeting_files/"

// mfEnv is a server whose meeting files are kept in Dir.
type mfEnv struct {
	*testserver.Env
	Dir    string // FilesDir
	Domain string // moid of the default domain
}

func mfStart(t *testing.T, dsn string) *mfEnv {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	env := testserver.Start(t, dsn, testserver.Options{MC: mc.Config{FilesDir: dir}})
	return &mfEnv{Env: env, Dir: dir, Domain: mfDomain(t, env.Store, auth.DefaultDomain)}
}

func mfDomain(t *testing.T, st store.Store, name string) string {
	t.Helper()
	d, err := st.DomainByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return d.Moid
}

// mfConf stores a conference of a domain with a meeting id, as the
// conference service does.
func mfConf(t *testing.T, env *testserver.Env, domain, id, meetingID string) {
	t.Helper()
	now := env.Clock.Now()
	rec := store.Record{Kind: record.KindConf, ID: id, DomainMoid: domain, State: engine.StateRunning,
		Data: []byte(`{"name":"files","meeting_id":"` + meetingID + `"}`), CreatedAt: now, UpdatedAt: now}
	if err := env.Store.CreateRecord(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
}

// mfUpload sends a real multipart/form-data upload with account_token as
// a form field and the file part named field ("" for none). The file name
// is written as a quoted string with \ and " escaped, as
// mime/multipart.Writer does.
func mfUpload(t *testing.T, env *testserver.Env, c *testserver.Client, meetingID, field, filename string, content []byte) testserver.Reply {
	t.Helper()
	return mfUploadParts(t, env, c, meetingID, []string{field}, filename, content)
}

// mfUploadParts is mfUpload with the same file in a part of each name.
func mfUploadParts(t *testing.T, env *testserver.Env, c *testserver.Client, meetingID string, fields []string, filename string, content []byte) testserver.Reply {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.WriteField("account_token", c.Token); err != nil {
		t.Fatal(err)
	}
	for _, field := range fields {
		if field == "" {
			continue
		}
		h := textproto.MIMEHeader{}
		esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(filename)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, field, esc))
		h.Set("Content-Type", "application/octet-stream")
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write(content)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("POST", env.URL+mfPath+meetingID, &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.Send(req)
}

func mfList(t *testing.T, c *testserver.Client, meetingID string) []map[string]any {
	t.Helper()
	l := testserver.MustOK(t, c.Do("GET", mfPath+meetingID, nil))
	var out []map[string]any
	for _, x := range l["meeting_files"].([]any) {
		out = append(out, x.(map[string]any))
	}
	if l["total"] != float64(len(out)) {
		t.Fatalf("total %v for %d files", l["total"], len(out))
	}
	return out
}

// mfDisk lists the files under dir, relative to it, sorted.
func mfDisk(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// mfModule is a second mc module over the server's store, clock and
// folder: what the server's tick runs, callable directly.
func mfModule(env *mfEnv) *mc.Module {
	return mc.New(env.Store, env.Clock, nil, mc.Config{FilesDir: env.Dir})
}

var mfStored = regexp.MustCompile(`^[0-9a-f]{32}\.[a-z]+$`)

func TestMeetingFiles(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := mfStart(t, dsn)
		c := env.LoggedIn(t)
		mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")

		content := bytes.Repeat([]byte("minutes "), 75*1024/8) // 75 KiB: "0.07" MB
		r := testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "Minutes.TXT", content))
		f := r["meeting_file"].(map[string]any)
		admin, err := env.Store.AccountByUsername(context.Background(), testserver.AdminUser)
		if err != nil {
			t.Fatal(err)
		}
		stored := strings.TrimPrefix(f["file_url"].(string), "/file/"+env.Domain+"/")
		if !mfStored.MatchString(stored) || !strings.HasSuffix(stored, ".txt") {
			t.Fatalf("file_url %v is not /file/<domain>/<generated name>", f["file_url"])
		}
		want := map[string]any{"file_id": f["file_id"], "meeting_id": "mtg-1", "file_name": "Minutes.TXT", "file_type": "txt",
			"extension_name": "txt", "file_url": f["file_url"], "file_size": "0.07", "creator_moid": admin.Moid,
			"creator_name": "admin", "create_time": env.Clock.Now().Format(time.RFC3339)}
		if g, w := vmrJSON(t, f), vmrJSON(t, want); g != w || f["file_id"] == "" {
			t.Fatalf("meeting_file = %s\nwant           %s", g, w)
		}
		if r["description"] == "" {
			t.Errorf("no description in %v", r)
		}
		// The content is on disk, whole, under the generated name.
		if got := mfDisk(t, env.Dir); len(got) != 1 || got[0] != env.Domain+"/"+stored {
			t.Fatalf("files on disk: %v", got)
		}
		if b, err := os.ReadFile(filepath.Join(env.Dir, env.Domain, stored)); err != nil || !bytes.Equal(b, content) {
			t.Fatalf("stored content differs (%v)", err)
		}

		// The list shows the same record; a second file comes after it.
		env.Clock.Advance(time.Minute)
		testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "slides.pptx", []byte("pptx")))
		l := mfList(t, c, "mtg-1")
		if len(l) != 2 || vmrJSON(t, l[0]) != vmrJSON(t, want) || l[1]["file_name"] != "slides.pptx" || l[1]["file_size"] != "0.00" {
			t.Fatalf("list = %s", vmrJSON(t, l))
		}

		// Delete removes record and content; a second delete finds nothing.
		testserver.MustOK(t, c.Do("DELETE", mfPath+f["file_id"].(string), nil))
		if l := mfList(t, c, "mtg-1"); len(l) != 1 || l[0]["file_name"] != "slides.pptx" {
			t.Fatalf("list after delete = %s", vmrJSON(t, l))
		}
		if got := mfDisk(t, env.Dir); len(got) != 1 || strings.HasSuffix(got[0], stored) {
			t.Fatalf("files on disk after delete: %v", got)
		}
		testserver.MustFail(t, c.Do("DELETE", mfPath+f["file_id"].(string), nil), mc.CodeFileNotFound)
		testserver.MustOK(t, c.Do("POST", mfPath+l[1]["file_id"].(string)+"?_method=DELETE", nil))
		if got := mfDisk(t, env.Dir); len(got) != 0 {
			t.Fatalf("files on disk after deleting all: %v", got)
		}
	})
}

func TestMeetingFileErrors(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := mfStart(t, dsn)
		c := env.LoggedIn(t)
		mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")

		// Not a meeting of the domain: 12103.
		testserver.MustFail(t, mfUpload(t, env.Env, c, "nope", "file", "a.txt", []byte("x")), wire.CodeConfNotFound)
		testserver.MustFail(t, c.Do("GET", mfPath+"nope", nil), wire.CodeConfNotFound)
		// No file part, a file under another name, two files.
		d := testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "", "", nil), wire.CodeInvalidParam)
		if !strings.Contains(d, "parameter file") {
			t.Errorf("description %q does not name file", d)
		}
		testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "document", "a.txt", []byte("x")), wire.CodeInvalidParam)
		// Issue 38 item 13: a second file part under another name.
		d = testserver.MustFail(t, mfUploadParts(t, env.Env, c, "mtg-1", []string{"file", "attachment"}, "a.txt", []byte("x")), wire.CodeInvalidParam)
		if !strings.Contains(d, "attachment") {
			t.Errorf("two file parts: description %q does not name the second", d)
		}
		// A form-encoded body has no file.
		testserver.MustFail(t, c.Do("POST", mfPath+"mtg-1", nil), wire.CodeInvalidParam)
		// Types outside the reference's list, no extension, empty files.
		for _, name := range []string{"run.exe", "README", "archive.tar.gz"} {
			d := testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", name, []byte("x")), wire.CodeInvalidParam)
			if !strings.Contains(d, "file type") {
				t.Errorf("%s: description %q", name, d)
			}
		}
		testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", "empty.txt", nil), mc.CodeFileEmpty)

		// 20 MB a file: one byte more is refused (90413), exactly 20 MB is
		// kept; a body beyond the upload limit is refused before the handler.
		big := bytes.Repeat([]byte{'z'}, mc.FileMaxBytes+1)
		d = testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", "big.pdf", big), wire.CodeBodyTooLarge)
		if !strings.Contains(d, "20 MB") {
			t.Errorf("description %q does not state the limit", d)
		}
		testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", "huge.pdf", bytes.Repeat([]byte{'z'}, wire.MaxUploadBody)), wire.CodeBodyTooLarge)
		if l := mfList(t, c, "mtg-1"); len(l) != 0 || len(mfDisk(t, env.Dir)) != 0 {
			t.Fatalf("refused uploads left %s, disk %v", vmrJSON(t, l), mfDisk(t, env.Dir))
		}
		f := testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "max.pdf", big[:mc.FileMaxBytes]))["meeting_file"].(map[string]any)
		if f["file_size"] != "20.00" {
			t.Errorf("file_size of 20 MB = %v", f["file_size"])
		}

		// 10 files a meeting: the 11th is refused and nothing is kept;
		// after a delete there is room again. Other meetings are apart.
		mfConf(t, env.Env, env.Domain, "1110501", "mtg-2")
		for i := 2; i <= 10; i++ {
			testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", fmt.Sprintf("f%d.txt", i), []byte("x")))
		}
		testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", "f11.txt", []byte("x")), mc.CodeFileLimit)
		if l := mfList(t, c, "mtg-1"); len(l) != 10 || len(mfDisk(t, env.Dir)) != 10 {
			t.Fatalf("after the 11th: %d listed, disk %v", len(l), mfDisk(t, env.Dir))
		}
		testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-2", "file", "other.txt", []byte("x")))
		testserver.MustOK(t, c.Do("DELETE", mfPath+f["file_id"].(string), nil))
		testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "f11.txt", []byte("x")))
		if l := mfList(t, c, "mtg-1"); len(l) != 10 || l[9]["file_name"] != "f11.txt" {
			t.Fatalf("list = %s", vmrJSON(t, l))
		}
		own := mfList(t, c, "mtg-2")[0]["file_id"].(string)

		// A user of the domain lists and uploads, deletes only its own files.
		carol := env.Env.Account(t, auth.DefaultDomain, "carol", false)
		if l := mfList(t, carol, "mtg-1"); len(l) != 10 {
			t.Fatalf("carol lists %d files", len(l))
		}
		testserver.MustFail(t, carol.Do("DELETE", mfPath+own, nil), wire.CodeNoPermission)
		mine := testserver.MustOK(t, mfUpload(t, env.Env, carol, "mtg-2", "file", "carol.txt", []byte("c")))["meeting_file"].(map[string]any)
		testserver.MustOK(t, carol.Do("DELETE", mfPath+mine["file_id"].(string), nil))

		// Another domain: its meetings only; no access to ours (12103,
		// 24018), and our file is untouched.
		bob := env.Env.Account(t, "other", "bob", true)
		mfConf(t, env.Env, mfDomain(t, env.Store, "other"), "1110600", "mtg-b")
		testserver.MustFail(t, bob.Do("GET", mfPath+"mtg-1", nil), wire.CodeConfNotFound)
		testserver.MustFail(t, mfUpload(t, env.Env, bob, "mtg-1", "file", "x.txt", []byte("x")), wire.CodeConfNotFound)
		testserver.MustFail(t, bob.Do("DELETE", mfPath+own, nil), mc.CodeFileNotFound)
		testserver.MustFail(t, c.Do("GET", mfPath+"mtg-b", nil), wire.CodeConfNotFound)
		testserver.MustOK(t, mfUpload(t, env.Env, bob, "mtg-b", "file", "b.txt", []byte("b")))
		if l := mfList(t, bob, "mtg-b"); len(l) != 1 || l[0]["creator_name"] != "bob" {
			t.Fatalf("bob's list = %s", vmrJSON(t, l))
		}
		if l := mfList(t, c, "mtg-2"); len(l) != 1 || l[0]["file_id"] != own {
			t.Fatalf("our list = %s", vmrJSON(t, l))
		}
	})
}

// A client's file name never becomes a path: whatever it holds, the
// content is stored inside FilesDir under a generated name, and the list
// shows only the name's last element.
func TestMeetingFileHostileNames(t *testing.T) {
	env := mfStart(t, testdb.SQLite(t))
	c := env.LoggedIn(t)
	mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")
	for name, shown := range map[string]string{
		"../../etc/passwd.txt":            "passwd.txt",
		`a/b\c.pdf`:                       "c.pdf",
		`..\..\..\windows\evil.png`:       "evil.png",
		"/abs/olute.doc":                  "olute.doc",
		"C:\\Users\\x\\report.docx":       "report.docx",
		`quo"te's.xls`:                    `quo"te's.xls`,
		"%2e%2e%2f%2e%2e%2fescaped.zip":   "%2e%2e%2f%2e%2e%2fescaped.zip",
		strings.Repeat("é", 200) + ".pdf": strings.Repeat("é", 125) + ".pdf",
	} {
		f := testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", name, []byte(name)))["meeting_file"].(map[string]any)
		if f["file_name"] != shown {
			t.Errorf("%q shown as %q, want %q", name, f["file_name"], shown)
		}
	}
	// Everything is inside FilesDir/<domain>/, under generated names, and
	// nothing was written beside FilesDir.
	disk := mfDisk(t, env.Dir)
	if len(disk) != 8 {
		t.Fatalf("files on disk: %v", disk)
	}
	for _, p := range disk {
		dom, name, _ := strings.Cut(p, "/")
		if dom != env.Domain || !mfStored.MatchString(name) {
			t.Errorf("stored as %s", p)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(env.Dir)); len(ents) != 1 {
		t.Errorf("beside FilesDir: %v", ents)
	}
	if l := mfList(t, c, "mtg-1"); len(l) != 8 {
		t.Fatalf("list has %d files", len(l))
	}
}
