package mc_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/testserver"
)

// The life of meeting files beyond one request: expiry, orphan sweep,
// restarts, concurrent uploads (helpers in files_test.go).

// Files are removed 7 days after the upload: list and delete ignore them
// at once, ExpireFiles removes record and content, and the meeting has
// room for new files.
func TestMeetingFileExpiry(t *testing.T) {
	env := mfStart(t, testdb.SQLite(t))
	c := env.LoggedIn(t)
	mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")
	for i := 1; i <= mc.FileMaxPerMeeting; i++ {
		testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", fmt.Sprintf("old%d.txt", i), []byte("x")))
	}
	first := mfList(t, c, "mtg-1")[0]["file_id"].(string)
	env.Clock.Advance(24 * time.Hour)
	c = env.LoggedIn(t) // the session has expired meanwhile
	testserver.MustFail(t, mfUpload(t, env.Env, c, "mtg-1", "file", "new.txt", []byte("x")), mc.CodeFileLimit)

	env.Advance(t, 6*24*time.Hour-time.Second) // just before the 7 days
	c = env.LoggedIn(t)
	ctx := context.Background()
	m := mfModule(env)
	if err := m.ExpireFiles(ctx); err != nil {
		t.Fatal(err)
	}
	if l := mfList(t, c, "mtg-1"); len(l) != mc.FileMaxPerMeeting {
		t.Fatalf("%d files listed before the 7 days", len(l))
	}

	env.Clock.Advance(time.Second) // 7 days: gone from the API before any sweep
	c = env.LoggedIn(t)
	if l := mfList(t, c, "mtg-1"); len(l) != 0 {
		t.Fatalf("expired files listed: %s", vmrJSON(t, l))
	}
	testserver.MustFail(t, c.Do("DELETE", mfPath+first, nil), mc.CodeFileNotFound)
	new := testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "new.txt", []byte("x")))["meeting_file"].(map[string]any)
	if len(mfDisk(t, env.Dir)) != mc.FileMaxPerMeeting+1 {
		t.Fatalf("disk before the sweep: %v", mfDisk(t, env.Dir))
	}
	if err := m.ExpireFiles(ctx); err != nil {
		t.Fatal(err)
	}
	disk := mfDisk(t, env.Dir)
	if len(disk) != 1 || !strings.HasSuffix(new["file_url"].(string), disk[0]) {
		t.Fatalf("disk after the sweep: %v", disk)
	}
	if _, err := env.Store.GetRecord(ctx, record.KindFile, env.Domain, first); err != store.ErrNotFound {
		t.Fatalf("expired record: %v", err)
	}
	if err := m.ExpireFiles(ctx); err != nil { // nothing left to do
		t.Fatal(err)
	}
	if l := mfList(t, c, "mtg-1"); len(l) != 1 || l[0]["file_name"] != "new.txt" {
		t.Fatalf("list = %s", vmrJSON(t, l))
	}
}

// Content without a record (a crash between writing and recording) is
// removed once it is an hour old; recorded files and fresh ones stay.
func TestSweepOrphanFiles(t *testing.T) {
	env := mfStart(t, testdb.SQLite(t))
	c := env.LoggedIn(t)
	mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")
	testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "kept.txt", []byte("k")))
	dir := filepath.Join(env.Dir, env.Domain)
	now := env.Clock.Now()
	for name, age := range map[string]time.Duration{"old-orphan": 2 * time.Hour, "new-orphan": time.Minute} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("o"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	if err := mfModule(env).SweepOrphanFiles(context.Background()); err != nil {
		t.Fatal(err)
	}
	disk := mfDisk(t, env.Dir)
	if len(disk) != 2 || !mfStored.MatchString(strings.TrimPrefix(disk[0], env.Domain+"/")) || disk[1] != env.Domain+"/new-orphan" {
		t.Fatalf("disk after the sweep: %v", disk)
	}
	if l := mfList(t, c, "mtg-1"); len(l) != 1 {
		t.Fatalf("list = %s", vmrJSON(t, l))
	}
}

// Files survive a restart: a new server on the same store and folder lists
// them and deletes them with their content.
func TestMeetingFilesRestart(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := mfStart(t, dsn)
		c := env.LoggedIn(t)
		mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")
		content := []byte("kept across restarts")
		f := testserver.MustOK(t, mfUpload(t, env.Env, c, "mtg-1", "file", "keep.pdf", content))["meeting_file"].(map[string]any)
		env.Store.Close()

		env2 := mfRestart(t, dsn, env)
		c2 := env2.LoggedIn(t)
		l := mfList(t, c2, "mtg-1")
		if len(l) != 1 || vmrJSON(t, l[0]) != vmrJSON(t, f) {
			t.Fatalf("after restart: %s, want %s", vmrJSON(t, l), vmrJSON(t, f))
		}
		stored := strings.TrimPrefix(f["file_url"].(string), "/file/")
		if b, err := os.ReadFile(filepath.Join(env.Dir, filepath.FromSlash(stored))); err != nil || !bytes.Equal(b, content) {
			t.Fatalf("content after restart: %q, %v", b, err)
		}
		testserver.MustOK(t, c2.Do("DELETE", mfPath+f["file_id"].(string), nil))
		if disk := mfDisk(t, env.Dir); len(disk) != 0 {
			t.Fatalf("disk after delete: %v", disk)
		}
	})
}

// mfRestart starts a second server on dsn and the folder of env, as a
// restarted conferd would be (testserver.Start would create the fixture
// administrator again).
func mfRestart(t *testing.T, dsn string, env *mfEnv) *mfEnv {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(server.Config{Store: st, SimulatedTerminals: true, Clock: env.Clock, Release: release.Latest, Auth: auth.DefaultConfig(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MC: mc.Config{FilesDir: env.Dir}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &mfEnv{Env: &testserver.Env{URL: hs.URL, Clock: env.Clock, Store: st, Srv: srv}, Dir: env.Dir, Domain: env.Domain}
}

// Uploads at once leave a meeting exactly 10 files: none refused below the
// limit (issue 20 item 4: the count is in the transaction of the write),
// none above it, and every refused upload leaves no content behind.
func TestMeetingFilesConcurrentLimit(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		env := mfStart(t, dsn)
		c := env.LoggedIn(t)
		mfConf(t, env.Env, env.Domain, "1110500", "mtg-1")
		const n = 16
		codes := make(chan int, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := mfUpload(t, env.Env, c, "mtg-1", "file", fmt.Sprintf("c%d.txt", i), []byte("x"))
				codes <- r.Code()
			}()
		}
		wg.Wait()
		close(codes)
		ok := 0
		for code := range codes {
			switch code {
			case -1:
				ok++
			case mc.CodeFileLimit:
			default:
				t.Errorf("concurrent upload answered %d", code)
			}
		}
		t.Logf("%d of %d concurrent uploads kept", ok, n)
		l := mfList(t, c, "mtg-1")
		if ok != mc.FileMaxPerMeeting || len(l) != ok || len(mfDisk(t, env.Dir)) != ok {
			t.Fatalf("%d uploads succeeded, %d listed, disk %v", ok, len(l), mfDisk(t, env.Dir))
		}
	})
}
