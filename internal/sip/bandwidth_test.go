package sip

import (
	"testing"
)

// b=TIAS comes before b=AS, the m-line's before the session's (RFC 3890
// section 6.2.2; docs/sip-media.md "Bandwidth").
func TestVideoBandwidthFromSDP(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, session, video string
		want                 int
	}{
		{"none", "", "", 0},
		{"m-line TIAS", "b=AS:6000\n", "b=TIAS:768000\nb=AS:800\n", 768000},
		{"m-line AS", "", "b=AS:512\n", 512000},
		{"session AS", "b=AS:2000\n", "", 2000000},
	} {
		body := "v=0\no=x 1 1 IN IP4 127.0.0.1\ns=-\nc=IN IP4 127.0.0.1\n" + c.session + "t=0 0\n" +
			"m=audio 4000 RTP/AVP 0\na=rtpmap:0 PCMU/8000\n" +
			"m=video 4002 RTP/AVP 97\n" + c.video + "a=rtpmap:97 H264/90000\na=fmtp:97 profile-level-id=42e01f;packetization-mode=1\n"
		m, err := parseSDP([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.VideoBitrate != c.want {
			t.Errorf("%s: VideoBitrate %d, want %d", c.name, m.VideoBitrate, c.want)
		}
	}
}

// A TMMBR's requests are read (RFC 5104 section 4.2.1.1: exponent,
// mantissa, overhead) and the TMMBN that answers one repeats it.
func TestTMMBR(t *testing.T) {
	t.Parallel()
	// 500 kb/s: mantissa 125000, exponent 2; overhead 40.
	v := uint32(2)<<26 | uint32(125000)<<9 | 40
	pkt := []byte{0x80 | 3, 205, 0, 4, 0, 0, 0x0a, 0x0b, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b,
		byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}
	// A receiver report first, as in a compound packet.
	rr := []byte{0x80, 201, 0, 1, 0, 0, 0x0a, 0x0b}
	rs := tmmbrs(append(rr, pkt...))
	if len(rs) != 1 || rs[0].bps != 500000 || rs[0].overhead != 40 || rs[0].ssrc != 0x0a0b {
		t.Fatalf("TMMBR read as %+v", rs)
	}
	n, err := tmmbn(0xc0ffee, rs[0]).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if n[0] != 0x80|4 || n[1] != 205 || len(n) != 20 || string(n[12:]) != string(pkt[12:]) {
		t.Fatalf("TMMBN % x", n)
	}
}

// The TMMBR Confer sends reads back as what it asks (RFC 5104 section
// 4.2.1.1: a mantissa of 17 bits), the overhead of IPv4, UDP and RTP.
func TestTMMBRSent(t *testing.T) {
	t.Parallel()
	for _, bps := range []int{256000, 200000, 131071, 100_000_000} {
		b, err := newTMMBR(1, 0x7b8, bps).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		rs := tmmbrs(b)
		if len(rs) != 1 || rs[0].ssrc != 1 || rs[0].overhead != 40 || rs[0].bps > bps || rs[0].bps < bps-bps>>16 {
			t.Fatalf("%d b/s read back as %+v", bps, rs)
		}
	}
}
