//go:build !(linux || darwin || freebsd)

package sqlstore

import "errors"

// walIndex is not mapped on this system: the event counter is read by
// query (walstamp.go).
type walIndex struct{}

func mapWALIndex(string) (*walIndex, error) {
	return nil, errors.New("sqlstore: no wal-index mapping here")
}

func (w *walIndex) stamp() (walStamp, bool) { return walStamp{}, false }

func (w *walIndex) close() {}

func (w *walIndex) release() {}
