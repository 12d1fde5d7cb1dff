//go:build linux

package udpbatch

import (
	"net"
	"net/netip"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ReadFromAddrPort reads one datagram: the next of the last batch, or a
// new batch of up to ReadBatch. A datagram longer than b is truncated;
// one the intercept (SetIntercept) takes is skipped.
func (c *Conn) ReadFromAddrPort(b []byte) (int, netip.AddrPort, error) {
	r := &c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for r.next >= r.n {
			if err := c.fill(); err != nil {
				return 0, netip.AddrPort{}, err
			}
		}
		i := r.next
		r.next++
		d := r.slab[i*MaxDatagram : i*MaxDatagram+int(r.hdrs[i].Len)]
		from := sockaddrAddrPort(&r.names[i])
		if f := c.intercept.Load(); f != nil && (*f)(d, from) {
			c.intercepted.Add(1)
			continue
		}
		return copy(b, d), from, nil
	}
}

// fill reads a batch; caller holds r.mu.
func (c *Conn) fill() error {
	r := &c.r
	r.n, r.next, r.errno = 0, 0, 0
	if err := c.raw.Read(r.call); err != nil {
		return c.opError("read", err)
	}
	if r.errno != 0 {
		return c.opError("read", os.NewSyscallError("recvmmsg", r.errno))
	}
	c.readCalls.Add(1)
	c.read.Add(uint64(r.n))
	return nil
}

// recv is the reader's call of recvmmsg (r.call, bound once: a closure
// made per call would allocate).
func (r *reader) recv(fd uintptr) bool {
	for i := range r.hdrs {
		r.hdrs[i].Hdr.Namelen = unix.SizeofSockaddrInet6
		r.hdrs[i].Hdr.Flags = 0
		r.hdrs[i].Len = 0
	}
	for r.errno = unix.EINTR; r.errno == unix.EINTR; {
		r.n, r.errno = mmsg(unix.SYS_RECVMMSG, fd, r.hdrs[:])
	}
	return r.errno != unix.EAGAIN // nothing waiting: the poller waits
}

// ReadFrom implements net.PacketConn.
func (c *Conn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, a, err := c.ReadFromAddrPort(b)
	if err != nil {
		return 0, nil, err
	}
	return n, net.UDPAddrFromAddrPort(a), nil
}

// ReadFromUDP reads through the batch too (the socket's own would take
// datagrams from under it).
func (c *Conn) ReadFromUDP(b []byte) (int, *net.UDPAddr, error) {
	n, a, err := c.ReadFromAddrPort(b)
	if err != nil {
		return 0, nil, err
	}
	return n, net.UDPAddrFromAddrPort(a), nil
}

// ReadFromUDPAddrPort is ReadFromAddrPort.
func (c *Conn) ReadFromUDPAddrPort(b []byte) (int, netip.AddrPort, error) {
	return c.ReadFromAddrPort(b)
}

// mmsg calls recvmmsg or sendmmsg on hdrs without blocking (the socket
// is non-blocking: the runtime's poller waits).
func mmsg(trap uintptr, fd uintptr, hdrs []unix.Mmsghdr) (int, unix.Errno) {
	n, _, e := unix.Syscall6(trap, fd, uintptr(unsafe.Pointer(&hdrs[0])), uintptr(len(hdrs)), unix.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), 0
}

// sendmmsgRaw is sendmmsg on hdrs without blocking and without telling
// the scheduler (unix.RawSyscall6: no entersyscall, issue 43). The call
// never waits (MSG_DONTWAIT: a full socket buffer gives EAGAIN), but on
// loopback the kernel carries every datagram into its receiver's socket
// within it, some 5 to 10 microseconds a datagram, so a batch of 64 is
// several hundred: long enough that the runtime's monitor took the
// caller's P away in the middle of every batch (a syscall over 20 us),
// woke another thread to run it, and the sender had to get a P back
// after (a futex wake, a context switch and a scheduler round a batch,
// with three threads on two cores). Keeping the P for the call is right
// for a call that is CPU work, not a wait; it delays a stop-the-world at
// most one batch's time.
func sendmmsgRaw(fd uintptr, hdrs []unix.Mmsghdr) (int, unix.Errno) {
	n, _, e := unix.RawSyscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&hdrs[0])), uintptr(len(hdrs)), unix.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), 0
}

// sockaddrAddrPort decodes a sockaddr_in or sockaddr_in6 without
// allocating.
func sockaddrAddrPort(sa *unix.RawSockaddrInet6) netip.AddrPort {
	switch sa.Family {
	case unix.AF_INET:
		s4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(s4.Addr), port(&s4.Port))
	case unix.AF_INET6:
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr), port(&sa.Port))
	}
	return netip.AddrPort{}
}

// port reads a sockaddr's port, in network byte order.
func port(p *uint16) uint16 {
	b := (*[2]byte)(unsafe.Pointer(p))
	return uint16(b[0])<<8 | uint16(b[1])
}

func setPort(p *uint16, v uint16) {
	b := (*[2]byte)(unsafe.Pointer(p))
	b[0], b[1] = byte(v>>8), byte(v)
}
