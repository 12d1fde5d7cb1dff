package push

import (
	"encoding/json"
	"time"
)

// The CometD acknowledgement extension (the JavaScript client's
// AckExtension, the Java server's AcknowledgedMessagesExtension): a client
// that sends ext {"ack": true} in its handshake gets ext {"ack": true}
// back, and from then on receives messages only with the replies to its
// /meta/connect, in batches: each such reply carries ext {"ack": n}, n
// the number of the last batch sent, and the client's next connect
// acknowledges with ext {"ack": n}. Messages of batches the client has
// not acknowledged are sent again with the reply to its next connect, so
// a client whose connection broke while a reply was on its way, and that
// connects again with its clientId (before it expires), loses nothing.

// sentMsg is a message sent in a batch that is not acknowledged yet.
type sentMsg struct {
	batch int64
	m     json.RawMessage
}

// ackRequested tells whether a handshake asks for acknowledgements.
func ackRequested(ext inExt) bool {
	v, _ := ext.Ack.(bool)
	return v
}

// acknowledge forgets the messages of the batches up to the one a
// connect's ext.ack names.
func (c *client) acknowledge(ext inExt) {
	n, ok := intOf(ext.Ack)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ack {
		return
	}
	kept := c.unacked[:0]
	for _, s := range c.unacked {
		if s.batch > int64(n) {
			kept = append(kept, s)
		}
	}
	clear(c.unacked[len(kept):])
	c.unacked = kept
}

// takeBatch takes what the reply to a connect carries: the queued
// messages, and for a client with acknowledgements first the messages
// still unacknowledged; the queued ones become a new batch. It returns
// the messages, the queue times of those sent for the first time, and
// the batch number the reply names (ok false without acknowledgements).
func (c *client) takeBatch() (msgs []json.RawMessage, fresh []time.Time, batch int64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	if c.ack {
		for _, s := range c.unacked {
			msgs = append(msgs, s.m)
		}
		if len(q) > 0 {
			c.batch++
		}
	}
	for _, e := range q {
		msgs = append(msgs, e.m)
		fresh = append(fresh, e.at)
		if c.ack {
			c.unacked = append(c.unacked, sentMsg{batch: c.batch, m: e.m})
		}
	}
	return msgs, fresh, c.batch, c.ack
}

// deliver builds the answer to a held connect: the messages it carries
// and its reply.
func (s *Server) deliver(h *held, transport string) ([]json.RawMessage, json.RawMessage) {
	msgs, fresh, _, _ := h.c.takeBatch()
	s.met.delivered(transport, len(msgs), fresh)
	return msgs, s.connectReply(h)
}

// sendNow takes the queued messages of a client without acknowledgements
// for a websocket to send at once (nil for a client with them, whose
// messages wait for its connect).
func (s *Server) sendNow(c *client) []json.RawMessage {
	c.mu.Lock()
	ack := c.ack
	c.mu.Unlock()
	if ack {
		return nil
	}
	q := c.take()
	msgs := make([]json.RawMessage, len(q))
	fresh := make([]time.Time, len(q))
	for i, e := range q {
		msgs[i], fresh[i] = e.m, e.at
	}
	s.met.delivered(typeWebSocket, len(msgs), fresh)
	return msgs
}
