package recorder

import (
	"errors"
	"os"
	"sync"
	"syscall"
)

// file is the recording's file as the muxer writes it: it counts the
// bytes, refuses to grow past the quota and never hands a write error to
// the muxer (whose writer goroutine would stop and block the tracks'
// writers); the first error is kept for the recorder, later writes are
// dropped, and what was written before stays a playable file because the
// segment and clusters are written with unknown sizes.
type file struct {
	mu  sync.Mutex
	f   *os.File
	n   int64 // bytes in the file
	err error // the first write error
}

func createFile(path string) (*file, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return nil, err
	}
	return &file{f: f}, nil
}

func (w *file) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return len(p), nil
	}
	n, err := w.f.Write(p)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return len(p), nil
}

// WriteAt rewrites bytes already written (the cues and the duration at
// the end of a recording).
func (w *file) WriteAt(p []byte, off int64) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || off+int64(len(p)) > w.n {
		return len(p), nil
	}
	if _, err := w.f.WriteAt(p, off); err != nil {
		w.err = err
	}
	return len(p), nil
}

func (w *file) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.f.Sync()
	return errors.Join(err, w.f.Close())
}

// state returns the bytes written and the first write error.
func (w *file) state() (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n, w.err
}

// diskFull tells whether a write error means that the disk is full.
func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, ErrDiskFull)
}
