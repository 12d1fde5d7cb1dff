//go:build linux

package node

import "syscall"

// diskPercent is the used share of the file system holding path.
func diskPercent(path string) int {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil || st.Blocks == 0 {
		return -1
	}
	used := st.Blocks - st.Bfree
	avail := used + st.Bavail // what non-root users can reach, as df counts it
	if avail == 0 {
		return -1
	}
	return int((used*100 + avail - 1) / avail)
}
