package sip

import "sync/atomic"

// counters are the user agent's figures since New.
type counters struct {
	rtpIn, rtpOut     atomic.Uint64
	dialled, answered atomic.Uint64 // calls placed, and answered by the terminal
	callsIn, joined   atomic.Uint64 // INVITEs to a conference, and callers who joined
	dropped, refused  atomic.Uint64 // datagrams over an address's rate, connections over its limit (limits.go)
}

// Stats are the user agent's figures, for metrics and tests.
type Stats struct {
	Calls       int    // calls in progress, in and out
	RTPReceived uint64 // RTP packets received from terminals
	RTPSent     uint64 // RTP packets sent to terminals
	Dialled     uint64 // calls placed
	Answered    uint64 // placed calls the terminal answered
	CallsIn     uint64 // INVITEs to a conference number
	Joined      uint64 // callers that joined a conference
	Dropped     uint64 // datagrams dropped over their address's rate
	Refused     uint64 // TCP/TLS connections closed over their address's limit
}

// Stats returns the user agent's figures.
func (u *UA) Stats() Stats {
	return Stats{Calls: len(u.slots), RTPReceived: u.stats.rtpIn.Load(), RTPSent: u.stats.rtpOut.Load(), Dialled: u.stats.dialled.Load(),
		Answered: u.stats.answered.Load(), CallsIn: u.stats.callsIn.Load(), Joined: u.stats.joined.Load(),
		Dropped: u.stats.dropped.Load(), Refused: u.stats.refused.Load()}
}
