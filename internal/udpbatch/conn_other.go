//go:build !linux

package udpbatch

import (
	"errors"
	"net"
	"net/netip"
)

// Supported says whether this system has batched I/O.
const Supported = false

var errUnsupported = errors.New("udpbatch: batched UDP I/O needs Linux")

// Conn is not available here: New and Listen fail, and the caller keeps
// its plain socket.
type Conn struct{ *net.UDPConn }

// New fails on this system.
func New(*net.UDPConn) (*Conn, error) { return nil, errUnsupported }

// Listen fails on this system.
func Listen(string, *net.UDPAddr) (*Conn, error) { return nil, errUnsupported }

// Stats is zero.
func (c *Conn) Stats() Stats { return Stats{} }

// SetIntercept does nothing here.
func (c *Conn) SetIntercept(Intercept) {}

// Hold does nothing here.
func (c *Conn) Hold() {}

// Release does nothing here.
func (c *Conn) Release() {}

// WriteToAddrPort is the socket's WriteToUDPAddrPort (one system call a
// datagram: a Conn is never made here, so this only completes the type).
func (c *Conn) WriteToAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return c.UDPConn.WriteToUDPAddrPort(b, to)
}

// TryWriteToAddrPort is WriteToAddrPort here.
func (c *Conn) TryWriteToAddrPort(b []byte, to netip.AddrPort) bool {
	_, err := c.UDPConn.WriteToUDPAddrPort(b, to)
	return err == nil
}
