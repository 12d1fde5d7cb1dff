// Package udpbatch reads and writes one UDP socket in batches (issue 43,
// docs/sfu-internals.md "Batched UDP I/O"): on Linux, a Conn receives with
// recvmmsg(2), up to ReadBatch datagrams a system call, and sends with
// sendmmsg(2) what every caller queued since the last call, up to
// WriteBatch datagrams a system call: from one writer goroutine, or from
// the goroutine of a fan-out under Hold (hold.go), which sends its own
// batches rather than hand them off.
//
// A Conn is a *net.UDPConn for everything else (buffers, deadlines,
// addresses), so it goes where pion's ICE UDP mux expects one (it
// implements ice.AddrPortReaderWriter: no allocation per packet). Writes
// are copied into the Conn's own buffers and answered at once: a write's
// error is the socket's only when the Conn is closed; a datagram the
// kernel refuses later (unreachable, buffer full) is counted in Stats and
// dropped, as a lost UDP datagram is. At most MaxQueued datagrams wait;
// a writer beyond that waits for room, as a blocking send would.
//
// UDP GSO (UDP_SEGMENT) is not used: it joins datagrams of one size to
// one destination, and a forwarder's batch goes to many destinations (one
// packet to each of 500 subscribers).
//
// Elsewhere than Linux, Listen returns the plain *net.UDPConn.
package udpbatch

import "net/netip"

// Sizes of the batches and the send queue.
const (
	ReadBatch  = 32
	WriteBatch = 64
	MaxQueued  = 2048
	// MaxDatagram is the largest datagram read (pion's receive MTU).
	MaxDatagram = 8192
	// bufferSize is a send buffer's: an Ethernet MTU's datagram (a larger
	// one gets a buffer of its own).
	bufferSize = 1500
)

// Stats counts a Conn's system calls and datagrams.
type Stats struct {
	ReadCalls, Read   uint64 // recvmmsg calls, datagrams received
	WriteCalls, Wrote uint64 // sendmmsg calls, datagrams sent
	Dropped           uint64 // datagrams the kernel refused
	// DropErrno is the error number of the last datagram the kernel
	// refused (0: none, or the socket closed or past a write deadline:
	// DroppedUnsent).
	DropErrno     uint64
	DroppedUnsent uint64 // datagrams dropped without a send: the socket closed, or a write deadline passed
	Intercepted   uint64 // datagrams the intercept took (SetIntercept)
}

// Intercept is offered a datagram b received from from before any reader
// sees it; it returns true when it took the datagram (the readers never
// see it). b is valid only during the call.
type Intercept func(b []byte, from netip.AddrPort) bool
