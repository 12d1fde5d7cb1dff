package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// helperDB names the SQLite file that TestMain's child process writes to
// (walstamp.go: another process's commit must reach this one's kept
// counter and pages without any write of its own).
const helperDB = "CONFER_SQLSTORE_WRITE_DB"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperDB); path != "" {
		os.Exit(writeOnce(path, os.Getenv("CONFER_SQLSTORE_WRITE_ID")))
	}
	if path := os.Getenv(helperShmLock); path != "" {
		os.Exit(shmLocked(path)) // walstamp_lock_*_test.go
	}
	os.Exit(m.Run())
}

// writeOnce creates a running conference in another process.
func writeOnce(path, id string) int {
	db, err := openStore(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := db.CreateRecord(context.Background(), store.Record{Kind: "conf", ID: id, DomainMoid: "d1", State: "running",
		Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// A conference created by another process is in the next listing and page
// of a node that kept them (SQLite: the kept event counter is checked
// against the wal-index header that every commit rewrites), and writes of
// this process are too.
func TestKeptCountSeesOtherProcess(t *testing.T) {
	path := testdb.SQLite(t)
	a := open(t, path)
	ctx := context.Background()
	child := func(id string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), helperDB+"="+path, "CONFER_SQLSTORE_WRITE_ID="+id)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v: %s", err, out)
		}
	}
	want := func(step string, w ...string) {
		t.Helper()
		for i := 0; i < 3; i++ { // read, then kept
			if got := keysOf(t, a); !slices.Equal(got, w) {
				t.Fatalf("%s, listing %d: %v, want %v", step, i+1, got, w)
			}
			if got := pagesOf(t, a); !slices.Equal(got, w) {
				t.Fatalf("%s, pages %d: %v, want %v", step, i+1, got, w)
			}
		}
	}
	want("empty")
	child("c1")
	want("created by another process", "d1/c1@0")
	child("c2")
	want("another one", "d1/c1@0", "d1/c2@0")
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := a.CreateRecord(ctx, store.Record{Kind: "conf", ID: "c3", DomainMoid: "d1", State: "running",
		Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	want("created here", "d1/c1@0", "d1/c2@0", "d1/c3@0")
	child("c4")
	want("and by the other process again", "d1/c1@0", "d1/c2@0", "d1/c3@0", "d1/c4@0")
}

func openStore(path string) (interface {
	CreateRecord(context.Context, store.Record) error
	Close() error
}, error) {
	return sqlstore.Open(context.Background(), path)
}
