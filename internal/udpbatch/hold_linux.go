//go:build linux

package udpbatch

// Hold tells the Conn that the caller is about to queue several datagrams
// (a packet's fan-out to its subscribers, issue 43 "Fan-out by batch"):
// until the matching Release, the writer goroutine is woken only when a
// full batch (WriteBatch) is queued, so that the fan-out leaves in as few
// sendmmsg calls as possible instead of one call for the first datagram
// and another for the rest. Holds nest and may come from many goroutines;
// the writer sends once none is held. A Hold must be Released promptly:
// nothing queued meanwhile leaves before it (bounded by WriteBatch).
func (c *Conn) Hold() { c.holds.Add(1) }

// Release ends a Hold; the last one wakes the writer for what was queued.
func (c *Conn) Release() {
	if c.holds.Add(-1) != 0 {
		return
	}
	w := &c.w
	w.mu.Lock()
	wake := !w.awake && len(w.queue) > 0
	if wake {
		w.awake = true
	}
	w.mu.Unlock()
	if wake {
		w.wake()
	}
}
