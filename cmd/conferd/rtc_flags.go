package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/vc"
)

// rtcFlags are the media plane's flags (docs/media.md "Configuration").
type rtcFlags struct {
	fs                                 *flag.FlagSet
	udpPort, tcpPort, maxSess          *int
	mixTalkers                         *int
	publicIPs, stun, turn              *string
	turnUser, turnCred                 *string
	noRTC, batchIO, direct, fastChecks *bool
	fastRTCP                           *bool
	mediaURL                           *string
	mediaLease                         *time.Duration
	monitorNets                        *string
}

func addRTCFlags(fs *flag.FlagSet) *rtcFlags {
	return &rtcFlags{
		fs:          fs,
		udpPort:     fs.Int("rtc-udp-port", envInt("CONFER_RTC_UDP_PORT", sfu.DefaultUDPPort), "the one UDP port of all ICE traffic of the SFU; 0 picks a free one (env CONFER_RTC_UDP_PORT)"),
		tcpPort:     fs.Int("rtc-tcp-port", envInt("CONFER_RTC_TCP_PORT", sfu.DefaultTCPPort), "ICE-TCP fallback port; 0 picks a free one, -1 disables (env CONFER_RTC_TCP_PORT)"),
		publicIPs:   fs.String("rtc-public-ip", envOr("CONFER_RTC_PUBLIC_IP", ""), "public addresses of a 1:1 NAT to advertise, comma-separated (env CONFER_RTC_PUBLIC_IP)"),
		stun:        fs.String("rtc-stun", envOr("CONFER_RTC_STUN", ""), "STUN server URLs, comma-separated, e.g. stun:stun.example.com:3478 (env CONFER_RTC_STUN)"),
		turn:        fs.String("rtc-turn", envOr("CONFER_RTC_TURN", ""), "TURN server URLs handed to the join page, comma-separated (env CONFER_RTC_TURN)"),
		turnUser:    fs.String("rtc-turn-username", envOr("CONFER_RTC_TURN_USERNAME", ""), "TURN username (env CONFER_RTC_TURN_USERNAME)"),
		turnCred:    fs.String("rtc-turn-credential", envOr("CONFER_RTC_TURN_CREDENTIAL", ""), "TURN credential (env CONFER_RTC_TURN_CREDENTIAL)"),
		maxSess:     fs.Int("rtc-max-sessions", 1000, "WHIP and WHEP sessions this node serves at once; 503 beyond"),
		mixTalkers:  fs.Int("mix-talkers", envInt("CONFER_MIX_TALKERS", sfu.DefaultMixTalkers), "how many of the loudest talkers the audio mix of SIP terminals, recordings and broadcasts holds at once without a mix and in a smart mix (env CONFER_MIX_TALKERS)"),
		batchIO:     fs.Bool("rtc-batch-io", os.Getenv("CONFER_RTC_BATCH_IO") == "" || envBool("CONFER_RTC_BATCH_IO"), "read and write the ICE UDP port in batches (recvmmsg/sendmmsg, Linux); false: one system call a datagram (env CONFER_RTC_BATCH_IO)"),
		direct:      fs.Bool("rtc-direct-path", os.Getenv("CONFER_RTC_DIRECT_PATH") == "" || envBool("CONFER_RTC_DIRECT_PATH"), "encrypt subscribers' audio with the SFU's own SRTP and queue it on the batched ICE port, past pion's write path; false: pion's (env CONFER_RTC_DIRECT_PATH)"),
		fastChecks:  fs.Bool("rtc-fast-checks", os.Getenv("CONFER_RTC_FAST_CHECKS") == "" || envBool("CONFER_RTC_FAST_CHECKS"), "answer connected sessions' ICE checks on the batched ICE port's reader, past pion's UDP mux and agent loop; false: pion answers every check (env CONFER_RTC_FAST_CHECKS)"),
		fastRTCP:    fs.Bool("rtc-fast-rtcp", os.Getenv("CONFER_RTC_FAST_RTCP") == "" || envBool("CONFER_RTC_FAST_RTCP"), "decrypt and handle connected sessions' SRTCP (reports, NACKs, PLIs, TWCC feedback) on the batched ICE port's reader, past pion's UDP mux, ICE, DTLS and SRTP goroutines; false: pion reads it all (env CONFER_RTC_FAST_RTCP)"),
		noRTC:       fs.Bool("no-rtc", false, "run without real media: no SFU, WHIP, WHEP or join page"),
		monitorNets: fs.String("monitor-rtp-nets", envOr("CONFER_MONITOR_RTP_NETS", "private"), "networks (CIDR, comma-separated) monitors may send RTP to; \"private\": loopback, private and link-local addresses; \"none\": no monitor media (env CONFER_MONITOR_RTP_NETS)"),
		mediaLease:  fs.Duration("media-lease", envDuration("CONFER_MEDIA_LEASE", rtc.DefaultLease), "with several nodes: how long this node's ownership of a conference's media holds without renewal; when the owner stops, another node takes its conferences over once it lapses (env CONFER_MEDIA_LEASE)"),
		mediaURL:    fs.String("media-url", envOr("CONFER_MEDIA_URL", ""), "with several nodes on one database: the base URL (scheme://host:port) at which clients and the other nodes reach this node's media plane; a conference's media lives on one node, the others redirect to it (env CONFER_MEDIA_URL)"),
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// config is the SFU configuration the flags describe.
func (f *rtcFlags) config() (sfu.Config, error) {
	c := sfu.Config{UDPPort: *f.udpPort, TCPPort: *f.tcpPort, MaxSessions: *f.maxSess, MixTalkers: *f.mixTalkers, Loopback: true,
		PlainUDP: !*f.batchIO, NoDirectPath: !*f.direct, NoFastChecks: !*f.fastChecks, NoFastRTCP: !*f.fastRTCP}
	if c.UDPPort < 0 || c.UDPPort > 65535 || c.TCPPort > 65535 {
		return c, fmt.Errorf("--rtc-udp-port and --rtc-tcp-port must be ports")
	}
	if c.MixTalkers < 1 || c.MixTalkers > 64 {
		return c, fmt.Errorf("--mix-talkers: %d is not between 1 and 64", c.MixTalkers)
	}
	if *f.mediaLease < time.Second || *f.mediaLease > 5*time.Minute {
		return c, fmt.Errorf("--media-lease: %v is not between 1s and 5m", *f.mediaLease)
	}
	if u := *f.mediaURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || (p.Path != "" && p.Path != "/") {
			return c, fmt.Errorf("--media-url: %q is not an http(s)://host[:port] URL", u)
		}
	}
	for _, ip := range splitList(*f.publicIPs) {
		if net.ParseIP(ip) == nil {
			return c, fmt.Errorf("--rtc-public-ip: %q is not an IP address", ip)
		}
		c.PublicIPs = append(c.PublicIPs, ip)
	}
	if urls := splitList(*f.stun); len(urls) > 0 {
		c.ICEServers = append(c.ICEServers, webrtc.ICEServer{URLs: urls})
	}
	if urls := splitList(*f.turn); len(urls) > 0 {
		c.ICEServers = append(c.ICEServers, webrtc.ICEServer{URLs: urls, Username: *f.turnUser, Credential: *f.turnCred})
	}
	return c, nil
}

// monitorNetworks are the destinations --monitor-rtp-nets allows
// (docs/live.md "Monitors"): "private" is vc.DefaultMonitorNets, "none"
// (or nothing) an empty list.
func (f *rtcFlags) monitorNetworks() ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range splitList(*f.monitorNets) {
		switch s {
		case "private":
			out = append(out, vc.DefaultMonitorNets...)
		case "none":
		default:
			p, err := netip.ParsePrefix(s)
			if err != nil {
				return nil, fmt.Errorf("--monitor-rtp-nets: %q is not a network (CIDR), \"private\" or \"none\"", s)
			}
			out = append(out, p.Masked())
		}
	}
	if out == nil {
		out = []netip.Prefix{} // none: monitors keep their records and WHEP links only
	}
	return out, nil
}

// portsDefault tells whether the operator left both ports at their
// defaults: then a port taken by another process (a second node on one
// laptop) falls back to free ports instead of failing the start.
func (f *rtcFlags) portsDefault() bool {
	set := false
	f.fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "rtc-udp-port" || fl.Name == "rtc-tcp-port" {
			set = true
		}
	})
	return !set && *f.udpPort == sfu.DefaultUDPPort && *f.tcpPort == sfu.DefaultTCPPort
}

func addrInUse(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }

func envInt(name string, def int) int {
	if v, ok := os.LookupEnv(name); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}
