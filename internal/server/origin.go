package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/confer-platform/confer/internal/system"
	"github.com/confer-platform/confer/internal/wire"
)

// Browsers (issue 38 items 1 and 10; docs/api.md "Browsers"): a request
// that changes state and carries the login cookie must come from a page
// of this origin, or of an origin Config.AllowedOrigins names, so that a
// page of another site (or another port of this host) cannot act with an
// administrator's login (cross-site request forgery). Under TLS every
// reply tells the browser to come back over HTTPS only (HSTS).

// CodeCrossOrigin answers a cookie-carrying request that changes state
// from a page of another origin. Confer's own (docs/errors.md).
const CodeCrossOrigin = 90401

// hstsMaxAge is the Strict-Transport-Security lifetime: one year.
const hstsMaxAge = "max-age=31536000"

// browserGuard is the origin check of cookie-carrying writes and HSTS.
type browserGuard struct {
	allowed   map[string]bool
	ancestors string
}

// newBrowserGuard reads the allowed origins of the configuration.
func (s *Server) newBrowserGuard() browserGuard {
	allowed := map[string]bool{}
	ancestors := "frame-ancestors 'self'"
	for _, o := range s.cfg.AllowedOrigins {
		o = strings.ToLower(strings.TrimSuffix(o, "/"))
		allowed[o] = true
		ancestors += " " + o
	}
	return browserGuard{allowed: allowed, ancestors: ancestors}
}

// check sets HSTS and the join page's framing policy on w, and answers a
// cross-origin write carrying the login cookie (false: r is answered).
func (g browserGuard) check(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, bool) {
	if r.TLS != nil {
		w.Header().Set("Strict-Transport-Security", hstsMaxAge)
	}
	if strings.HasPrefix(r.URL.Path, "/rtc/join/") {
		// The join page may be framed by this origin and the allowed
		// ones only (issue 38 item 13): a second policy, which the
		// browser enforces beside the page's own.
		w = &addPolicy{ResponseWriter: w, policy: g.ancestors}
	}
	if changesState(r.Method) && carriesLogin(r) && !fromHere(r, g.allowed) {
		wire.WriteError(w, wire.Errorf(CodeCrossOrigin, "cross-origin request refused: a request carrying the login cookie comes from a page of another origin (Origin %q, Sec-Fetch-Site %q)",
			r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site")))
		return w, false
	}
	return w, true
}

// changesState is every method but the safe ones (RFC 9110 section 9.2.1).
func changesState(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

func carriesLogin(r *http.Request) bool {
	_, err := r.Cookie(system.CookieName)
	return err == nil
}

// fromHere tells whether a request comes from a page of this origin or an
// allowed one. Sec-Fetch-Site (Fetch Metadata), when the browser sends
// it, must be same-origin or none (typed by the user); "same-site" is
// another port or subdomain. Origin, when present, must name the host the
// request reached or an allowed origin. A client that sends neither (not
// a browser, or a browser too old for both) passes: SameSite=Lax keeps
// the cookie off a cross-site POST in browsers since 2020.
func fromHere(r *http.Request, allowed map[string]bool) bool {
	origin := strings.ToLower(r.Header.Get("Origin"))
	if allowed[origin] {
		return true
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// loginCookie sets the attributes every login cookie carries: SameSite
// Lax, and Secure when the request came over TLS (or through a proxy that
// terminated it, X-Forwarded-Proto).
func loginCookie(c *http.Cookie, r *http.Request) {
	c.SameSite = http.SameSiteLaxMode
	c.Secure = r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

// addPolicy adds a Content-Security-Policy to a reply when its header is
// written, after whatever policy the handler set.
type addPolicy struct {
	http.ResponseWriter
	policy string
	done   bool
}

func (a *addPolicy) WriteHeader(code int) {
	if !a.done {
		a.done = true
		a.Header().Add("Content-Security-Policy", a.policy)
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *addPolicy) Write(b []byte) (int, error) {
	if !a.done {
		a.WriteHeader(http.StatusOK)
	}
	return a.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (a *addPolicy) Unwrap() http.ResponseWriter { return a.ResponseWriter }
