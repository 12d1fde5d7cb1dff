//go:build linux

package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
)

// On Linux a SQLite store maps the wal-index header, and a commit changes
// it.
func TestWALIndexMapped(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "confer.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.shm == nil {
		t.Fatal("the wal-index header is not mapped")
	}
	before, _ := db.shm.stamp()
	if _, err := db.NextNumber(ctx, "x", 1, 100); err != nil {
		t.Fatal(err)
	}
	if after, _ := db.shm.stamp(); after == before {
		t.Fatal("a commit left the wal-index header as it was")
	}
}
