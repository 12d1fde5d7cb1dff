package sip

import (
	"net"
	"testing"

	"github.com/pion/sdp/v3"
)

const h264Line = "a=rtpmap:96 H264/90000\r\na=fmtp:96 profile-level-id=42e01f;packetization-mode=1\r\n"

// The content m-line is the one with a=content:slides, else the second
// video m-line (RFC 4796); the answer repeats the offer's m-lines in its
// order, refusing the ones not bridged with port 0, and answers the
// content's direction (RFC 3264 section 6).
func TestContentMLine(t *testing.T) {
	t.Parallel()
	head := "v=0\r\no=t 1 1 IN IP4 192.0.2.9\r\ns=-\r\nc=IN IP4 192.0.2.9\r\nt=0 0\r\nm=audio 5000 RTP/AVP 0\r\n"
	cases := []struct {
		name, body     string
		content, video int    // the ports taken as content and main video
		dir, answerDir string // the content's direction and its answer's
		answer         []int  // which answer lines are refused (port 0): 1 refused
		contentRefused bool
		noContentCodec bool
	}{
		{name: "second video", body: "m=video 5002 RTP/AVP 96\r\n" + h264Line + "m=video 5004 RTP/AVP 96\r\n" + h264Line + "a=sendonly\r\n",
			video: 5002, content: 5004, dir: "sendonly", answerDir: "recvonly", answer: []int{0, 0, 0}},
		{name: "slides first", body: "m=video 5002 RTP/AVP 96\r\n" + h264Line + "a=content:slides\r\nm=video 5004 RTP/AVP 96\r\n" + h264Line + "a=content:main\r\n",
			video: 5004, content: 5002, dir: "sendrecv", answerDir: "sendrecv", answer: []int{0, 0, 0}},
		{name: "a third video and an application", body: "m=video 5002 RTP/AVP 96\r\n" + h264Line + "m=video 5004 RTP/AVP 96\r\n" + h264Line +
			"m=video 5006 RTP/AVP 96\r\n" + h264Line + "m=application 5008 UDP/BFCP *\r\n",
			video: 5002, content: 5004, dir: "sendrecv", answerDir: "sendrecv", answer: []int{0, 0, 0, 1, 1}},
		{name: "content without H.264", body: "m=video 5002 RTP/AVP 96\r\n" + h264Line + "m=video 5004 RTP/AVP 31\r\na=rtpmap:31 H261/90000\r\n",
			video: 5002, content: 5004, dir: "sendrecv", answer: []int{0, 0, 1}, noContentCodec: true},
		{name: "content refused", body: "m=video 5002 RTP/AVP 96\r\n" + h264Line + "m=video 0 RTP/AVP 96\r\n",
			video: 5002, content: 0, dir: "sendrecv", answer: []int{0, 0, 1}, noContentCodec: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := parseSDP([]byte(head + "a=rtpmap:0 PCMU/8000\r\n" + c.body))
			if err != nil {
				t.Fatal(err)
			}
			if m.VideoPort != c.video || m.ContentPort != c.content || m.ContentDir != c.dir {
				t.Fatalf("video %d content %d %s, want %d %d %s", m.VideoPort, m.ContentPort, m.ContentDir, c.video, c.content, c.dir)
			}
			if (m.Content == nil) != c.noContentCodec {
				t.Fatalf("content codec %v", m.Content)
			}
			l := &leg{ip: net.IPv4(127, 0, 0, 1), sdpID: 1}
			for _, s := range []**stream{&l.audio, &l.video, &l.content} {
				st, err := openStream(l.ip, 30000, 30400)
				if err != nil {
					t.Fatal(err)
				}
				defer st.close()
				*s = st
			}
			var a sdp.SessionDescription
			if err := a.UnmarshalString(string(answerSDP(l, m))); err != nil {
				t.Fatal(err)
			}
			if len(a.MediaDescriptions) != len(c.answer) {
				t.Fatalf("answer has %d m-lines, want %d", len(a.MediaDescriptions), len(c.answer))
			}
			for i, md := range a.MediaDescriptions {
				if refused := md.MediaName.Port.Value == 0; refused != (c.answer[i] == 1) {
					t.Errorf("answer line %d (%s) port %d", i, md.MediaName.Media, md.MediaName.Port.Value)
				}
				if _, slides := md.Attribute("content"); slides && md.MediaName.Port.Value != l.content.port() {
					t.Errorf("a=content on line %d, not the content port", i)
				}
			}
			if c.answerDir != "" {
				var found bool
				for _, md := range a.MediaDescriptions {
					if md.MediaName.Port.Value == l.content.port() {
						found = true
						if _, ok := md.Attribute(c.answerDir); !ok {
							t.Errorf("content answered without a=%s", c.answerDir)
						}
					}
				}
				if !found {
					t.Error("no content m-line in the answer")
				}
			}
		})
	}
}
