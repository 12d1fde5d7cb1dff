package sip

import (
	"crypto/tls"
	"fmt"
	"net"
	"strings"

	"github.com/emiago/sipgo/sip"
)

// SIP over TLS (RFC 3261 section 26.2; docs/sip.md "TLS"): with
// Config.TLS the user agent also listens on Config.TLSAddr, answers and
// registers terminals over TLS, and calls over TLS a route that asks for
// it (sips:, transport=tls, or a terminal registered over TLS).

// listenTLS opens the TLS listener.
func (u *UA) listenTLS() error {
	if _, _, err := net.SplitHostPort(u.cfg.TLSAddr); err != nil {
		return fmt.Errorf("sip: --sip-tls-addr %q: %w", u.cfg.TLSAddr, err)
	}
	ln, err := net.Listen("tcp", u.cfg.TLSAddr)
	if err != nil {
		return fmt.Errorf("sip: listen tls: %w", err)
	}
	cfg := u.cfg.TLS.Clone()
	if cfg.MinVersion == 0 {
		cfg.MinVersion = tls.VersionTLS12
	}
	u.tls = tls.NewListener(newLimitedListener(ln, u.limit, &u.cfg, &u.stats.refused), cfg) // limits.go
	u.tlsPort = ln.Addr().(*net.TCPAddr).Port
	return nil
}

// clientTLS is the configuration of the TLS connections Confer opens: the
// terminal's certificate is verified (Config.TLSRoots, else the system's).
func (c *Config) clientTLS() *tls.Config {
	return &tls.Config{RootCAs: c.TLSRoots, MinVersion: tls.VersionTLS12}
}

// TLSAddr returns the address of SIP over TLS; nil without TLS.
func (u *UA) TLSAddr() *net.TCPAddr {
	if u.tls == nil {
		return nil
	}
	return u.tls.Addr().(*net.TCPAddr)
}

// tlsAccount strips what asks for TLS from an account's address
// ("sips:" before it, ";transport=tls" after it).
func tlsAccount(acc string) (string, bool) {
	acc = strings.TrimSpace(acc)
	secure := false
	if l := strings.ToLower(acc); strings.HasPrefix(l, "sips:") {
		acc, secure = acc[5:], true
	} else if strings.HasPrefix(l, "sip:") {
		acc = acc[4:]
	}
	if i := strings.Index(strings.ToLower(acc), ";transport="); i >= 0 {
		secure = secure || strings.EqualFold(acc[i+len(";transport="):], "tls")
		acc = acc[:i]
	}
	return acc, secure
}

// withTLS is a route's URI reached over TLS.
func withTLS(uri sip.Uri) sip.Uri {
	uri.UriParams = sip.NewParams()
	uri.UriParams.Add("transport", "tls")
	return uri
}

// uriTransport is the transport a URI is reached over ("UDP", "TCP",
// "TLS"), for the Contact of a call placed to it.
func uriTransport(uri sip.Uri) string {
	if uri.IsEncrypted() {
		return "TLS"
	}
	if uri.UriParams != nil {
		if t, ok := uri.UriParams.Get("transport"); ok {
			return strings.ToUpper(t)
		}
	}
	return "UDP"
}
