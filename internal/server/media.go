package server

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/sip"
)

// The media plane of the node (docs/media.md "Wiring"): the SFU serves
// participants who arrive on their own (the join page, WHIP, WHEP), the
// configured or simulated backend the numbers the engine dials; the SFU's
// reports reach the engine through rtc.Events.

// rtcTokens are the media tokens of vc's rtc_tokens extension.
func (s *Server) rtcTokens() rtc.Tokens {
	return rtc.Tokens{Store: s.cfg.Store, Clock: s.cfg.Clock, PerConf: s.limits.RTCTokensPerConf}
}

// newMedia opens the SFU and returns the engine's media backend maker.
func (s *Server) newMedia(cfg Config) (func(media.Events) media.Backend, error) {
	s.rtcAuth = &rtc.Authorizer{Tokens: s.rtcTokens(), Auth: s.auth}
	dialled := cfg.Media
	switch {
	case dialled != nil:
	case cfg.SimulatedTerminals:
		dialled = media.Simulation(cfg.Store, cfg.Clock)
	default:
		dialled = media.NoSimulation() // an unroutable number is offline (docs/sip.md)
	}
	if cfg.NoRTC {
		return dialled, nil
	}
	ev := &rtc.Events{Log: s.log}
	s.owners = &rtc.Owners{Store: cfg.Store, Clock: cfg.Clock, Lease: cfg.MediaLease, Log: s.log,
		TookOver: s.mediaTookOver, Lost: s.mediaLost}
	s.owners.SetSelf(cfg.MediaURL)
	cfg.RTC.Locate = s.owners.Locate
	if cfg.RTC.Log == nil {
		cfg.RTC.Log = s.log // WHIP, WHEP and join requests, participants' drops
	}
	sf, err := sfu.New(cfg.RTC, s.rtcAuth, ev)
	if err != nil {
		return nil, err
	}
	s.sfu = sf
	s.rtcAuth.Sessions, s.rtcAuth.MaxSessions = sf.ConfSessions, cfg.RTC.MaxSessions // the domain's share (rtc.Authorizer)
	// The compositor (docs/composition.md): without ffmpeg
	// the composed picture is refused and single-picture receivers get
	// the speaker.
	if comp, err := rtc.NewComposer(sf, s.log, rtc.ComposerConfig{}); err != nil {
		s.log.Warn("pictures are not composed on this node", "err", err)
	} else {
		s.composer = comp
		sf.SetComposer(comp)
	}
	if cfg.SIP != nil {
		ua, err := sip.New(*cfg.SIP, sip.Deps{Store: cfg.Store, Log: s.log, Simulated: cfg.SimulatedTerminals, Bridge: rtc.SIPBridge{SFU: sf}, Credentials: s.auth,
			Confs: rtc.SIPConferences{Engine: func() *engine.Engine { return s.engine }, Owners: s.owners,
				Rooms: func(ctx context.Context, number string, may func(string) bool) (bool, error) {
					return s.mc.StartRoom(ctx, number, may)
				}}})
		if err != nil {
			_ = sf.Close()
			return nil, err
		}
		s.sip = ua
		s.owners.SetSIP(sipAddr(cfg.SIP.PublicIP, ua.Addr(), cfg.MediaURL))
	}
	return func(events media.Events) media.Backend {
		ev.Engine = events
		b := &rtc.Backend{SFU: sf, Dialled: dialled(events), Owners: s.owners}
		if s.sip != nil {
			s.sip.SetEvents(events) // it serves from Start on
			b.SIP = s.sip
		}
		return b
	}, nil
}

// mediaTookOver tells this node's SFU, which just took a conference over
// from a node whose lease lapsed, what the conference shows and hears
// (docs/media-nodes.md "Failover").
func (s *Server) mediaTookOver(ctx context.Context, confID string) {
	if s.vc == nil {
		return
	}
	if err := s.vc.MediaMoved(ctx, confID); err != nil {
		s.log.Warn("rtc: telling the media plane of a conference taken over", "conf_id", confID, "err", err)
	}
}

// mediaLost ends this node's sessions and SIP calls of a conference
// another node took over (this node's lease lapsed): their clients come
// back through the new owner.
func (s *Server) mediaLost(confID string) {
	if s.vc != nil {
		s.vc.MediaLost(confID) // this node's recording parts end quietly: the new owner records the next
	}
	if s.sip != nil {
		s.sip.EndConference(confID)
	}
	if s.sfu != nil {
		_ = s.sfu.EndConference(confID)
	}
}

// SIP returns the node's SIP user agent, nil when it runs none.
func (s *Server) SIP() *sip.UA { return s.sip }

// rtcHandler serves /rtc/ with the SFU's handler, and the controls other
// nodes pass on at rtc.PathOwner; nil without media.
func (s *Server) rtcHandler() http.Handler {
	if s.sfu == nil {
		return nil
	}
	rtcH := s.sfu.Handler()
	var sp rtc.SIP // a nil *sip.UA is no user agent
	if s.sip != nil {
		sp = s.sip
	}
	ownerH := s.owners.Handler(s.sfu, sp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, rtc.PathOwner) {
			ownerH.ServeHTTP(w, r) // controls passed on by the other nodes
			return
		}
		rtcH.ServeHTTP(w, r)
	})
}

// closeRTC ends every media session and closes the ICE ports.
func (s *Server) closeRTC() {
	if s.sip != nil {
		_ = s.sip.Close()
	}
	s.closeLive()
	if s.composer != nil {
		s.composer.Close()
	}
	if s.sfu != nil {
		_ = s.sfu.Close()
	}
}

// SetMediaURL sets the URL at which this node's media plane is reached
// (Config.MediaURL), for a node whose address is known only once it
// listens (the tests' nodes).
func (s *Server) SetMediaURL(mediaURL string) {
	if s.owners != nil {
		s.owners.SetSelf(mediaURL)
		if s.sip != nil {
			s.owners.SetSIP(sipAddr(s.cfg.SIP.PublicIP, s.sip.Addr(), mediaURL))
		}
	}
}

// sipAddr is the "host:port" other nodes send this node's SIP callers to:
// the public address, else the listening one, else (listening on every
// address) the host of the media URL.
func sipAddr(public string, l *net.UDPAddr, mediaURL string) string {
	host := public
	if host == "" && l.IP != nil && !l.IP.IsUnspecified() {
		host = l.IP.String()
	}
	if host == "" {
		if u, err := url.Parse(mediaURL); err == nil {
			host = u.Hostname()
		}
	}
	if host == "" {
		return ""
	}
	return net.JoinHostPort(host, strconv.Itoa(l.Port))
}

// SFU returns the node's SFU, nil with NoRTC.
func (s *Server) SFU() *sfu.SFU { return s.sfu }
