package compose

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

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
