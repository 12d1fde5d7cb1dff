//go:build !linux

package compose

import (
	"net"
	"os"
)

// setPipeSize is Linux's; elsewhere pipes keep their size.
func setPipeSize(*os.File, int) {}

func pipeSize(*os.File) int { return 0 }

func vmsplice(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// setLowat is Linux's; elsewhere a decoder's reader wakes per piece.
func setLowat(*net.TCPConn, int) {}
