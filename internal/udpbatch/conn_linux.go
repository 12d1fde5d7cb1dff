//go:build linux

package udpbatch

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Supported says whether this system has batched I/O.
const Supported = true

// Conn is a UDP socket read and written in batches (see the package
// comment). It is safe for concurrent use; reads are served in the order
// the kernel delivered them.
type Conn struct {
	*net.UDPConn
	raw    syscall.RawConn
	family uint16 // AF_INET or AF_INET6: the socket's own

	r reader
	w writer

	closed    atomic.Bool
	intercept atomic.Pointer[Intercept] // SetIntercept's
	holds     atomic.Int32              // Hold calls not yet Released: the writer waits (hold.go)
	quit      chan struct{}
	done      chan struct{}

	readCalls, read, writeCalls, wrote, dropped, intercepted atomic.Uint64
	dropErrno, droppedUnsent                                 atomic.Uint64
}

// reader holds the last recvmmsg's datagrams until they are read.
type reader struct {
	mu    sync.Mutex
	slab  []byte
	iov   [ReadBatch]unix.Iovec
	names [ReadBatch]unix.RawSockaddrInet6 // room for either family
	hdrs  [ReadBatch]unix.Mmsghdr
	n     int // datagrams in hdrs
	next  int // the next to hand out
	errno unix.Errno
	call  func(fd uintptr) bool // recv
}

// writer queues datagrams for the writer goroutine.
type writer struct {
	mu           sync.Mutex
	room         *sync.Cond // signalled when the queue is taken
	queue, spare []packet
	free         [][]byte // buffers of sent datagrams
	awake        bool     // the writer goroutine has work or was kicked
	kick         chan struct{}

	// the writer goroutine's own
	iov         [WriteBatch]unix.Iovec
	names       [WriteBatch]unix.RawSockaddrInet6
	hdrs        [WriteBatch]unix.Mmsghdr
	from, to, n int // the sendmmsg in progress: hdrs[from:to], n sent
	errno       unix.Errno
	call        func(fd uintptr) bool // xmit
}

type packet struct {
	buf []byte
	to  netip.AddrPort
}

// New takes over c: from now on it is read and written through the Conn
// (closing the Conn closes c).
func New(c *net.UDPConn) (*Conn, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	var family uint16
	var serr error
	if err := raw.Control(func(fd uintptr) {
		var sa unix.Sockaddr
		if sa, serr = unix.Getsockname(int(fd)); serr == nil {
			switch sa.(type) {
			case *unix.SockaddrInet4:
				family = unix.AF_INET
			case *unix.SockaddrInet6:
				family = unix.AF_INET6
			}
		}
	}); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	if family == 0 {
		return nil, errors.New("udpbatch: not an IP socket")
	}
	b := &Conn{UDPConn: c, raw: raw, family: family, quit: make(chan struct{}), done: make(chan struct{})}
	b.r.slab = make([]byte, ReadBatch*MaxDatagram)
	for i := range b.r.hdrs {
		b.r.iov[i].Base = &b.r.slab[i*MaxDatagram]
		b.r.iov[i].SetLen(MaxDatagram)
		b.r.hdrs[i].Hdr.Iov = &b.r.iov[i]
		b.r.hdrs[i].Hdr.SetIovlen(1)
		b.r.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&b.r.names[i]))
	}
	for i := range b.w.hdrs {
		b.w.hdrs[i].Hdr.Iov = &b.w.iov[i]
		b.w.hdrs[i].Hdr.SetIovlen(1)
		b.w.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&b.w.names[i]))
	}
	b.r.call, b.w.call = b.r.recv, b.w.xmit
	b.w.room = sync.NewCond(&b.w.mu)
	b.w.kick = make(chan struct{}, 1)
	go b.writeLoop()
	return b, nil
}

// Listen opens a UDP socket on laddr read and written in batches.
func Listen(network string, laddr *net.UDPAddr) (*Conn, error) {
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	b, err := New(c)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return b, nil
}

// SetIntercept has f offered every datagram received from now on, before
// any reader sees it (nil: none). f runs on the reading goroutine, one
// datagram at a time, and must not read from the Conn; it may write.
func (c *Conn) SetIntercept(f Intercept) {
	if f == nil {
		c.intercept.Store(nil)
		return
	}
	c.intercept.Store(&f)
}

// Stats returns the Conn's counts so far.
func (c *Conn) Stats() Stats {
	return Stats{ReadCalls: c.readCalls.Load(), Read: c.read.Load(),
		WriteCalls: c.writeCalls.Load(), Wrote: c.wrote.Load(), Dropped: c.dropped.Load(),
		Intercepted: c.intercepted.Load(), DropErrno: c.dropErrno.Load(), DroppedUnsent: c.droppedUnsent.Load()}
}

// Close closes the socket and stops the writer goroutine; datagrams still
// queued are dropped.
func (c *Conn) Close() error {
	if c.closed.Swap(true) {
		return c.UDPConn.Close() // the socket's own "already closed"
	}
	close(c.quit)
	err := c.UDPConn.Close()
	c.w.mu.Lock()
	c.w.room.Broadcast()
	c.w.mu.Unlock()
	<-c.done
	return err
}

func (c *Conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "udp", Source: c.LocalAddr(), Err: err}
}
