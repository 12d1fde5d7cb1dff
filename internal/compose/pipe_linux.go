package compose

import (
	"image"
	"io"
	"net"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// iovec is one piece of a vectored read.
type iovec = unix.Iovec

// setPipeSize asks the kernel for a pipe of n bytes (F_SETPIPE_SZ); a
// refusal (over the user's pipe pages) leaves the default size.
func setPipeSize(f *os.File, n int) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, n) })
}

// pipeSize is the size of the pipe f (F_GETPIPE_SZ), 0 unknown.
func pipeSize(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) { n, _ = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) })
	return n
}

// vmsplice gives the pipe f the pages of b instead of copying them: b
// must not change until the reader has read it.
func vmsplice(f *os.File, b []byte) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for len(b) > 0 {
			iov := []unix.Iovec{{Base: &b[0]}}
			iov[0].SetLen(len(b))
			n, err := unix.Vmsplice(int(fd), iov, 0)
			if err == unix.EAGAIN {
				return false // wait until the pipe has room
			}
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				werr = err
				return true
			}
			b = b[n:]
		}
		return true
	})
	if err != nil {
		return err
	}
	return werr
}

// setLowat sets the receive low-water mark of the connection c
// (SO_RCVLOWAT): the poller reports it readable once n bytes wait.
// Linux raises the socket's receive buffer to hold them (the buffer is
// not locked by SO_RCVBUF here). A refusal leaves a wake-up per piece.
func setLowat(c *net.TCPConn, n int) {
	rc, err := c.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { _ = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVLOWAT, n) })
}

// waiting is how many bytes can be read from the decoder's output
// without waiting (FIONREAD), 0 unknown.
func (pr *pictureReader) waiting() int {
	if pr.rc == nil {
		return 0
	}
	n := 0
	_ = pr.rc.Control(func(fd uintptr) { n, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }) // FIONREAD
	return n
}

// readRegion reads a picture of r's size into r of f, each row where it
// belongs (readv, at most IOV_MAX rows a call).
func (pr *pictureReader) readRegion(f *Frame, r image.Rectangle) error {
	w, h := r.Dx(), r.Dy()
	iov := pr.iov[:0]
	add := func(b []byte) {
		v := unix.Iovec{Base: &b[0]}
		v.SetLen(len(b))
		iov = append(iov, v)
	}
	for y := 0; y < h; y++ {
		add(f.Y[(r.Min.Y+y)*f.W+r.Min.X:][:w])
	}
	cw := f.W / 2
	for _, p := range [][]byte{f.U, f.V} {
		for y := 0; y < h/2; y++ {
			add(p[(r.Min.Y/2+y)*cw+r.Min.X/2:][:w/2])
		}
	}
	pr.iov = iov
	for len(iov) > 0 {
		var n int
		var rerr error
		err := pr.rc.Read(func(fd uintptr) bool {
			k := min(len(iov), 1024)
			r, _, e := unix.Syscall(unix.SYS_READV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(k))
			if e == unix.EAGAIN {
				return false
			}
			if e == unix.EINTR {
				return false
			}
			if e != 0 {
				rerr = e
			}
			n = int(r)
			return true
		})
		if err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrUnexpectedEOF
		}
		for n > 0 && len(iov) > 0 {
			if l := int(iov[0].Len); n >= l {
				n -= l
				iov = iov[1:]
			} else {
				iov[0].Base = (*byte)(unsafe.Add(unsafe.Pointer(iov[0].Base), n))
				iov[0].SetLen(l - n)
				n = 0
			}
		}
	}
	runtime.KeepAlive(f)
	return nil
}
