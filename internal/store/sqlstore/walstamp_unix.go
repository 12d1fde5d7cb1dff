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
}

// mapWALIndex maps the header of path's "-shm" file; an error leaves the
// counter read by query.
func mapWALIndex(path string) (*walIndex, error) {
	f, err := os.Open(path + "-shm")
	if err != nil {
		return nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const size = 4 * walHeaderWords
	if fi.Size() < size {
		return nil, fmt.Errorf("sqlstore: %s-shm holds no wal-index header", path)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &walIndex{mem: mem}, nil
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
