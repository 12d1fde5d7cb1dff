package sip

import "bytes"

// Offers in a call (re-INVITE, UPDATE; RFC 3264 section 8): the terminal
// may put the call on hold (a=sendonly or inactive, c=0.0.0.0: Confer
// answers recvonly or inactive and stops sending), resume it, move its
// media to a new address (Confer sends there from then on), and change
// its content m-line (content.go). The codecs stay those of the call's
// first negotiation (no transcoding: a terminal that offers others gets
// the negotiated ones back). docs/sip-media.md "Re-INVITE".

// negotiated records the media negotiated with the terminal.
func (c *call) negotiated(m Media) {
	c.mu.Lock()
	c.media = m
	c.mu.Unlock()
}

// reoffer applies a new offer of the terminal's and returns Confer's
// answer; an offer that cannot be read gets the current description.
func (c *call) reoffer(body []byte) []byte {
	cur := c.localSDP()
	peer, err := parseSDP(body)
	if err != nil {
		return cur
	}
	peer.applySRTP(c.u.cfg.SRTP)
	c.mu.Lock()
	a := c.media
	c.mu.Unlock()
	a.lines, a.IP = peer.lines, peer.IP
	a.AudioPort, a.AudioDir = peer.AudioPort, peer.AudioDir
	a.VideoPort, a.VideoDir, a.VideoBitrate, a.VideoTMMBR = peer.VideoPort, peer.VideoDir, peer.VideoBitrate, peer.VideoTMMBR
	a.ContentPort, a.ContentDir = peer.ContentPort, peer.ContentDir
	a.AudioSec, a.VideoSec, a.ContentSec, a.savp = peer.AudioSec, peer.VideoSec, peer.ContentSec, peer.savp
	if peer.Audio == nil {
		a.Audio, a.DTMF = nil, nil
	}
	if peer.Video == nil {
		a.Video = nil
	}
	if peer.Content == nil {
		a.Content = nil
	}
	l := c.leg
	if a.Audio != nil {
		l.audio.setPeer(a.IP, a.AudioPort, a.Audio.PT)
	}
	if a.Video != nil {
		l.video.setPeer(a.IP, a.VideoPort, a.Video.PT)
	}
	l.setDirections(a)
	l.setCrypto(a) // a new key (RFC 4568 section 7.1.4), or the same
	c.contentOffer(peer)
	answer := answerSDP(l, a)
	if !bytes.Equal(answer, cur) { // a changed description has the next version (RFC 3264 section 8)
		l.sdpVer.Add(1)
		answer = answerSDP(l, a)
	}
	c.mu.Lock()
	c.media, c.local = a, answer
	c.mu.Unlock()
	c.capVideo() // a new b=TIAS or b=AS (bandwidth.go)
	return answer
}
