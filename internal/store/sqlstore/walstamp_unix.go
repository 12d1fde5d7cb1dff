//go:build linux || darwin || freebsd

package sqlstore

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// walIndex is a read-only mapping of the wal-index header of a SQLite
// database in WAL mode (walstamp.go).
type walIndex struct {
	mu  sync.RWMutex // close waits for the stamps being read
	mem []byte       // nil once closed
	// f stays open until release, after SQLite's own connections are
	// closed: closing any descriptor of a file drops every POSIX lock
	// this process holds on it (fcntl(2)), SQLite's shared lock on the
	// "-shm" file included. Without that lock another process opening
	// the database (conferd account create on the live file) believes
	// itself alone, truncates the "-shm" file under this process's
	// mappings and its reads fail with "disk I/O error (8714)"
	// (SQLITE_IOERR_IN_PAGE) (issue 38 item 13).
	f *os.File
}

// mapWALIndex maps the header of path's "-shm" file; an error leaves the
// counter read by query. A walIndex, when not nil, holds the file open
// until release, error or not (see walIndex.f).
func mapWALIndex(path string) (*walIndex, error) {
	f, err := os.Open(path + "-shm")
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return &walIndex{f: f}, err // kept all the same (see f)
	}
	const size = 4 * walHeaderWords
	if fi.Size() < size {
		return &walIndex{f: f}, fmt.Errorf("sqlstore: %s-shm holds no wal-index header", path)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return &walIndex{f: f}, err
	}
	return &walIndex{mem: mem, f: f}, nil
}

// stamp copies the header, word by word with atomic loads (another
// process writes it; the mapping is page-aligned); false once closed.
func (w *walIndex) stamp() (walStamp, bool) {
	var s walStamp
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.mem == nil {
		return s, false
	}
	for i := range s {
		s[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
	return s, true
}

func (w *walIndex) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.mem != nil {
		syscall.Munmap(w.mem)
		w.mem = nil
	}
}

// release closes the descriptor once SQLite's connections to the file
// are closed (see f).
func (w *walIndex) release() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}
