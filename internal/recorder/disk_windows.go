package recorder

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

// DiskFree returns the bytes free for the caller on the volume that holds
// path's folder.
func DiskFree(path string) (int64, error) {
	p, err := windows.UTF16PtrFromString(filepath.Dir(path))
	if err != nil {
		return 0, err
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, err
	}
	return int64(avail), nil
}
