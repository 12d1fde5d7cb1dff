package sip

import (
	"errors"
	"fmt"
	"net"
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
}

// MimeType is the codec's media type as the SFU names it.
func (c Codec) MimeType(kind string) string { return kind + "/" + c.Name }

// The codecs Confer offers (issue 26: no transcoding, so the terminal's
// choice is forwarded as it is), in order of preference.
var (
	// Opus first: what browsers publish, so that a terminal that has it
	// hears them (docs/sip.md "Media").
	audioOffer = []Codec{
		{PT: 111, Name: "opus", ClockRate: 48000, Channels: 2, Fmtp: "minptime=10;useinbandfec=1"},
		{PT: 0, Name: "PCMU", ClockRate: 8000, Channels: 1},
		{PT: 8, Name: "PCMA", ClockRate: 8000, Channels: 1},
		{PT: 9, Name: "G722", ClockRate: 8000, Channels: 1},
	}
	dtmfCodec  = Codec{PT: 101, Name: "telephone-event", ClockRate: 8000, Fmtp: "0-15"}
	videoOffer = []Codec{
		{PT: 96, Name: "H264", ClockRate: 90000, Fmtp: "profile-level-id=42e01f;packetization-mode=1"},
	}
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
}

var sessionVersion atomic.Uint64

// offerSDP is Confer's offer (an outgoing call) or answer (to an incoming
// call, with the chosen codecs only).
func buildSDP(ip net.IP, audioPort int, audio []Codec, dtmf *Codec, videoPort int, video []Codec) []byte {
	v := sessionVersion.Add(1)
	fam := "IP4"
	if ip.To4() == nil {
		fam = "IP6"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "v=0\r\no=confer %d %d IN %s %s\r\ns=Confer\r\nc=IN %s %s\r\nt=0 0\r\n", v, v, fam, ip, fam, ip)
	mline := func(kind string, port int, cs []Codec) {
		pts := make([]string, 0, len(cs))
		for _, c := range cs {
			pts = append(pts, strconv.Itoa(int(c.PT)))
		}
		fmt.Fprintf(&b, "m=%s %d RTP/AVP %s\r\n", kind, port, strings.Join(pts, " "))
		for _, c := range cs {
			if c.Channels > 1 {
				fmt.Fprintf(&b, "a=rtpmap:%d %s/%d/%d\r\n", c.PT, c.Name, c.ClockRate, c.Channels)
			} else {
				fmt.Fprintf(&b, "a=rtpmap:%d %s/%d\r\n", c.PT, c.Name, c.ClockRate)
			}
			if c.Fmtp != "" {
				fmt.Fprintf(&b, "a=fmtp:%d %s\r\n", c.PT, c.Fmtp)
			}
			if kind == "video" {
				fmt.Fprintf(&b, "a=rtcp-fb:%d nack pli\r\na=rtcp-fb:%d ccm fir\r\n", c.PT, c.PT)
			}
		}
		b.WriteString("a=sendrecv\r\n")
	}
	if len(audio) > 0 {
		cs := append([]Codec{}, audio...)
		if dtmf != nil {
			cs = append(cs, *dtmf)
		}
		mline("audio", audioPort, cs)
	}
	if len(video) > 0 {
		mline("video", videoPort, video)
	}
	return []byte(b.String())
}

var errNoCodec = errors.New("sip: no common codec")

// staticCodecs are the static payload types an offer may list without
// rtpmap (RFC 3551 table 4).
var staticCodecs = map[uint8]Codec{0: audioOffer[1], 8: audioOffer[2], 9: audioOffer[3]}

// parseSDP reads the peer's address, ports and codecs (in its order of
// preference) of its first audio and first video m-line. The result's
// Audio and Video are the first codecs Confer supports; nil when none.
func parseSDP(body []byte) (Media, error) {
	var sd sdp.SessionDescription
	if err := sd.UnmarshalString(string(body)); err != nil {
		return Media{}, fmt.Errorf("sip: bad SDP: %w", err)
	}
	var m Media
	if sd.ConnectionInformation != nil && sd.ConnectionInformation.Address != nil {
		m.IP = net.ParseIP(sd.ConnectionInformation.Address.Address)
	}
	for _, md := range sd.MediaDescriptions {
		kind := md.MediaName.Media
		if (kind == "audio" && m.AudioPort != 0) || (kind == "video" && m.VideoPort != 0) || (kind != "audio" && kind != "video") {
			continue // a second video m-line (content) is not bridged: docs/sip.md "Limits"
		}
		port := md.MediaName.Port.Value
		if md.ConnectionInformation != nil && md.ConnectionInformation.Address != nil {
			if ip := net.ParseIP(md.ConnectionInformation.Address.Address); ip != nil && kind == "audio" {
				m.IP = ip
			}
		}
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
		if kind == "audio" {
			m.AudioPort, m.AudioCands = port, cands
			for i, c := range cands {
				if strings.EqualFold(c.Name, "telephone-event") && c.ClockRate == 8000 && m.DTMF == nil {
					m.DTMF = &cands[i]
				}
			}
			if port != 0 {
				m.Audio = pick(cands, audioOffer)
			}
		} else {
			m.VideoPort, m.VideoCands = port, cands
			if port != 0 {
				m.Video = pick(cands, videoOffer)
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

// pick returns the codec Confer prefers among the peer's, with the peer's
// payload type.
func pick(peer, ours []Codec) *Codec {
	for _, o := range ours {
		for _, p := range peer {
			if strings.EqualFold(p.Name, o.Name) && p.ClockRate == o.ClockRate {
				if o.Name == "H264" && strings.Contains(p.Fmtp, "packetization-mode=0") {
					continue // the SFU forwards FU-A (packetization mode 1) only
				}
				c := p
				c.Name = o.Name
				return &c
			}
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
