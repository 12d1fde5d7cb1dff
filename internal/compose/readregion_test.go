//go:build linux

package compose

import (
	"image"
	"io"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkReadPicture: reading a 640×360 picture from a decoder's
// socket, into a buffer of its own (one read of the whole picture) and
// into its pane of a 1280×720 canvas (readv, a piece a row). Each op
// writes the picture into the socket and reads it back, in one
// goroutine, so the two differ by their reads only.
func BenchmarkReadPicture(b *testing.B) {
	for _, region := range []bool{false, true} {
		b.Run(map[bool]string{false: "into-buffer", true: "into-canvas"}[region], func(b *testing.B) {
			c, f, err := pictureConn()
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			defer f.Close()
			const w, h = 640, 360
			// Buffers that hold a whole picture, so that the write does
			// not wait for the read.
			_ = c.SetReadBuffer(4 << 20)
			if rc, err := f.SyscallConn(); err == nil {
				_ = rc.Control(func(fd uintptr) { _ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_SNDBUF, 4<<20) })
			}
			pr := &pictureReader{r: c}
			pr.rc, _ = c.SyscallConn()
			pic := make([]byte, w*h*3/2)
			buf := NewFrame(w, h)
			canvas := NewFrame(1280, 720)
			rect := image.Rect(640, 360, 1280, 720)
			b.SetBytes(int64(len(pic)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := f.Write(pic); err != nil {
					b.Fatal(err)
				}
				if region {
					err = pr.readRegion(canvas, rect)
				} else {
					_, err = io.ReadFull(c, buf.Bytes())
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
