//go:build !linux

package compose

import (
	"errors"
	"image"
	"net"
	"os"
)

type iovec = struct{}

// setPipeSize is Linux's; elsewhere pipes keep their size.
func setPipeSize(*os.File, int) {}

func pipeSize(*os.File) int { return 0 }

func vmsplice(f *os.File, b []byte) error {
	_, err := f.Write(b)
	return err
}

// setLowat is Linux's; elsewhere a decoder's reader wakes per piece.
func setLowat(*net.TCPConn, int) {}

// waiting is Linux's: elsewhere pictures are read into buffers.
func (pr *pictureReader) waiting() int { return 0 }

func (pr *pictureReader) readRegion(*Frame, image.Rectangle) error { return errors.ErrUnsupported }
