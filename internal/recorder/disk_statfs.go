//go:build linux || darwin || freebsd

package recorder

import (
	"path/filepath"
	"syscall"
)

// DiskFree returns the bytes free for an unprivileged user on the file
// system that holds path's folder.
func DiskFree(path string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		return 0, err
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), nil //nolint:unconvert // the types differ by platform
}
