package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/testdb"
)

// helperShmLock names the SQLite file whose "-shm" lock TestMain's child
// process looks at.
const helperShmLock = "CONFER_SQLSTORE_SHM_LOCK"

// shmDMS is the byte of the "-shm" file that every process with the
// database open holds a shared lock on (SQLite's os_unix.c, UNIX_SHM_DMS:
// 120 + SQLITE_SHM_NLOCK). A process that can lock it exclusively believes
// itself alone and truncates the file.
const shmDMS = 128

// shmLocked exits 0 when another process holds a lock on the "-shm"
// file's DMS byte, 3 when nobody does.
func shmLocked(path string) int {
	f, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: shmDMS, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if lk.Type == syscall.F_UNLCK {
		return 3
	}
	return 0
}

// A node keeps SQLite's lock on the "-shm" file while it has the database
// open (issue 38 item 13: conferd account create on the live file made the
// server's reads fail with "disk I/O error (8714)"): the mapping of the
// wal-index header closed its descriptor, which dropped every lock of the
// process on the file, and the subcommand's process truncated it. Another
// process's writes are seen and the node's reads keep working.
func TestSharedMemoryLockHeld(t *testing.T) {
	path := testdb.SQLite(t)
	a := open(t, path)
	ctx := context.Background()
	if _, err := a.LastEventSeq(ctx); err != nil {
		t.Fatal(err)
	}
	locked := func(step string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), helperShmLock+"="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
				t.Fatalf("%s: no process holds the lock of the -shm file: another one opening the database truncates it under this one", step)
			}
			t.Fatalf("%s: child: %v: %s", step, err, out)
		}
	}
	locked("opened")
	for i := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), helperDB+"="+path, fmt.Sprintf("CONFER_SQLSTORE_WRITE_ID=s%d", i))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v: %s", err, out)
		}
		locked(fmt.Sprintf("after another process's write %d", i+1))
	}
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if err := a.CreateRecord(ctx, store.Record{Kind: "conf", ID: "mine", DomainMoid: "d1", State: "running",
		Data: []byte(`{}`), CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	if got := keysOf(t, a); len(got) != 4 {
		t.Fatalf("records %v, want 3 of the other process and 1 of this one", got)
	}
}
