package sfu

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/interceptor/pkg/gcc"
	"github.com/pion/interceptor/pkg/nack"
	"github.com/pion/interceptor/pkg/report"
	"github.com/pion/interceptor/pkg/twcc"
	"github.com/pion/sdp/v3"
	"github.com/pion/transport/v5/stdnet"
	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/udpbatch"
)

// Default ports of conferd's media flags (docs/media.md, "Configuration").
const (
	DefaultUDPPort = 7882
	DefaultTCPPort = 7881
)

// Config configures an SFU. The zero value works on one machine: ephemeral
// ports, host candidates only.
type Config struct {
	// Log receives the WHIP, WHEP and join page requests and the
	// participants' ends, with conf_id and mt_id (nil: nothing is logged;
	// conferd passes its log).
	Log *slog.Logger
	// UDPPort is the one UDP port of all ICE traffic (ICE UDP mux); 0 picks
	// an ephemeral port (tests), conferd passes DefaultUDPPort.
	UDPPort int
	// SocketBuffer is the receive and send buffer of the ICE UDP port, in
	// bytes (default 4 MiB; Linux caps it at net.core.rmem_max and
	// wmem_max). Every participant's packets share this one socket: a
	// small buffer drops them while the node is busy (docs/media.md).
	SocketBuffer int
	// PlainUDP turns batched I/O on the ICE UDP port off: pion's own path
	// of one recvfrom and one sendto a datagram (docs/sfu-internals.md "Batched
	// UDP I/O"). Elsewhere than Linux the port is always plain.
	PlainUDP bool
	// NoDirectPath keeps subscribers' audio on pion's write path instead
	// of the direct one (direct.go, docs/sfu-internals.md "The direct
	// path"); without batched I/O it is always pion's.
	NoDirectPath bool
	// NoFastChecks leaves every ICE check to pion's agent instead of
	// answering connected sessions' on the UDP port's reader (checks.go).
	NoFastChecks bool
	// NoFastRTCP leaves every SRTCP datagram to pion's read path instead
	// of decrypting and handling connected sessions' on the UDP port's
	// reader (fastrtcp.go).
	NoFastRTCP bool
	// TCPPort is the ICE-TCP fallback port; 0 picks an ephemeral port, a
	// negative value disables ICE-TCP.
	TCPPort int
	// PublicIPs are the addresses of a 1:1 NAT advertised as host
	// candidates instead of the interface addresses (NAT1To1IPs).
	PublicIPs []string
	// ICEServers (STUN/TURN) are handed to the join page; the SFU itself
	// uses their STUN URLs to learn its server-reflexive address (relays are
	// for clients).
	ICEServers []webrtc.ICEServer
	// Loopback includes 127.0.0.1 among the candidates (tests, one laptop).
	Loopback bool
	// ListenIP, when set, is the one address the ICE ports are bound to
	// (conferd sets it to a loopback --addr, so that a node kept to this
	// machine does not open its media ports on every interface); nil
	// binds every interface.
	ListenIP net.IP
	// MaxSessions caps the node's WHIP+WHEP sessions (0: no cap); beyond it
	// a new session gets 503.
	MaxSessions int
	// ConferenceLimit, when set, returns the participant cap of a
	// conference (0: no cap); the lower of it and Grant.MaxParticipants
	// applies, beyond it a join gets 409.
	ConferenceLimit func(confID string) int
	// Locate, when set, names the node that serves a conference's media
	// (several nodes, docs/media-nodes.md): the base URL of
	// another node, or "" to serve it here. WHIP, WHEP, the join page and
	// the state are then answered 307 to that node; with claim (WHIP and
	// WHEP) a conference that no node serves becomes this node's.
	Locate func(ctx context.Context, confID string, claim bool) (string, error)
	// DisconnectedTimeout and FailedTimeout are the ICE timeouts (pion's
	// SetICETimeouts); their sum bounds how soon a vanished participant is
	// reported lost. Defaults 4 s and 4 s.
	DisconnectedTimeout, FailedTimeout time.Duration
	// ConnectTimeout closes a session whose ICE never connects (default 30 s).
	ConnectTimeout time.Duration
	// LevelInterval is the period of Events.AudioLevels (default 500 ms).
	LevelInterval time.Duration
	// NoBandwidthLayers keeps simulcast layer choice to the rendered size,
	// ignoring subscribers' bandwidth estimates.
	NoBandwidthLayers bool
	// MixTalkers is how many of the loudest talkers the mixed endpoints
	// hear at once when no mix runs, and in a smart mix (default
	// DefaultMixTalkers).
	MixTalkers int
	// Clock is read for audio levels and the active publisher (default real).
	Clock clock.Clock
}

// initialBitrate is a subscriber's first bandwidth estimate: enough for the
// full layer, so a well-connected subscriber starts sharp and GCC lowers it
// on congestion.
const initialBitrate = 2_500_000

// Bitrates at which a subscriber can take a layer (the join page's
// encodings: 150 kbit/s, 500 kbit/s, 1.5 Mbit/s, with headroom).
var layerBitrate = [numLayers]int{0, 600_000, 1_700_000}

// AudioLevelURI is the RFC 6464 client-to-mixer audio level extension.
const AudioLevelURI = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"

func (c *Config) defaults() {
	if c.SocketBuffer <= 0 {
		c.SocketBuffer = 4 << 20
	}
	if c.DisconnectedTimeout <= 0 {
		c.DisconnectedTimeout = 4 * time.Second
	}
	if c.FailedTimeout <= 0 {
		c.FailedTimeout = 4 * time.Second
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = 30 * time.Second
	}
	if c.MixTalkers <= 0 {
		c.MixTalkers = DefaultMixTalkers
	}
	if c.LevelInterval <= 0 {
		c.LevelInterval = 500 * time.Millisecond
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// transport holds the sockets shared by every PeerConnection of the node.
type transport struct {
	udp      ice.UDPMux
	tcp      ice.TCPMux
	tcpLn    net.Listener
	udpAddrs []net.Addr
	batch    *batchNet // the UDP port's batched sockets; nil with PlainUDP
}

func openTransport(cfg Config) (*transport, error) {
	opts := []ice.UDPMuxFromPortOption{ice.UDPMuxFromPortWithNetworks(ice.NetworkTypeUDP4),
		ice.UDPMuxFromPortWithReadBufferSize(cfg.SocketBuffer), ice.UDPMuxFromPortWithWriteBufferSize(cfg.SocketBuffer)}
	if cfg.Loopback || cfg.ListenIP.IsLoopback() {
		opts = append(opts, ice.UDPMuxFromPortWithLoopback())
	}
	if cfg.ListenIP != nil {
		opts = append(opts, ice.UDPMuxFromPortWithIPFilter(func(ip net.IP) bool { return ip.Equal(cfg.ListenIP) }))
	}
	var t transport
	if !cfg.PlainUDP && udpbatch.Supported {
		n, err := stdnet.NewNet()
		if err != nil {
			return nil, fmt.Errorf("sfu: network: %w", err)
		}
		t.batch = &batchNet{Net: n}
		if !cfg.NoFastChecks {
			t.batch.checks = newCheckResponder()
		}
		if !cfg.NoFastRTCP {
			t.batch.rtcp = newRTCPReader()
		}
		opts = append(opts, ice.UDPMuxFromPortWithNet(t.batch))
	}
	// One port on every interface (port 0: ephemeral, one per interface).
	m, err := ice.NewMultiUDPMuxFromPort(cfg.UDPPort, opts...)
	if err != nil {
		return nil, fmt.Errorf("sfu: ICE UDP port %d: %w", cfg.UDPPort, err)
	}
	t.udp = m
	t.udpAddrs = m.GetListenAddresses()
	if cfg.TCPPort >= 0 {
		host := ""
		if cfg.ListenIP != nil {
			host = cfg.ListenIP.String()
		}
		ln, err := net.Listen("tcp4", net.JoinHostPort(host, strconv.Itoa(cfg.TCPPort)))
		if err != nil {
			_ = t.udp.Close()
			return nil, fmt.Errorf("sfu: ICE TCP port %d: %w", cfg.TCPPort, err)
		}
		t.tcpLn = ln
		t.tcp = webrtc.NewICETCPMux(nil, ln, 32)
	}
	return &t, nil
}

func (t *transport) close() {
	_ = t.udp.Close()
	if t.tcp != nil {
		_ = t.tcp.Close()
		_ = t.tcpLn.Close()
	}
}

// newAPI builds the pion API of one PeerConnection: codecs the SFU forwards
// (Opus, VP8, H.264, each video with RTX), RFC 6464 audio levels, the
// simulcast extensions, the NACK responder and transport-wide congestion
// control feedback (TWCC). A subscriber's API also runs Google Congestion
// Control on that feedback (send-side BWE, no pacer: the SFU forwards at
// the publisher's pace) and hands the estimator to onBWE. A subscriber
// (whep) stamps transport-wide sequence numbers on its video only: the
// estimate serves the choice of a video layer, and stamping and tracking
// every audio packet of hundreds of subscribers cost a fifth of the
// node's CPU (docs/benchmarks.md "Media").
//
// What concerns received media (the NACK generator, receiver reports,
// TWCC feedback) is there only when the connection receives (receives:
// a WHIP session, or a WHEP offer that sends): each runs a ticker a
// connection (the NACK generator's every 100 ms), which on hundreds of
// subscribers that receive nothing cost more than their fan-out's
// rewriting (issue 43). Sender reports are the SFU's own (reports.go).
func (s *SFU) newAPI(onBWE func(cc.BandwidthEstimator), whep, receives bool) (*webrtc.API, error) {
	m := &webrtc.MediaEngine{}
	if err := registerCodecs(m); err != nil {
		return nil, err
	}
	if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: AudioLevelURI}, webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	reg := &interceptor.Registry{}
	if onBWE != nil {
		// Before the NACK responder (pion's cc.NewInterceptor).
		f, err := cc.NewInterceptor(func() (cc.BandwidthEstimator, error) {
			return gcc.NewSendSideBWE(gcc.SendSideBWEInitialBitrate(initialBitrate), gcc.SendSideBWEPacer(newPassPacer()))
		})
		if err != nil {
			return nil, err
		}
		f.OnNewPeerConnection(func(_ string, e cc.BandwidthEstimator) { onBWE(e) })
		reg.Add(twccOnlyFactory{f}) // video only: twcconly.go
	}
	// pion's webrtc.ConfigureNack, its generator only when receiving.
	m.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack"}, webrtc.RTPCodecTypeVideo)
	m.RegisterFeedback(webrtc.RTCPFeedback{Type: "nack", Parameter: "pli"}, webrtc.RTPCodecTypeVideo)
	responder, err := nack.NewResponderInterceptor()
	if err != nil {
		return nil, err
	}
	reg.Add(responder)
	if receives {
		generator, err := nack.NewGeneratorInterceptor()
		if err != nil {
			return nil, err
		}
		reg.Add(generator)
		// Receiver reports; no statistics interceptor (the SFU reads no
		// statistics of its connections; it costs on every packet).
		rr, err := report.NewReceiverInterceptor()
		if err != nil {
			return nil, err
		}
		reg.Add(rr)
	}
	if err := webrtc.ConfigureSimulcastExtensionHeaders(m); err != nil {
		return nil, err
	}
	if whep {
		if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: sdp.TransportCCURI}, webrtc.RTPCodecTypeVideo); err != nil {
			return nil, err
		}
		tw, err := twcc.NewHeaderExtensionInterceptor()
		if err != nil {
			return nil, err
		}
		reg.Add(tw)
	} else {
		if err := webrtc.ConfigureTWCCSender(m, reg); err != nil {
			return nil, err
		}
		if err := webrtc.ConfigureTWCCHeaderExtensionSender(m, reg); err != nil {
			return nil, err
		}
	}
	return webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(reg), webrtc.WithSettingEngine(s.settings)), nil
}

func (s *SFU) buildSettings() {
	var se webrtc.SettingEngine
	se.SetICEUDPMux(s.tr.udp)
	nets := []webrtc.NetworkType{webrtc.NetworkTypeUDP4}
	if s.tr.tcp != nil {
		se.SetICETCPMux(s.tr.tcp)
		nets = append(nets, webrtc.NetworkTypeTCP4)
	}
	se.SetNetworkTypes(nets)
	se.SetIncludeLoopbackCandidate(s.cfg.Loopback)
	if len(s.cfg.PublicIPs) > 0 {
		se.SetNAT1To1IPs(s.cfg.PublicIPs, webrtc.ICECandidateTypeHost)
	}
	se.SetICETimeouts(s.cfg.DisconnectedTimeout, s.cfg.FailedTimeout, keepaliveInterval(s.cfg.DisconnectedTimeout))
	// No mDNS: the SFU has addresses to advertise, not names to hide.
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	s.settings = se
}

// keepaliveInterval is how often the SFU's ICE agent sends a binding
// request on a connected session's selected pair (pion's keepalive, a
// consent check of RFC 7675) and looks at how long its peer has been
// silent: half the disconnection timeout, and at least a second; 2 s
// at the default 4 s, pion's own default. A live peer's answers keep
// the pair from "disconnected" unless two are lost in a row, and from
// "failed" (DisconnectedTimeout + FailedTimeout of silence: the
// participant is lost) unless four are; a browser's own checks and its
// RTCP arrive besides. A vanished peer is found lost within 8 to 10 s
// at the defaults (8 to 9 s at a 1 s interval). At 1 s, every
// subscriber cost the node a request out, its answer in and a round of
// the agent's loop each second: about a fifth of conferd's CPU at 500
// audio subscribers went to ICE (issue 43, docs/benchmarks/media.md
// "Keepalives and the fan-out's own cost").
func keepaliveInterval(disconnected time.Duration) time.Duration {
	return max(time.Second, disconnected/2)
}

var videoFeedback = []webrtc.RTCPFeedback{
	{Type: "goog-remb"}, {Type: "ccm", Parameter: "fir"}, {Type: "nack"},
	{Type: "nack", Parameter: "pli"}, {Type: webrtc.TypeRTCPFBTransportCC},
}

// opusCodec is the SFU's Opus.
var opusCodec = webrtc.RTPCodecParameters{RTPCodecCapability: webrtc.RTPCodecCapability{
	MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, SDPFmtpLine: "minptime=10;useinbandfec=1",
	RTCPFeedback: []webrtc.RTCPFeedback{{Type: webrtc.TypeRTCPFBTransportCC}}}, PayloadType: 111}

// The video codecs, each with its RTX (RFC 4588).
var (
	vp8Codecs = []webrtc.RTPCodecParameters{
		{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeVP8, ClockRate: 90000, RTCPFeedback: videoFeedback}, PayloadType: 96},
		{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeRTX, ClockRate: 90000, SDPFmtpLine: "apt=96"}, PayloadType: 97},
	}
	h264Codecs = []webrtc.RTPCodecParameters{
		{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, RTCPFeedback: videoFeedback,
			SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"}, PayloadType: 102},
		{RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeRTX, ClockRate: 90000, SDPFmtpLine: "apt=102"}, PayloadType: 103},
	}
)

func registerCodecs(m *webrtc.MediaEngine) error {
	codecs := []struct {
		c webrtc.RTPCodecParameters
		t webrtc.RTPCodecType
	}{
		{opusCodec, webrtc.RTPCodecTypeAudio},
		{vp8Codecs[0], webrtc.RTPCodecTypeVideo},
		{vp8Codecs[1], webrtc.RTPCodecTypeVideo},
		{h264Codecs[0], webrtc.RTPCodecTypeVideo},
		{h264Codecs[1], webrtc.RTPCodecTypeVideo},
	}
	for _, c := range codecs {
		if err := m.RegisterCodec(c.c, c.t); err != nil {
			return err
		}
	}
	return registerPlainAudio(m) // codec_plain.go: SIP terminals' audio
}

// hasFingerprint reports whether an offer carries a DTLS fingerprint at
// session level or in every media section (RFC 8842 section 5.1).
func hasFingerprint(d *sdp.SessionDescription) bool {
	if _, ok := d.Attribute("fingerprint"); ok {
		return true
	}
	if len(d.MediaDescriptions) == 0 {
		return false
	}
	for _, m := range d.MediaDescriptions {
		if _, ok := m.Attribute("fingerprint"); !ok {
			return false
		}
	}
	return true
}
