package sip

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
)

// Conference is what calling in needs of a conference.
type Conference struct {
	ID       string
	Password string
	Closed   bool // closed_conf: no one may call in (403)
	// Redirect is another node's SIP address ("host:port") that serves
	// the conference's media: the caller is sent there (302).
	Redirect string
}

// ErrNoConference is returned by Conferences.Lookup for a number that is
// no running conference.
var ErrNoConference = errors.New("sip: no conference has the number")

// Conferences finds a running conference by the number a caller dialled,
// and tells the engine's state of a dialled terminal ("online", "calling",
// "idle"; "" none).
type Conferences interface {
	Lookup(ctx context.Context, number string) (Conference, error)
	// StartRoom starts the conference of the virtual meeting room whose
	// number a caller dialled while none runs, when may accepts the
	// room's password (the call-in policy); false: no such room, or not
	// started.
	StartRoom(ctx context.Context, number string, may func(password string) bool) (bool, error)
	State(ctx context.Context, conf, mt string) (string, error)
}

// Deps are what the user agent works with.
type Deps struct {
	Store  store.Store // registrations, credentials, the simulated directory
	Confs  Conferences
	Bridge Bridge // the SFU (bridge.go); nil: signalling only, no media
	Log    *slog.Logger
	// Simulated: the simulated terminals are on, and the numbers of the
	// terminal directory stay theirs (Routes).
	Simulated bool
	// Credentials throttles failed digests with the HTTP logins
	// (nonces.go); nil: no throttle.
	Credentials Credentials
}

// UA is the node's SIP user agent.
type UA struct {
	cfg    Config
	deps   Deps
	log    *slog.Logger
	events media.Events

	ua   *sipgo.UserAgent
	srv  *sipgo.Server
	cli  *sipgo.Client
	udp  net.PacketConn
	tcp  net.Listener
	port int

	tls     net.Listener // SIP over TLS (tls.go); nil without Config.TLS
	tlsPort int

	ctx         context.Context
	cancel      context.CancelFunc
	wg          sync.WaitGroup
	slots       chan struct{} // one per call in progress (Config.MaxDialogs)
	limit       *addrLimiter  // messages per source address (limits.go)
	nonce       []byte        // key of the digest nonces
	nonceCounts nonceCounts   // accepted nonce-counts (nonces.go)
	trunk       trunk         // the registration to a PBX (trunk.go)
	stats       counters

	mu     sync.Mutex
	byMT   map[string]*call // "conf/mt" of the engine's calls
	byID   map[string]*call // Call-ID
	closed bool
}

// New opens the UDP and TCP listeners on cfg.Addr and returns the user
// agent; SetEvents must be called before Serve.
func New(cfg Config, deps Deps) (*UA, error) {
	cfg.defaults()
	if cfg.SRTP != SRTPOptional && cfg.SRTP != SRTPRequired && cfg.SRTP != SRTPOff {
		return nil, fmt.Errorf("%w: %q", ErrSRTPPolicy, cfg.SRTP)
	}
	if cfg.CallIn != CallInOpen && cfg.CallIn != CallInPassword && cfg.CallIn != CallInRegistered {
		return nil, fmt.Errorf("%w: %q", ErrCallInPolicy, cfg.CallIn)
	}
	if deps.Log == nil {
		deps.Log = slog.Default()
	}
	u := &UA{cfg: cfg, deps: deps, log: deps.Log, byMT: map[string]*call{}, byID: map[string]*call{},
		slots: make(chan struct{}, cfg.MaxDialogs), nonce: make([]byte, 32), limit: newAddrLimiter(cfg.RatePerAddress)}
	if _, err := rand.Read(u.nonce); err != nil {
		return nil, err
	}
	if err := u.listen(); err != nil {
		return nil, err
	}
	if cfg.TLS != nil {
		if err := u.listenTLS(); err != nil {
			u.udp.Close()
			u.tcp.Close()
			return nil, err
		}
	}
	host, _, _ := net.SplitHostPort(cfg.Addr)
	hostname := cfg.PublicIP
	if hostname == "" {
		hostname = localIP(host)
	}
	var err error
	stackLog := newSIPLogger(u.log) // redacted, rate-limited (siplog.go)
	u.ua, err = sipgo.NewUA(sipgo.WithUserAgent("Confer"), sipgo.WithUserAgentHostname(hostname), sipgo.WithUserAgenTLSConfig(cfg.clientTLS()),
		sipgo.WithUserAgentTransportLayerOptions(sip.WithTransportLayerLogger(stackLog)),
		sipgo.WithUserAgentTransactionLayerOptions(sip.WithTransactionLayerLogger(stackLog)))
	if err == nil {
		u.srv, err = sipgo.NewServer(u.ua, sipgo.WithServerLogger(stackLog))
	}
	if err == nil {
		u.cli, err = sipgo.NewClient(u.ua, sipgo.WithClientHostname(hostname), sipgo.WithClientPort(u.port), sipgo.WithClientLogger(stackLog))
	}
	if err != nil {
		u.udp.Close()
		u.tcp.Close()
		if u.tls != nil {
			u.tls.Close()
		}
		return nil, err
	}
	u.cli.TxRequester = &sizedRequester{tx: u.ua.TransactionLayer(), tp: u.ua.TransportLayer(), laddr: listenerAddr(u.udp)} // transport.go
	u.ctx, u.cancel = context.WithCancel(context.Background())
	u.routes()
	return u, nil
}

// listen opens UDP and TCP on one port: with port 0 a free one, tried
// again when TCP has the UDP port's number taken.
func (u *UA) listen() error {
	host, port, err := net.SplitHostPort(u.cfg.Addr)
	if err != nil {
		return fmt.Errorf("sip: --sip-addr %q: %w", u.cfg.Addr, err)
	}
	for try := 0; ; try++ {
		udp, err := net.ListenPacket("udp", u.cfg.Addr)
		if err != nil {
			return fmt.Errorf("sip: listen udp %s: %w", u.cfg.Addr, err)
		}
		p := udp.LocalAddr().(*net.UDPAddr).Port
		tcp, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
		if err != nil {
			udp.Close()
			if port == "0" && try < 8 {
				continue
			}
			return fmt.Errorf("sip: listen tcp: %w", err)
		}
		u.udp, u.tcp, u.port = udp, tcp, p
		return nil
	}
}

// SetEvents gives the user agent the engine it reports to.
func (u *UA) SetEvents(ev media.Events) { u.events = ev }

// Serve serves the listeners until Close.
func (u *UA) Serve() {
	// Limits per source address before anything is parsed (limits.go).
	udp := &limitedPacketConn{PacketConn: u.udp, lim: u.limit, dropped: &u.stats.dropped}
	tcp := newLimitedListener(u.tcp, u.limit, &u.cfg, &u.stats.refused)
	u.wg.Go(func() { _ = u.srv.ServeUDP(udp) })
	u.wg.Go(func() { _ = u.srv.ServeTCP(tcp) })
	if u.tls != nil {
		u.wg.Go(func() { _ = u.srv.ServeTLS(u.tls) })
	}
	if u.cfg.RegisterTo != "" {
		u.wg.Go(u.registerLoop)
	}
}

// Addr returns the UDP (and TCP) address the user agent listens on.
func (u *UA) Addr() *net.UDPAddr { return u.udp.LocalAddr().(*net.UDPAddr) }

// Close ends every call (BYE, without reports) and closes the listeners.
func (u *UA) Close() error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil
	}
	u.closed = true
	var all []*call
	for _, c := range u.byID {
		all = append(all, c)
	}
	u.mu.Unlock()
	for _, c := range all {
		c.hangup(endEngine)
	}
	u.unregister() // trunk.go
	u.cancel()
	u.udp.Close()
	u.tcp.Close()
	if u.tls != nil {
		u.tls.Close()
	}
	err := u.ua.Close()
	u.wg.Wait()
	return err
}

// routes registers the request handlers.
func (u *UA) routes() {
	// Every request passes the version, Require and body checks first
	// (conformance.go).
	u.srv.OnInvite(checked(u.onInvite))
	u.srv.OnAck(checked(u.onAck))
	u.srv.OnBye(checked(u.onBye))
	u.srv.OnCancel(checked(func(req *sip.Request, tx sip.ServerTransaction) {
		// The transaction layer answers a CANCEL that matches a pending
		// INVITE; one that matches nothing gets 481 (RFC 3261 section 9.2).
		_ = tx.Respond(sip.NewResponseFromRequest(req, 481, "Call/Transaction Does Not Exist", nil))
	}))
	u.srv.OnOptions(checked(u.onOptions))
	u.srv.OnRegister(checked(u.onRegister))
	u.srv.OnUpdate(checked(u.onUpdate)) // update.go
	u.srv.OnNoRoute(checked(u.onOther))
}

// allowed are the methods the user agent serves (the Allow header).
const allowed = "INVITE, ACK, CANCEL, BYE, OPTIONS, REGISTER, UPDATE"

// onOptions answers a capability query, in a dialog or not.
func (u *UA) onOptions(req *sip.Request, tx sip.ServerTransaction) {
	res := sip.NewResponseFromRequest(req, 200, "OK", nil)
	res.AppendHeader(sip.NewHeader("Allow", allowed))
	res.AppendHeader(sip.NewHeader("Accept", "application/sdp"))
	res.AppendHeader(sip.NewHeader("Accept-Encoding", "identity"))
	res.AppendHeader(sip.NewHeader("Supported", "timer"))
	_ = tx.Respond(res)
}

// knownMethods are RFC 3261 and extension methods the user agent knows
// but does not serve: 405 with Allow; anything else is 501 (RFC 3261
// section 8.2.1).
var knownMethods = map[sip.RequestMethod]bool{sip.SUBSCRIBE: true, sip.NOTIFY: true, sip.REFER: true, sip.INFO: true,
	sip.MESSAGE: true, sip.PRACK: true, sip.PUBLISH: true}

func (u *UA) onOther(req *sip.Request, tx sip.ServerTransaction) {
	code, reason := 501, "Not Implemented"
	if knownMethods[req.Method] {
		code, reason = 405, "Method Not Allowed"
	}
	res := sip.NewResponseFromRequest(req, code, reason, nil)
	res.AppendHeader(sip.NewHeader("Allow", allowed))
	_ = tx.Respond(res)
}

// acquire takes a call slot; false when MaxDialogs calls are in progress.
func (u *UA) acquire() bool {
	select {
	case u.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

// release frees a call slot; it never blocks (a slot is released once per
// call, by its hangup).
func (u *UA) release() {
	select {
	case <-u.slots:
	default:
	}
}

// localIP is the address this node shows a peer: the listen host when it
// is one, else the address of the interface of the default route, else
// loopback.
func localIP(host string) string {
	if ip := net.ParseIP(host); ip != nil && !ip.IsUnspecified() {
		return ip.String()
	}
	if c, err := net.Dial("udp", "192.0.2.1:9"); err == nil { // TEST-NET-1: no packet is sent
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).IP.String()
	}
	return "127.0.0.1"
}

// ipFor is the local address that reaches peer (for SDP and Contact):
// the listen address when it is a loopback one (a node kept to this
// machine: docs/sip.md "Configuration").
func (u *UA) ipFor(peer string) net.IP {
	if ip := u.loopbackListen(); ip != nil {
		return ip
	}
	if u.cfg.PublicIP != "" {
		return net.ParseIP(u.cfg.PublicIP)
	}
	host, _, err := net.SplitHostPort(peer)
	if err != nil {
		host = peer
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return ip
	}
	if c, err := net.Dial("udp", net.JoinHostPort(host, "9")); err == nil {
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).IP
	}
	return net.ParseIP(localIP(""))
}

// loopbackListen is the listen address when it is a loopback one, else nil.
func (u *UA) loopbackListen() net.IP {
	host, _, _ := net.SplitHostPort(u.cfg.Addr)
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return ip
	}
	return nil
}

// bindIP is the address a call's RTP sockets are bound to, given the
// address its SDP advertises: that one, except a public IP (a 1:1 NAT's
// address is no local one), which binds every interface.
func (u *UA) bindIP(advertised net.IP) net.IP {
	if u.cfg.PublicIP != "" && u.loopbackListen() == nil {
		return nil
	}
	return advertised
}

// contact is the Contact header of this node as seen from ip (over TLS
// the TLS port, transport=tls).
func (u *UA) contact(ip net.IP, transport string) sip.ContactHeader {
	port := u.port
	if transport == "TLS" && u.tlsPort != 0 {
		port = u.tlsPort
	}
	h := sip.ContactHeader{Address: sip.Uri{Scheme: "sip", User: "confer", Host: ip.String(), Port: port}}
	if transport != "" && transport != "UDP" {
		h.Address.UriParams = sip.NewParams()
		h.Address.UriParams.Add("transport", transportParam(transport))
	}
	return h
}

func transportParam(t string) string {
	switch t {
	case "TCP":
		return "tcp"
	case "TLS":
		return "tls"
	}
	return "udp"
}
