package node

import "golang.org/x/sys/windows"

// diskPercent is the used share of the volume holding path.
func diskPercent(path string) int {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return -1
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil || total == 0 {
		return -1
	}
	used := total - free
	return int((used*100 + (used + avail) - 1) / (used + avail))
}
