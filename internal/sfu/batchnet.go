package sfu

import (
	"net"
	"sync"
	"sync/atomic"

	ptransport "github.com/pion/transport/v5"

	"github.com/confer-platform/confer/internal/udpbatch"
)

// batchNet opens the ICE UDP port's sockets as batched connections
// (internal/udpbatch: recvmmsg and sendmmsg, issue 43); pion's UDP mux
// reads and writes them as it does a *net.UDPConn.
type batchNet struct {
	ptransport.Net
	mu    sync.Mutex
	conns []*udpbatch.Conn
	held  atomic.Pointer[[]*udpbatch.Conn] // conns, copied on write: read per packet by hold
	// checks answers connected sessions' ICE checks on the sockets'
	// reader (checks.go); nil with Config.NoFastChecks.
	checks *checkResponder
	// rtcp reads connected sessions' SRTCP on the sockets' reader
	// (fastrtcp.go); nil with Config.NoFastRTCP.
	rtcp *rtcpReader
}

// checker is n's checkResponder (nil on a nil batchNet).
func (n *batchNet) checker() *checkResponder {
	if n == nil {
		return nil
	}
	return n.checks
}

func (n *batchNet) ListenUDP(network string, laddr *net.UDPAddr) (ptransport.UDPConn, error) {
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	b, err := udpbatch.New(c)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	if f := n.intercept(b); f != nil {
		b.SetIntercept(f)
	}
	n.mu.Lock()
	n.conns = append(n.conns, b)
	all := append([]*udpbatch.Conn(nil), n.conns...)
	n.held.Store(&all)
	n.mu.Unlock()
	return b, nil
}

// rtcpReader is n's rtcpReader (nil on a nil batchNet).
func (n *batchNet) rtcpReader() *rtcpReader {
	if n == nil {
		return nil
	}
	return n.rtcp
}

// hold holds every socket for a packet's fan-out (udpbatch.Conn.Hold:
// the fan-out leaves in full sendmmsg batches); release ends it. Both do
// nothing on a nil batchNet (PlainUDP).
func (n *batchNet) hold() {
	if n == nil {
		return
	}
	if all := n.held.Load(); all != nil {
		for _, c := range *all {
			c.Hold()
		}
	}
}

func (n *batchNet) release() {
	if n == nil {
		return
	}
	if all := n.held.Load(); all != nil {
		for _, c := range *all {
			c.Release()
		}
	}
}

// sockets returns the port's sockets (nil on a nil batchNet).
func (n *batchNet) sockets() []*udpbatch.Conn {
	if n == nil {
		return nil
	}
	if all := n.held.Load(); all != nil {
		return *all
	}
	return nil
}

// stats adds up the sockets' counts (zero without batched I/O).
func (n *batchNet) stats() udpbatch.Stats {
	var sum udpbatch.Stats
	if n == nil {
		return sum
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.conns {
		st := c.Stats()
		sum.ReadCalls += st.ReadCalls
		sum.Read += st.Read
		sum.WriteCalls += st.WriteCalls
		sum.Wrote += st.Wrote
		sum.Dropped += st.Dropped
		sum.DroppedUnsent += st.DroppedUnsent
		sum.DropErrno = max(sum.DropErrno, st.DropErrno)
	}
	return sum
}
