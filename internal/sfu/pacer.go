package sfu

import (
	"sync"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
)

// passPacer is the gcc.Pacer of subscriber connections: it sends at once
// (the SFU forwards at the publisher's pace) and, unlike gcc.NoOpPacer,
// also passes streams it was not told of: the NACK responder's
// retransmissions on the RTX SSRC (RFC 4588), which pion binds as no
// stream of their own.
type passPacer struct {
	mu      sync.RWMutex
	writers map[uint32]interceptor.RTPWriter
	last    interceptor.RTPWriter
}

func newPassPacer() *passPacer { return &passPacer{writers: map[uint32]interceptor.RTPWriter{}} }

// AddStream implements gcc.Pacer.
func (p *passPacer) AddStream(ssrc uint32, w interceptor.RTPWriter) {
	p.mu.Lock()
	p.writers[ssrc], p.last = w, w
	p.mu.Unlock()
}

// SetTargetBitrate implements gcc.Pacer; the estimate is used elsewhere.
func (p *passPacer) SetTargetBitrate(int) {}

// Write implements interceptor.RTPWriter. Every stream's writer ends at the
// connection's SRTP session, which encrypts any SSRC.
func (p *passPacer) Write(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
	p.mu.RLock()
	w, ok := p.writers[h.SSRC]
	if !ok {
		w = p.last
	}
	p.mu.RUnlock()
	if w == nil {
		return 0, nil
	}
	return w.Write(h, payload, a)
}

// Close implements gcc.Pacer.
func (p *passPacer) Close() error { return nil }
