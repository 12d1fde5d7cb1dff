//go:build linux

package udpbatch

import (
	"errors"
	"net"
	"net/netip"
	"unsafe"

	"golang.org/x/sys/unix"
)

var errAddr = errors.New("udpbatch: not a UDP address of the socket's family")

// WriteToAddrPort queues b for to and returns: the writer goroutine sends
// it with the others queued meanwhile (see the package comment). Under a
// Hold, the write that completes a batch sends it itself (hold.go).
func (c *Conn) WriteToAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return c.write(b, to, true)
}

// TryWriteToAddrPort queues b for to if the queue has room, and never
// waits nor sends on the caller's goroutine: the writer goroutine sends
// it (or the fan-out holding the Conn). It reports whether b was queued.
// It is for a reader answering on its own goroutine (SetIntercept), which
// must not stall what it reads.
func (c *Conn) TryWriteToAddrPort(b []byte, to netip.AddrPort) bool {
	_, err := c.write(b, to, false)
	return err == nil
}

var errFull = errors.New("udpbatch: send queue full")

// write is WriteToAddrPort (wait) or TryWriteToAddrPort.
func (c *Conn) write(b []byte, to netip.AddrPort, wait bool) (int, error) {
	if c.family == unix.AF_INET {
		if to = netip.AddrPortFrom(to.Addr().Unmap(), to.Port()); !to.Addr().Is4() {
			return 0, c.opError("write", errAddr)
		}
	}
	if len(b) > MaxDatagram*8 {
		return 0, c.opError("write", unix.EMSGSIZE)
	}
	w := &c.w
	w.mu.Lock()
	if !wait && len(w.queue) >= MaxQueued {
		w.mu.Unlock()
		return 0, errFull
	}
	for len(w.queue) >= MaxQueued && !c.closed.Load() {
		w.room.Wait()
	}
	if c.closed.Load() {
		w.mu.Unlock()
		return 0, c.opError("write", net.ErrClosed)
	}
	w.queue = append(w.queue, packet{buf: append(w.buffer(len(b)), b...), to: to})
	// While a fan-out holds the Conn, nothing is sent until a full batch
	// is queued; Release sends the rest (hold.go).
	held := c.holds.Load() > 0
	send := !w.awake && (!held || len(w.queue) >= WriteBatch)
	if send {
		w.awake = true
	}
	w.mu.Unlock()
	switch {
	case send && held && wait:
		c.drain() // the fan-out's own goroutine: no hand-off
	case send:
		w.wake()
	}
	return len(b), nil
}

// wake kicks the writer goroutine; the caller set w.awake.
func (w *writer) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// slabBuffers is how many send buffers are allocated at once: the queue
// grows to its deepest in a few allocations, and then takes none.
const slabBuffers = 64

// buffer returns an empty send buffer of at least n bytes; caller holds
// w.mu.
func (w *writer) buffer(n int) []byte {
	if k := len(w.free); k > 0 && cap(w.free[k-1]) >= n {
		b := w.free[k-1][:0]
		w.free = w.free[:k-1]
		return b
	}
	if n > bufferSize {
		return make([]byte, 0, n)
	}
	slab := make([]byte, slabBuffers*bufferSize)
	for i := 1; i < slabBuffers; i++ {
		w.free = append(w.free, slab[i*bufferSize:i*bufferSize:(i+1)*bufferSize])
	}
	return slab[:0:bufferSize]
}

// WriteTo implements net.PacketConn.
func (c *Conn) WriteTo(b []byte, addr net.Addr) (int, error) {
	ua, ok := addr.(*net.UDPAddr)
	if !ok {
		return 0, c.opError("write", errAddr)
	}
	return c.WriteToAddrPort(b, ua.AddrPort())
}

// WriteToUDP queues through the batch too.
func (c *Conn) WriteToUDP(b []byte, addr *net.UDPAddr) (int, error) {
	return c.WriteToAddrPort(b, addr.AddrPort())
}

// WriteToUDPAddrPort is WriteToAddrPort.
func (c *Conn) WriteToUDPAddrPort(b []byte, to netip.AddrPort) (int, error) {
	return c.WriteToAddrPort(b, to)
}

// writeLoop sends what is queued, batch after batch, until Close: the
// writes of no fan-out (ICE, RTCP, a packet with one subscriber).
func (c *Conn) writeLoop() {
	defer close(c.done)
	for {
		select {
		case <-c.w.kick:
		case <-c.quit:
			return
		}
		c.drain()
	}
}

// drain sends what is queued, batch after batch, until nothing is left
// (or, under a Hold, less than a full batch). Its caller set w.awake,
// which makes it the Conn's one sender until drain clears it: the writer
// goroutine, or a fan-out that filled a batch or released the last Hold,
// which sends on its own goroutine rather than wake the writer's (a
// goroutine hand-off a fan-out, issue 43).
func (c *Conn) drain() {
	w := &c.w
	for {
		w.mu.Lock()
		// Nothing queued, or less than a batch while a fan-out holds
		// the Conn: the next write or Release sends.
		if len(w.queue) == 0 || c.closed.Load() || (c.holds.Load() > 0 && len(w.queue) < WriteBatch) {
			w.awake = false
			w.mu.Unlock()
			return
		}
		batch := w.queue
		w.queue = w.spare[:0]
		if c.holds.Load() > 0 {
			// Only full batches while held: the rest waits for more
			// or for Release.
			full := len(batch) - len(batch)%WriteBatch
			w.queue = append(w.queue, batch[full:]...)
			batch = batch[:full]
		}
		w.room.Broadcast()
		w.mu.Unlock()
		c.send(batch)
		w.mu.Lock()
		for i := range batch {
			if len(w.free) < 2*MaxQueued {
				w.free = append(w.free, batch[i].buf)
			}
			batch[i] = packet{}
		}
		w.spare = batch[:0]
		w.mu.Unlock()
	}
}

// send writes batch with as few sendmmsg calls as the kernel takes; a
// datagram it refuses is dropped and counted.
func (c *Conn) send(batch []packet) {
	w := &c.w
	for len(batch) > 0 {
		k := min(len(batch), WriteBatch)
		for i := range k {
			p := &batch[i]
			w.iov[i].Base = &p.buf[0]
			w.iov[i].SetLen(len(p.buf))
			w.hdrs[i].Hdr.Namelen = c.encode(&w.names[i], p.to)
			w.hdrs[i].Len = 0
		}
		for w.from, w.to = 0, k; w.from < k; {
			w.n, w.errno = 0, 0
			err := c.raw.Write(w.call)
			switch {
			case err != nil: // closed, or a write deadline
				c.dropped.Add(uint64(k - w.from))
				c.droppedUnsent.Add(uint64(k - w.from))
				w.from = k
			case w.errno != 0: // the first datagram was refused
				c.dropped.Add(1)
				c.dropErrno.Store(uint64(w.errno))
				w.from++
			default:
				c.writeCalls.Add(1)
				c.wrote.Add(uint64(w.n))
				w.from += w.n
			}
		}
		batch = batch[k:]
	}
}

// xmit is the writer's call of sendmmsg (w.call, bound once).
func (w *writer) xmit(fd uintptr) bool {
	for w.errno = unix.EINTR; w.errno == unix.EINTR; {
		w.n, w.errno = sendmmsgRaw(fd, w.hdrs[w.from:w.to])
	}
	return w.errno != unix.EAGAIN // the socket's buffer is full: the poller waits
}

// encode writes to into sa in the socket's family and returns its length.
func (c *Conn) encode(sa *unix.RawSockaddrInet6, to netip.AddrPort) uint32 {
	if c.family == unix.AF_INET {
		s4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		*s4 = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: to.Addr().As4()}
		setPort(&s4.Port, to.Port())
		return unix.SizeofSockaddrInet4
	}
	*sa = unix.RawSockaddrInet6{Family: unix.AF_INET6, Addr: to.Addr().As16()}
	setPort(&sa.Port, to.Port())
	return unix.SizeofSockaddrInet6
}
