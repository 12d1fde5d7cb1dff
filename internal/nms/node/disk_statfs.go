//go:build linux || darwin || freebsd

package node

import "syscall"

// diskPercent is the used share of the file system holding path.
func diskPercent(path string) int {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil || st.Blocks == 0 {
		return -1
	}
	blocks, bfree, bavail := uint64(st.Blocks), uint64(st.Bfree), uint64(st.Bavail) //nolint:unconvert // the types differ by platform
	used := blocks - bfree
	avail := used + bavail // what non-root users can reach, as df counts it
	if avail == 0 {
		return -1
	}
	return int((used*100 + avail - 1) / avail)
}
