package sip

import (
	"net"
	"testing"
)

// An audio-only call takes one RTP/RTCP socket pair, not three (issue 39
// item 7): the leg opens sockets for the offer's bridged m-lines only.
func TestAudioOnlyCallTakesOnePair(t *testing.T) {
	t.Parallel()
	m, err := parseSDP([]byte("v=0\no=x 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 4000 RTP/AVP 0\na=rtpmap:0 PCMU/8000\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Addr: "127.0.0.1:0"}
	cfg.defaults()
	l, err := newLeg(net.IPv4(127, 0, 0, 1), net.IPv4(127, 0, 0, 1), &cfg, linesOf(m), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if l.audio == nil || l.video != nil || l.content != nil {
		t.Fatalf("an audio-only call's sockets: audio %v video %v content %v", l.audio != nil, l.video != nil, l.content != nil)
	}
}
