//go:build linux

package udpbatch

// Hold tells the Conn that the caller is about to queue several datagrams
// (a packet's fan-out to its subscribers, issue 43 "Fan-out by batch"):
// until the matching Release, nothing is sent until a full batch
// (WriteBatch) is queued, so that the fan-out leaves in as few sendmmsg
// calls as possible instead of one call for the first datagram and
// another for the rest. The fan-out's goroutine sends those batches
// itself (the write that fills one, the last Release), without waking
// the writer goroutine. Holds nest and may come from many goroutines;
// the writer sends once none is held. A Hold must be Released promptly:
// nothing queued meanwhile leaves before it (bounded by WriteBatch).
func (c *Conn) Hold() { c.holds.Add(1) }

// Release ends a Hold; the last one sends what was queued, on the
// caller's goroutine unless a send is under way (which then sends it).
func (c *Conn) Release() {
	if c.holds.Add(-1) != 0 {
		return
	}
	w := &c.w
	w.mu.Lock()
	send := !w.awake && len(w.queue) > 0
	if send {
		w.awake = true
	}
	w.mu.Unlock()
	if send {
		c.drain()
	}
}
