package sip_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pion/sdp/v3"
)

// polyInvite is a Poly-shaped (RealPresence Group) INVITE through a
// proxy at local: audio G.722.1C, Siren14, G.722, G.711 and DTMF; main
// video with H.264 High, constrained baseline and packetization mode 0
// payload types and H.263; BFCP over UDP; a content m-line with
// a=content:slides; b=AS and b=TIAS lines.
func polyInvite(conf, local string) string {
	body := `v=0
o=GroupSeries 1 0 IN IP4 127.0.0.1
s=-
c=IN IP4 127.0.0.1
b=AS:2048
t=0 0
m=audio 49160 RTP/AVP 115 102 9 0 8 101
a=rtpmap:115 G7221/32000
a=fmtp:115 bitrate=48000
a=rtpmap:102 G7221/16000
a=fmtp:102 bitrate=32000
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=rtpmap:101 telephone-event/8000
a=fmtp:101 0-15
a=sendrecv
m=video 49162 RTP/AVP 109 110 111 96 34
b=TIAS:1920000
a=rtpmap:109 H264/90000
a=fmtp:109 profile-level-id=640020;packetization-mode=1;max-br=1920;max-mbps=245000;max-fs=8192
a=rtpmap:110 H264/90000
a=fmtp:110 profile-level-id=428020;packetization-mode=1;max-br=1920;max-mbps=245000;max-fs=8192
a=rtpmap:111 H264/90000
a=fmtp:111 profile-level-id=42e020;packetization-mode=1;max-br=1920;max-mbps=245000;max-fs=8192;sar-supported=16
a=rtpmap:96 H264/90000
a=fmtp:96 profile-level-id=428020;max-br=1920;max-mbps=245000
a=rtpmap:34 H263/90000
a=fmtp:34 CIF4=1;CIF=1;QCIF=1
a=rtcp-fb:* ccm fir
a=rtcp-fb:* ccm tmmbr
a=rtcp-fb:* nack pli
a=content:main
a=label:1
a=sendrecv
m=application 49164 UDP/BFCP *
a=floorctrl:c-s
a=setup:actpass
a=connection:new
a=confid:1
a=userid:2
a=floorid:2 mstrm:3
m=video 49166 RTP/AVP 109 96
b=TIAS:1920000
a=rtpmap:109 H264/90000
a=fmtp:109 profile-level-id=428020;packetization-mode=1;max-br=1920;max-mbps=245000;max-fs=8192
a=rtpmap:96 H264/90000
a=fmtp:96 profile-level-id=428020;max-br=1920
a=rtcp-fb:* ccm fir
a=content:slides
a=label:3
a=sendrecv
`
	body = strings.ReplaceAll(body, "\n", "\r\n")
	return `INVITE sip:` + conf + `@127.0.0.1 SIP/2.0
Via: SIP/2.0/UDP ` + local + `;branch=z9hG4bKpolyproxy1;rport
Via: SIP/2.0/UDP 198.51.100.20:5060;received=198.51.100.20;rport=5060;branch=z9hG4bK9a8b7c6d5e4f
Record-Route: <sip:` + local + `;lr>
From: "Poly Group 500" <sip:group500@partner.example.org>;tag=plcm_3344556677-100
To: <sip:` + conf + `@127.0.0.1>
Call-ID: 7766554433-poly@198.51.100.20
CSeq: 1 INVITE
Contact: <sip:group500@198.51.100.20:5060;transport=udp>
Max-Forwards: 69
Allow: INVITE,BYE,CANCEL,OPTIONS,INFO,ACK,SUBSCRIBE,NOTIFY,UPDATE,REFER
Supported: replaces,100rel,timer
User-Agent: Polycom/6.2.2.0 PolycomRealPresenceGroup500 (test)
Session-Expires: 1800
Content-Type: application/sdp
Content-Length: ` + strconv.Itoa(len(body)) + "\n\n" + body
}

// A Poly room system through a proxy (issue 39 "room-system INVITEs
// imitated as they are sent"): answered 200 with its four m-lines in
// order: PCMU (Confer prefers Opus, then G.711, then G.722; G.722.1 is
// not bridged), the constrained baseline H.264 payload
// type with its profile-level-id only and ccm tmmbr, BFCP refused with
// port 0, the content m-line in H.264 packetization mode 1.
func TestPolyRoomSystem(t *testing.T) {
	t.Parallel()
	e := startEnv(t, sipConfig())
	conf := e.conf(t, nil)
	p := newPeer(t, e.addr())
	p.write(polyInvite(conf, p.local))
	res := p.final("INVITE", 1)
	if res.code() != 200 {
		t.Fatalf("INVITE: %s", res.first)
	}
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(res.body); err != nil || len(sd.MediaDescriptions) != 4 {
		t.Fatalf("answer (%v):\n%s", err, res.body)
	}
	want := []struct{ media, port0, format string }{{"audio", "", "0"}, {"video", "", "111"}, {"application", "0", ""}, {"video", "", "109"}}
	for i, w := range want {
		md := sd.MediaDescriptions[i]
		if md.MediaName.Media != w.media || (w.port0 == "0") != (md.MediaName.Port.Value == 0) ||
			(w.format != "" && (len(md.MediaName.Formats) == 0 || md.MediaName.Formats[0] != w.format)) {
			t.Errorf("m-line %d: %s %d %v, want %s port0=%q format %s", i, md.MediaName.Media, md.MediaName.Port.Value, md.MediaName.Formats, w.media, w.port0, w.format)
		}
	}
	for _, line := range []string{"a=fmtp:111 profile-level-id=42e020;packetization-mode=1\r\n", "a=rtcp-fb:111 ccm tmmbr\r\n", "a=content:slides\r\n"} {
		if !strings.Contains(res.body, line) {
			t.Errorf("the answer lacks %q:\n%s", strings.TrimSpace(line), res.body)
		}
	}
	if strings.Contains(res.body, "max-br") || strings.Contains(res.body, "sar-supported") {
		t.Errorf("the terminal's fmtp copied into the answer:\n%s", res.body)
	}
	// ACK and BYE through the proxy (the peer), as the dialog's route says.
	p.callID, p.localTag, p.remoteTag = "7766554433-poly@198.51.100.20", "plcm_3344556677-100", tag(res.get("to", "t"))
	p.localURI, p.remoteURI, p.target = "sip:group500@partner.example.org", "sip:"+conf+"@127.0.0.1", uriOf(res.get("contact", "m"))
	p.cseq = 1
	p.send("ACK", "", "", 1)
	if r := p.do("BYE", "", ""); r.code() != 200 {
		t.Fatalf("BYE: %s", r.first)
	}
}
