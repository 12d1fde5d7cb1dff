//go:build unix

package recorder

import (
	"path/filepath"
	"syscall"
)

// DiskFree returns the bytes free for an unprivileged user on the file
// system that holds path (or its folder).
func DiskFree(path string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Dir(path), &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil //nolint:unconvert // field types differ by platform
}
