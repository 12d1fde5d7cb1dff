//go:build !linux && !darwin && !freebsd && !windows

package recorder

import "errors"

// DiskFree is unknown on this platform: only a failed write or the
// quota stops a recording (docs/recording.md "Disk").
func DiskFree(string) (int64, error) {
	return 0, errors.New("recorder: free disk space is not read on this platform")
}
