package sip_test

import (
	"net"
	"regexp"
	"strconv"
	"testing"

	"github.com/confer-platform/confer/internal/sip"
)

// A call's RTP sockets listen where the SIP user agent does when that is
// a loopback address (a node kept to this machine, issue 41), and on every
// interface behind a 1:1 NAT (--sip-public-ip, whose address is no local
// one); the answer's SDP names the address callers send to
// (docs/sip.md "Configuration"). Whether a socket is bound to one address
// or to all shows in whether another loopback address (127.0.0.2) can
// take the same port.
func TestRTPBoundToTheListenAddress(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, addr, public, sdpIP string
		wildcard                  bool
	}{
		{"loopback --sip-addr", "127.0.0.1:0", "", "127.0.0.1", false},
		{"--sip-public-ip", ":0", "203.0.113.5", "203.0.113.5", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := startEnv(t, sip.Config{Addr: c.addr, PublicIP: c.public})
			conf := e.conf(t, nil)
			_, port, _ := net.SplitHostPort(e.addr())
			res := newPeer(t, "127.0.0.1:"+port).call(conf, "")
			if res.code() != 200 {
				t.Fatalf("call: %s", res.first)
			}
			m := regexp.MustCompile(`c=IN IP4 (\S+)[\s\S]*m=audio (\d+) `).FindStringSubmatch(res.body)
			if m == nil {
				t.Fatalf("answer without an audio line: %q", res.body)
			}
			if m[1] != c.sdpIP {
				t.Errorf("the answer's address is %s, want %s", m[1], c.sdpIP)
			}
			rtp, _ := strconv.Atoi(m[2])
			other, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 2), Port: rtp})
			if err == nil {
				other.Close()
			}
			if bound := err != nil; bound != c.wildcard {
				t.Errorf("RTP port %d on 127.0.0.2 taken = %v (%v), want %v (bound to every interface)", rtp, bound, err, c.wildcard)
			}
		})
	}
}
