package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/nms"
	"github.com/confer-platform/confer/internal/nms/node"
	"github.com/confer-platform/confer/internal/ops"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/server"
	"github.com/confer-platform/confer/internal/sip"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/metered"
	"github.com/confer-platform/confer/internal/store/sqlstore"
)

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("serve", stderr)
	addr := fs.String("addr", envOr("CONFER_ADDR", defaultAddr), "listen address (env CONFER_ADDR)")
	db := dbFlag(fs)
	rtcF := addRTCFlags(fs) // rtc_flags.go
	sipF := addSIPFlags(fs) // sip_flags.go
	simulated := fs.Bool("simulated-terminals", envBool("CONFER_SIMULATED_TERMINALS"), "numbers no real endpoint takes are played by the simulated terminals and their directory; off, they go offline with a reason (env CONFER_SIMULATED_TERMINALS; docs/sip.md)")
	rel := fs.String("release", envOr("CONFER_RELEASE", release.Latest.String()), "platform release to emulate (env CONFER_RELEASE)")
	def := auth.DefaultConfig()
	tokenTTL := fs.Duration("token-ttl", envDuration("CONFER_TOKEN_TTL", def.TokenTTL), "idle lifetime of an account_token (env CONFER_TOKEN_TTL)")
	sessionTTL := fs.Duration("session-ttl", envDuration("CONFER_SESSION_TTL", def.SessionTTL), "idle lifetime of a login session (env CONFER_SESSION_TTL)")
	maxFail := fs.Int("login-max-failures", def.MaxFailures, "failed logins before an account is locked")
	lockFor := fs.Duration("login-lock", envDuration("CONFER_LOGIN_LOCK", def.LockFor), "how long a locked account stays locked (env CONFER_LOGIN_LOCK)")
	verFor := fs.Duration("verified-for", envDuration("CONFER_VERIFIED_FOR", def.VerifiedFor), "how long a password or license secret that passed bcrypt is checked from memory (an HMAC, never the secret) for the same stored hash; 0: bcrypt every time (env CONFER_VERIFIED_FOR; docs/api.md)")
	thrFree := fs.Int("login-throttle-free", def.ThrottleFree, "failed logins (HTTP and SIP) of one client address for one user name before each further one doubles the wait (docs/api.md)")
	thrClientFree := fs.Int("login-throttle-client-free", def.ThrottleClientFree, "failed logins of one client address, any user names, before the same backoff")
	thrMax := fs.Duration("login-throttle-max", def.ThrottleMax, "the longest wait of the login throttle's backoff")
	verMax := fs.Int("verified-max", def.VerifiedMax, "most verified secrets kept in memory (one per license or account)")
	cdef := engine.DefaultConfig()
	numMin := fs.Int64("conf-number-min", cdef.NumberMin, "lowest conference number (conf_id)")
	numMax := fs.Int64("conf-number-max", cdef.NumberMax, "highest conference number (conf_id)")
	maxConfs := fs.Int("max-confs", cdef.MaxConfs, "concurrent running conferences the platform can hold")
	maxPorts := fs.Int("max-ports", cdef.MaxPorts, "terminal ports across running conferences")
	historyDays := fs.Int("history-days", envInt("CONFER_HISTORY_DAYS", int(engine.DefaultHistoryRetention/(24*time.Hour))), "days an ended conference's history and call records are kept; 0 keeps none (env CONFER_HISTORY_DAYS; docs/conferences.md \"History\")")
	domainShare := fs.Int("domain-share", cdef.DomainShare, "percent of --max-confs and --max-ports one user domain may take while the platform has several (beyond: 27505, 27506, 20301); 0 or 100: no share (docs/operations.md \"Limits\")")
	auditDays := fs.Int("audit-days", envInt("CONFER_AUDIT_DAYS", int(server.DefaultAuditRetention/(24*time.Hour))), "days the stored audit trail keeps an operator's action; 0 keeps none (the log lines are written regardless; env CONFER_AUDIT_DAYS; docs/operations.md \"Audit trail\")")
	nodeName := fs.String("node-name", envOr("CONFER_NODE_NAME", ""), "name of this node in network management (env CONFER_NODE_NAME; default: the host name)")
	roomMoid := fs.String("machine-room-moid", envOr("CONFER_MACHINE_ROOM_MOID", ""), "moid of this node's machine room (env CONFER_MACHINE_ROOM_MOID)")
	roomName := fs.String("machine-room-name", envOr("CONFER_MACHINE_ROOM_NAME", ""), "name of this node's machine room (env CONFER_MACHINE_ROOM_NAME)")
	platformDomain := fs.String("platform-domain", envOr("CONFER_PLATFORM_DOMAIN", auth.DefaultDomain), "user domain whose administrators administer the platform: only they see the servers, their addresses and load, and the platform's ports in nms; others get 20005 (env CONFER_PLATFORM_DOMAIN; docs/nms.md)")
	location := fs.String("location", envOr("CONFER_LOCATION", ""), "where this node is, e.g. a province (env CONFER_LOCATION)")
	logFormat := fs.String("log-format", envOr("CONFER_LOG_FORMAT", "text"), "log format, text or json (env CONFER_LOG_FORMAT)")
	tlsCert := fs.String("tls-cert", envOr("CONFER_TLS_CERT", ""), "PEM certificate (chain) file; with --tls-key, serve HTTPS (env CONFER_TLS_CERT)")
	tlsKey := fs.String("tls-key", envOr("CONFER_TLS_KEY", ""), "PEM private key file of --tls-cert (env CONFER_TLS_KEY)")
	redirectAddr := fs.String("http-redirect-addr", envOr("CONFER_HTTP_REDIRECT_ADDR", ""), "with TLS, also listen here for plain HTTP and redirect it to HTTPS (env CONFER_HTTP_REDIRECT_ADDR)")
	publicHost := fs.String("public-host", envOr("CONFER_PUBLIC_HOST", ""), "with --http-redirect-addr, the host[:port] plain HTTP is redirected to (env CONFER_PUBLIC_HOST; default: the TLS listener's address, or the certificate's first name)")
	allowedOrigins := fs.String("allowed-origins", envOr("CONFER_ALLOWED_ORIGINS", ""), "comma-separated origins (scheme://host[:port]) besides conferd's own whose pages may send cookie-carrying requests that change state (env CONFER_ALLOWED_ORIGINS; docs/api.md \"Browsers\")")
	configFile := fs.String("config", envOr("CONFER_CONFIG", ""), "config file of \"flag = value\" lines; flags and environment take precedence (env CONFER_CONFIG; docs/operations.md)")
	limits := addLimitFlags(fs) // limits.go
	filesDir := fs.String("files-dir", envOr("CONFER_FILES_DIR", ""), "folder of meeting files (env CONFER_FILES_DIR; default: files/ beside a SQLite database, else confer-data/files)")
	recF := addRecFlags(fs)          // rec_flags.go
	gcF := addGCFlags(fs)            // gc.go
	cpuProfile := addProfileFlag(fs) // profile.go
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *configFile != "" {
		given := db.dsn
		if err := applyConfig(fs, *configFile); err != nil {
			fmt.Fprintf(stderr, "conferd: %v\n", err)
			return exitUsage
		}
		if db.dsn != given { // the config file named it
			db.configured = db.dsn
		}
	}
	// Log lines are written together every few milliseconds, warnings
	// and errors at once (ops.LineBuffer); what serve writes to stderr
	// itself goes through the same buffer, in order.
	lines := ops.NewLineBuffer(stderr, logDelay)
	defer lines.Flush()
	stderr = lines
	logger, err := newLogger(*logFormat, stderr, lines)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	if (*tlsCert == "") != (*tlsKey == "") || (*redirectAddr != "" && *tlsCert == "") {
		fmt.Fprintln(stderr, "conferd: --tls-cert and --tls-key go together; --http-redirect-addr needs them")
		return exitUsage
	}
	if *numMin < 1 || *numMax < *numMin || *maxConfs < 1 || *maxPorts < 1 {
		fmt.Fprintln(stderr, "conferd: conference numbers, --max-confs and --max-ports must be positive ranges")
		return exitUsage
	}
	if *domainShare < 0 || *domainShare > 100 {
		fmt.Fprintln(stderr, "conferd: --domain-share is a percentage, 0 to 100")
		return exitUsage
	}
	if err := errors.Join(limits.check(), recF.check(), gcF.check(), checkOrigins(splitList(*allowedOrigins))); err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	if *filesDir == "" {
		*filesDir = filepath.Join("confer-data", "files")
		if !sqlstore.IsPostgres(db.dsn) {
			*filesDir = filepath.Join(filepath.Dir(db.dsn), "files")
		}
	}
	port := 0
	if _, p, err := net.SplitHostPort(*addr); err == nil {
		port, _ = strconv.Atoi(p)
	}
	dataDir := "."
	if !sqlstore.IsPostgres(db.dsn) {
		dataDir = filepath.Dir(db.dsn)
	}
	r, err := release.Parse(*rel)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	if *maxFail < 1 || *thrFree < 1 || *thrClientFree < 1 || *thrMax < time.Second {
		fmt.Fprintln(stderr, "conferd: --login-max-failures and the --login-throttle-*-free counts must be at least 1, --login-throttle-max at least 1s")
		return exitUsage
	}
	if *verFor < 0 || *verMax < 0 {
		fmt.Fprintln(stderr, "conferd: --verified-for and --verified-max must not be negative")
		return exitUsage
	}
	st, ok := db.open(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer st.Close()
	gcF.apply(logger) // gc.go; after the usage checks and the store: their errors are one line
	stopProfile, err := startProfile(*cpuProfile)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	defer stopProfile()
	if err := bootstrap(ctx, st, stdout); err != nil {
		fmt.Fprintf(stderr, "conferd: first-start setup: %v\n", err)
		return 1
	}
	lim, err := limits.server(*filesDir, logger)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return 1
	}
	storeMetrics := metered.NewMetrics() // store latency and failures at /metrics
	rtcCfg, err := rtcF.config()
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	// A node whose API listens on loopback keeps its media ports there
	// too (docs/media.md "Configuration").
	rtcCfg.ListenIP = loopbackIP(*addr)
	monitorNets, err := rtcF.monitorNetworks()
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	sipCfg, err := sipF.config(*rtcF.noRTC, *tlsCert, *tlsKey)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return exitUsage
	}
	scfg := server.Config{
		Store: metered.Wrap(st, storeMetrics), Clock: clock.Real{}, Release: r, Logger: logger,
		Auth: auth.Config{TokenTTL: *tokenTTL, SessionTTL: *sessionTTL, MaxFailures: *maxFail, LockFor: *lockFor,
			VerifiedFor: *verFor, VerifiedMax: *verMax,
			ThrottleFree: *thrFree, ThrottleClientFree: *thrClientFree, ThrottleMax: *thrMax},
		Conference: engine.Config{NumberMin: *numMin, NumberMax: *numMax, MaxConfs: *maxConfs, MaxPorts: *maxPorts, Quota: limits.quota(),
			HistoryRetention: historyRetention(*historyDays), DomainShare: *domainShare},
		AuditRetention: historyRetention(*auditDays),
		MC:             mc.Config{FilesDir: *filesDir, MaxFilesPerDomain: limits.filesQuota()},
		Limits:         lim,
		NMS: nms.Config{Config: node.Config{Name: *nodeName, MachineRoomMoid: *roomMoid, MachineRoomName: *roomName,
			Location: *location, Port: port, DiskPath: dataDir}, PlatformDomain: *platformDomain},
		SimulatedTerminals: *simulated,
		RTC:                rtcCfg, NoRTC: *rtcF.noRTC, MediaURL: *rtcF.mediaURL, MediaLease: *rtcF.mediaLease, Recording: recF.config(*filesDir), SIP: sipCfg,
		MonitorNets: monitorNets, AllowedOrigins: splitList(*allowedOrigins),
	}
	srv, err := server.New(scfg)
	// A default port that is taken (another conferd on this laptop) falls
	// back to a free one, for the part whose port it is: the SFU's or the
	// SIP agent's, or its TLS port (each is opened in turn, so up to three
	// retries).
	for retry := 0; retry < 3 && err != nil && addrInUse(err); retry++ {
		switch {
		case strings.HasPrefix(err.Error(), "sfu:") && rtcF.portsDefault() && scfg.RTC.UDPPort != 0:
			logger.Warn("the SFU's default ports are taken: using free ones (set --rtc-udp-port and --rtc-tcp-port)", "err", err)
			scfg.RTC.UDPPort, scfg.RTC.TCPPort = 0, 0
		case strings.HasPrefix(err.Error(), "sip: listen tls") && sipF.tlsAddrDefault() && scfg.SIP.TLSAddr == sip.DefaultTLSAddr:
			logger.Warn("the SIP over TLS port 5061 is taken: using a free one (set --sip-tls-addr)", "err", err)
			c := *scfg.SIP
			c.TLSAddr = ":0"
			scfg.SIP = &c
		case strings.HasPrefix(err.Error(), "sip:") && !strings.HasPrefix(err.Error(), "sip: listen tls") && scfg.SIP != nil && sipF.addrDefault() && scfg.SIP == sipCfg:
			logger.Warn("the SIP port 5060 is taken: using a free one (set --sip-addr)", "err", err)
			host, _, _ := net.SplitHostPort(sipCfg.Addr)
			c := *sipCfg
			c.Addr = net.JoinHostPort(host, "0")
			scfg.SIP = &c
		default:
			retry = 3 // not a default port of ours: report it
			continue
		}
		srv, err = server.New(scfg)
	}
	if err != nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return 1
	}
	srv.Metrics().Registry().MustRegister(storeMetrics.Collectors()...)
	srv.Metrics().Registry().MustRegister(st.Collectors()...) // the group commit (docs/operations.md)
	if sf := srv.SFU(); sf != nil {
		logger.Info("media: WHIP, WHEP and the join page at /rtc/", "ice_udp", sf.UDPAddrs()) // docs/media.md
	}
	if ua := srv.SIP(); ua != nil {
		logger.Info("sip: user agent listening, UDP and TCP", "addr", ua.Addr().String()) // docs/sip.md
		if a := ua.TLSAddr(); a != nil {
			logger.Info("sip: user agent listening, TLS", "addr", a.String())
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "conferd: listen %s: %v\n", *addr, err)
		return exitUsage
	}
	ln = srv.WrapListener(ln) // connection caps (docs/operations.md "Limits")
	hs := srv.HTTPServer()
	scheme := "http"
	var tlsPair tls.Certificate
	if *tlsCert != "" {
		scheme = "https"
		if tlsPair, err = tls.LoadX509KeyPair(*tlsCert, *tlsKey); err != nil {
			ln.Close()
			fmt.Fprintf(stderr, "conferd: TLS: %v\n", err)
			return exitUsage
		}
	}
	var redirect *http.Server
	var rln net.Listener
	if *redirectAddr != "" {
		if rln, err = net.Listen("tcp", *redirectAddr); err != nil {
			ln.Close()
			fmt.Fprintf(stderr, "conferd: listen %s: %v\n", *redirectAddr, err)
			return exitUsage
		}
		target := redirectTarget(*publicHost, ln.Addr(), tlsPair)
		if target == "" {
			ln.Close()
			rln.Close()
			fmt.Fprintln(stderr, "conferd: --http-redirect-addr: set --public-host (the TLS listener's address is unspecified and the certificate names no host)")
			return exitUsage
		}
		redirect = &http.Server{Handler: redirectHTTPS(target), ReadHeaderTimeout: 10 * time.Second}
	}
	// The node's background work (recordings' recovery, SIP, push) and
	// the time-driven work run in the server's goroutine group: its Stop
	// waits for them before the deferred Close closes the store
	// (docs/architecture.md "One lifecycle").
	if err := srv.Start(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return 1
	}
	srv.Go(func(ctx context.Context) { janitor(ctx, st, srv, logger) })
	srv.Go(func(ctx context.Context) { ticker(ctx, srv, logger) })
	errc := make(chan error, 2)
	go func() {
		if scheme == "https" {
			errc <- hs.ServeTLS(ln, *tlsCert, *tlsKey)
			return
		}
		errc <- hs.Serve(ln)
	}()
	if redirect != nil {
		go func() { errc <- redirect.Serve(rln) }()
		logger.Info("conferd redirecting HTTP to HTTPS", "addr", rln.Addr().String())
	}
	logger.Info("conferd serving", "addr", ln.Addr().String(), "scheme", scheme, "release", r.String(), "api_level", r.Level(),
		"console", consoleURL(scheme, ln.Addr())) // docs/console.md

	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "conferd: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	// SIGINT/SIGTERM: the server stops (held push connects are answered,
	// recordings' files finalised, media closed; a tick in progress sees
	// its context end and returns between two of its conditional writes,
	// what it leaves is due again on any node), then HTTP stops accepting
	// and finishes in-flight requests, then the deferred Close closes the
	// store.
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Stop(sctx); err != nil {
		logger.Error("shutdown: background work still running", "err", err)
	}
	if redirect != nil {
		redirect.Shutdown(sctx)
	}
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		logger.Error("shutdown", "err", err)
	}
	logger.Info("conferd stopped")
	return 0
}

// janitor removes expired tokens and sessions, meeting files that no
// record names, and events older than an hour, every five minutes.
func janitor(ctx context.Context, st store.Store, srv *server.Server, log *slog.Logger) {
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if _, err := st.DeleteExpired(ctx, now); err != nil && ctx.Err() == nil {
				log.Warn("delete expired sessions", "err", err)
			}
			if err := srv.Sweep(ctx); err != nil && ctx.Err() == nil {
				log.Warn("sweep meeting files", "err", err)
			}
			// Push tails the event log within seconds; an hour of events
			// is kept for nodes that lag.
			if el, ok := st.(store.EventLog); ok {
				if _, err := el.PruneEvents(ctx, now.Add(-time.Hour)); err != nil && ctx.Err() == nil {
					log.Warn("prune events", "err", err)
				}
			}
		}
	}
}

// ticker runs the time-driven work (booked starts, duration ends) every
// second.
func ticker(ctx context.Context, srv *server.Server, log *slog.Logger) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := srv.Tick(ctx); err != nil && ctx.Err() == nil {
				log.Warn("time-driven work", "err", err)
			}
		}
	}
}

// consoleURL is the address of the operator console on a listener: a
// listener on every interface is shown as localhost.
func consoleURL(scheme string, a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return scheme + "://" + a.String() + "/console/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "localhost"
	}
	return scheme + "://" + net.JoinHostPort(host, port) + "/console/"
}

// loopbackIP is the host of a listen address when it is an IPv4 loopback
// one (127.0.0.1, localhost), else nil (the SFU's ports are IPv4).
func loopbackIP(addr string) net.IP {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	if host == "localhost" {
		return net.IPv4(127, 0, 0, 1)
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() && ip.To4() != nil {
		return ip
	}
	return nil
}

// historyRetention is --history-days as the engine's retention: 0 keeps
// none (engine.Config.HistoryRetention negative).
func historyRetention(days int) time.Duration {
	if days <= 0 {
		return -1
	}
	return time.Duration(days) * 24 * time.Hour
}
