package sip

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/pion/sdp/v3"
)

// Codec is a payload format of an m-line.
type Codec struct {
	PT        uint8
	Name      string // as in rtpmap: PCMU, PCMA, G722, opus, H264, telephone-event
	ClockRate uint32
	Channels  uint16
	Fmtp      string
	// Sprop is an H.264 terminal's sprop-parameter-sets (its SPS and PPS
	// announced in its SDP, RFC 6184 section 8.1): not answered (they
	// describe the terminal's stream), but passed with what it sends, so
	// that a decoder of it (the compositor) has them when the terminal
	// never sends them in band.
	Sprop string
}

// MimeType is the codec's media type as the SFU names it.
func (c Codec) MimeType(kind string) string { return kind + "/" + c.Name }

// The codecs Confer offers (issue 26: no transcoding, so the terminal's
// choice is forwarded as it is), in order of preference.
var (
	// Opus first: what browsers publish, so that a terminal that has it
	// hears them (docs/sip-media.md "Media").
	audioOffer = []Codec{
		{PT: 111, Name: "opus", ClockRate: 48000, Channels: 2, Fmtp: "minptime=10;useinbandfec=1"},
		{PT: 0, Name: "PCMU", ClockRate: 8000, Channels: 1},
		{PT: 8, Name: "PCMA", ClockRate: 8000, Channels: 1},
		{PT: 9, Name: "G722", ClockRate: 8000, Channels: 1},
	}
	dtmfCodec = Codec{PT: 101, Name: "telephone-event", ClockRate: 8000, Fmtp: "0-15"}
	// H.264 first (what room systems send; h264.go), then VP8 (what
	// browsers send, and a few terminals: issue 39).
	videoOffer = []Codec{
		{PT: 96, Name: "H264", ClockRate: 90000, Fmtp: "profile-level-id=42e01f;packetization-mode=1"},
		{PT: 97, Name: "VP8", ClockRate: 90000},
	}
	// The content m-line is H.264 only (docs/sip-media.md "Content").
	contentOffer = videoOffer[:1]
)

// Media is what one side of a call sends and receives.
type Media struct {
	IP         net.IP
	AudioPort  int
	Audio      *Codec // nil: no audio
	DTMF       *Codec // telephone-event, nil when not negotiated
	VideoPort  int
	Video      *Codec // nil: no video
	AudioCands []Codec
	VideoCands []Codec
	// VideoBitrate is what the peer takes on its main video, bits a
	// second (b=TIAS, b=AS; bandwidth.go); 0 no limit.
	VideoBitrate int
	// VideoTMMBR: the peer takes TMMBR on its main video (a=rtcp-fb ccm
	// tmmbr, RFC 5104 section 7.1): Confer sends it the cap of the
	// video's receivers (bandwidth.go).
	VideoTMMBR bool
	// The content m-line: the video m-line with a=content:slides (RFC
	// 4796), else the second video m-line; a dual stream without BFCP
	// (docs/sip-media.md "Content"). Content is nil when there is none, it is
	// refused (port 0) or without H.264.
	ContentPort  int
	Content      *Codec
	ContentCands []Codec
	ContentDir   string // the peer's direction: sendrecv, sendonly, recvonly or inactive
	// AudioDir and VideoDir are the peer's directions of its audio and
	// main video: sendonly or inactive hold the call (RFC 3264 section
	// 8.4); c=0.0.0.0 counts as not receiving.
	AudioDir, VideoDir string
	// SRTP (srtp.go): the peer's crypto line Confer picked on each m-line
	// whose profile is RTP/SAVP(F) (nil: none it can use), and which of
	// the m-lines are SRTP.
	AudioSec, VideoSec, ContentSec *sdes
	savp                           lines

	lines []offered // the peer's m-lines in order: an answer mirrors them (RFC 3264 section 6)
}

// offered is one m-line of the peer's SDP and what Confer makes of it.
type offered struct {
	role         string // roleAudio, roleVideo, roleContent, or "" (not bridged)
	media, proto string
	format       string // its first format (a refused line repeats it)
}

const (
	roleAudio   = "audio"
	roleVideo   = "video"
	roleContent = "content"
)

var sessionVersion atomic.Uint64

// mline is one m-line Confer writes; port 0 refuses a line of the peer's
// (RFC 3264 section 6), repeating its proto and format.
type mline struct {
	media         string // audio, video
	port          int
	codecs        []Codec
	proto, format string // the profile ("" RTP/AVP); a refused line's first format
	dir           string // "" is sendrecv
	content       string // RFC 4796 a=content, "" none
	crypto        string // RFC 4568 a=crypto of an SRTP line, "" none
}

// writeSDP writes Confer's offer (an outgoing call) or answer (to an
// incoming call, with the chosen codecs only); id and ver are the o=
// line's session id and version (RFC 4566 section 5.2).
func writeSDP(ip net.IP, id, ver uint64, lines []mline) []byte {
	fam := "IP4"
	if ip.To4() == nil {
		fam = "IP6"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "v=0\r\no=confer %d %d IN %s %s\r\ns=Confer\r\nc=IN %s %s\r\nt=0 0\r\n", id, ver, fam, ip, fam, ip)
	for _, m := range lines {
		if m.port == 0 || len(m.codecs) == 0 {
			fmt.Fprintf(&b, "m=%s 0 %s %s\r\n", m.media, cmp.Or(m.proto, "RTP/AVP"), cmp.Or(m.format, "0"))
			continue
		}
		pts := make([]string, 0, len(m.codecs))
		for _, c := range m.codecs {
			pts = append(pts, strconv.Itoa(int(c.PT)))
		}
		fmt.Fprintf(&b, "m=%s %d %s %s\r\n", m.media, m.port, cmp.Or(m.proto, "RTP/AVP"), strings.Join(pts, " "))
		if m.crypto != "" {
			fmt.Fprintf(&b, "a=crypto:%s\r\n", m.crypto)
		}
		for _, c := range m.codecs {
			if c.Channels > 1 {
				fmt.Fprintf(&b, "a=rtpmap:%d %s/%d/%d\r\n", c.PT, c.Name, c.ClockRate, c.Channels)
			} else {
				fmt.Fprintf(&b, "a=rtpmap:%d %s/%d\r\n", c.PT, c.Name, c.ClockRate)
			}
			if c.Fmtp != "" {
				fmt.Fprintf(&b, "a=fmtp:%d %s\r\n", c.PT, c.Fmtp)
			}
			if m.media == "video" {
				fmt.Fprintf(&b, "a=rtcp-fb:%d nack pli\r\na=rtcp-fb:%d ccm fir\r\n", c.PT, c.PT)
				if m.content == "" || m.content == "main" {
					fmt.Fprintf(&b, "a=rtcp-fb:%d ccm tmmbr\r\n", c.PT) // RFC 5104 section 7.1 (bandwidth.go)
				}
			}
		}
		if m.content != "" {
			fmt.Fprintf(&b, "a=content:%s\r\n", m.content)
		}
		fmt.Fprintf(&b, "a=%s\r\n", cmp.Or(m.dir, "sendrecv"))
	}
	return []byte(b.String())
}

// offerSDP is Confer's offer: audio, video (a=content:main) and the
// content m-line (a=content:slides, RFC 4796), on the leg's ports; with
// savp SRTP (RTP/SAVP and a key of each line's, srtp.go).
func offerSDP(l *leg, savp bool) []byte {
	audio := append(append([]Codec{}, audioOffer...), dtmfCodec)
	lines := []mline{
		{media: "audio", port: l.audio.port(), codecs: audio},
		{media: "video", port: l.video.port(), codecs: videoOffer, content: "main"},
		{media: "video", port: l.content.port(), codecs: contentOffer, content: "slides"},
	}
	if savp {
		for i, s := range []*stream{l.audio, l.video, l.content} {
			lines[i].proto, lines[i].crypto = "RTP/SAVP", s.offerCrypto()
		}
	}
	return writeSDP(l.ip, l.sdpID, l.sdpVer.Load(), lines)
}

// answerSDP answers the peer's offer on the leg's ports: its m-lines in
// its order, each with the codec chosen, the ones not bridged with port 0.
func answerSDP(l *leg, peer Media) []byte {
	lines := make([]mline, 0, len(peer.lines))
	for _, o := range peer.lines {
		m := mline{media: o.media, proto: o.proto, format: o.format}
		switch {
		case o.role == roleAudio && peer.Audio != nil:
			m.port, m.codecs = l.audio.port(), []Codec{*peer.Audio}
			if peer.DTMF != nil {
				m.codecs = append(m.codecs, *peer.DTMF)
			}
			m.dir, m.crypto = answerDir(peer.AudioDir), l.audio.cryptoAttr(peer.AudioSec)
		case o.role == roleVideo && peer.Video != nil:
			m.port, m.codecs = l.video.port(), []Codec{*peer.Video}
			m.dir, m.crypto = answerDir(peer.VideoDir), l.video.cryptoAttr(peer.VideoSec)
		case o.role == roleContent && peer.Content != nil:
			m.port, m.codecs, m.content = l.content.port(), []Codec{*peer.Content}, "slides"
			m.dir, m.crypto = answerDir(peer.ContentDir), l.content.cryptoAttr(peer.ContentSec)
		}
		lines = append(lines, m)
	}
	return writeSDP(l.ip, l.sdpID, l.sdpVer.Load(), lines)
}

// answerDir is the direction that answers the peer's (RFC 3264 section
// 6.1).
func answerDir(peer string) string {
	switch peer {
	case "sendonly":
		return "recvonly"
	case "recvonly":
		return "sendonly"
	case "inactive":
		return "inactive"
	}
	return "sendrecv"
}

// held tells whether an m-line's connection address is 0.0.0.0, the
// hold of RFC 2543 that RFC 3264 section 8.4 still asks to understand.
func held(sd *sdp.SessionDescription, md *sdp.MediaDescription) bool {
	ci := sd.ConnectionInformation
	if md.ConnectionInformation != nil {
		ci = md.ConnectionInformation
	}
	return ci != nil && ci.Address != nil && ci.Address.Address == "0.0.0.0"
}

// withoutReceive is a direction with its receiving part taken away.
func withoutReceive(dir string) string {
	if dir == "sendrecv" || dir == "sendonly" {
		return "sendonly"
	}
	return "inactive"
}

var errNoCodec = errors.New("sip: no common codec")

// staticCodecs are the static payload types an offer may list without
// rtpmap (RFC 3551 table 4).
var staticCodecs = map[uint8]Codec{0: audioOffer[1], 8: audioOffer[2], 9: audioOffer[3]}

// contentIndex is the peer's content m-line: the video m-line whose
// a=content names slides (RFC 4796 section 5), else the second video
// m-line; -1 for none.
func contentIndex(mds []*sdp.MediaDescription) int {
	for i, md := range mds {
		if md.MediaName.Media != "video" {
			continue
		}
		for _, a := range md.Attributes {
			if a.Key == "content" && slices.Contains(strings.Split(a.Value, ","), "slides") {
				return i
			}
		}
	}
	n := 0
	for i, md := range mds {
		if md.MediaName.Media == "video" {
			if n++; n == 2 {
				return i
			}
		}
	}
	return -1
}

// direction is an m-line's direction attribute, else the session's, else
// sendrecv (RFC 4566 section 6).
func direction(sd *sdp.SessionDescription, md *sdp.MediaDescription) string {
	for _, attrs := range [][]sdp.Attribute{md.Attributes, sd.Attributes} {
		for _, a := range attrs {
			switch a.Key {
			case "sendrecv", "sendonly", "recvonly", "inactive":
				return a.Key
			}
		}
	}
	return "sendrecv"
}

// parseSDP reads the peer's address, ports and codecs (in its order of
// preference) of its first audio, first video and content m-lines. The
// result's Audio, Video and Content are the first codecs Confer supports;
// nil when none.
func parseSDP(body []byte) (Media, error) {
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(string(body)); err != nil {
		return Media{}, fmt.Errorf("sip: bad SDP: %w", err)
	}
	var m Media
	if sd.ConnectionInformation != nil && sd.ConnectionInformation.Address != nil {
		m.IP = net.ParseIP(sd.ConnectionInformation.Address.Address)
	}
	content := contentIndex(sd.MediaDescriptions)
	for i, md := range sd.MediaDescriptions {
		kind := md.MediaName.Media
		o := offered{media: kind, proto: strings.Join(md.MediaName.Protos, "/")}
		if len(md.MediaName.Formats) > 0 {
			o.format = md.MediaName.Formats[0]
		}
		switch {
		case i == content:
			o.role = roleContent
		case kind == "audio" && !slices.ContainsFunc(m.lines, func(x offered) bool { return x.role == roleAudio }):
			o.role = roleAudio
		case kind == "video" && !slices.ContainsFunc(m.lines, func(x offered) bool { return x.role == roleVideo }):
			o.role = roleVideo
		}
		m.lines = append(m.lines, o)
		if o.role == "" {
			continue // a further m-line is not bridged: answered with port 0
		}
		port := md.MediaName.Port.Value
		if md.ConnectionInformation != nil && md.ConnectionInformation.Address != nil {
			if ip := net.ParseIP(md.ConnectionInformation.Address.Address); ip != nil && kind == "audio" {
				m.IP = ip
			}
		}
		cands := codecsOf(md)
		var sec *sdes
		savp := secure(o.proto)
		if savp {
			sec = pickCrypto(md) // srtp.go
		}
		dir := direction(&sd, md)
		if held(&sd, md) {
			dir = withoutReceive(dir)
		}
		switch o.role {
		case roleAudio:
			m.AudioPort, m.AudioCands, m.AudioDir = port, cands, dir
			m.AudioSec, m.savp.audio = sec, savp
			for i, c := range cands {
				if strings.EqualFold(c.Name, "telephone-event") && c.ClockRate == 8000 && m.DTMF == nil {
					m.DTMF = &cands[i]
				}
			}
			if port != 0 {
				m.Audio = pick(cands, audioOffer)
			}
		case roleVideo:
			m.VideoPort, m.VideoCands, m.VideoDir = port, cands, dir
			m.VideoSec, m.savp.video = sec, savp
			m.VideoBitrate = bandwidthOf(&sd, md)
			if port != 0 {
				m.Video = pick(cands, videoOffer)
			}
			m.VideoTMMBR = m.Video != nil && tmmbrOffered(md, m.Video.PT)
		case roleContent:
			m.ContentPort, m.ContentCands, m.ContentDir = port, cands, dir
			m.ContentSec, m.savp.content = sec, savp
			if port != 0 {
				m.Content = pick(cands, contentOffer)
			}
		}
	}
	if m.IP == nil {
		return m, errors.New("sip: SDP without a connection address")
	}
	if m.Audio == nil && m.Video == nil {
		return m, errNoCodec
	}
	return m, nil
}

// codecsOf lists an m-line's codecs in its order.
func codecsOf(md *sdp.MediaDescription) []Codec {
	maps := map[uint8]Codec{}
	for _, a := range md.Attributes {
		switch a.Key {
		case "rtpmap":
			pt, rest, ok := strings.Cut(a.Value, " ")
			n, err := strconv.Atoi(pt)
			if !ok || err != nil || n < 0 || n > 127 {
				continue
			}
			parts := strings.Split(rest, "/")
			c := Codec{PT: uint8(n), Name: parts[0], Channels: 1}
			if len(parts) > 1 {
				r, _ := strconv.Atoi(parts[1])
				c.ClockRate = uint32(r)
			}
			if len(parts) > 2 {
				ch, _ := strconv.Atoi(parts[2])
				c.Channels = uint16(ch)
			}
			c.Fmtp = maps[uint8(n)].Fmtp
			maps[uint8(n)] = c
		case "fmtp":
			pt, rest, ok := strings.Cut(a.Value, " ")
			n, err := strconv.Atoi(pt)
			if !ok || err != nil || n < 0 || n > 127 {
				continue
			}
			c := maps[uint8(n)]
			c.Fmtp = rest
			maps[uint8(n)] = c
		}
	}
	var cands []Codec
	for _, f := range md.MediaName.Formats {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > 127 {
			continue
		}
		c, ok := maps[uint8(n)]
		if !ok || c.Name == "" {
			if c, ok = staticCodecs[uint8(n)]; !ok {
				continue
			}
		}
		cands = append(cands, c)
	}
	return cands
}

// pick returns the codec Confer prefers among the peer's, with the peer's
// payload type.
func pick(peer, ours []Codec) *Codec {
	for _, o := range ours {
		if o.Name == "H264" {
			if c := pickH264(peer); c != nil {
				return c
			}
			continue
		}
		for _, p := range peer {
			if strings.EqualFold(p.Name, o.Name) && p.ClockRate == o.ClockRate {
				c := p
				c.Name = o.Name
				if o.Name == "VP8" {
					c.Fmtp = "" // max-fr, max-fs: the terminal's, not Confer's
				}
				return &c
			}
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
