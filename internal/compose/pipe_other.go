//go:build !linux

package compose

import "os"

// setPipeSize is Linux's; elsewhere pipes keep their size.
func setPipeSize(*os.File, int) {}

func pipeSize(*os.File) int { return 0 }

func vmsplice(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}
