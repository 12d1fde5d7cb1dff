// Package console serves the operator console, a browser application
// embedded in the binary, at /console/ (docs/console.md). The console speaks
// only the public API and push (CometD at /api/v1/publish); what it gets
// from this package besides its files is its login, POST /console/login,
// which answers the account_token of the node's own license made for that
// login alone (auth.ConsoleLogin), so that no license secret reaches the
// browser and no token is shared between browsers (issue 38 item 1).
package console

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/wire"
)

// Prefix is where the console is served.
const Prefix = "/console/"

//go:embed web
var files embed.FS

// Node is what the console needs of the node's authentication
// (auth.Service): its logins and their tokens, and ending a session.
type Node interface {
	ConsoleLogin(ctx context.Context, username, password, client string) (token, cookie string, p *auth.Principal, err error)
	ConsoleToken(ctx context.Context, cookie string) (string, error)
	EndSession(ctx context.Context, cookie string) error
}

// cookieName is the login session's cookie (seed 000 "Authentication" 4).
const cookieName = "SSO_COOKIE_KEY"

// Serves tells whether the console answers r: its pages under Prefix,
// and a browser's GET of / and /favicon.ico (Mount's cases).
func Serves(r *http.Request) bool {
	switch p := r.URL.Path; {
	case p == "/" || p == "/favicon.ico":
		return r.Method == http.MethodGet || r.Method == http.MethodHead
	default:
		return p == strings.TrimSuffix(Prefix, "/") || strings.HasPrefix(p, Prefix)
	}
}

// Mount returns a handler that serves the console under Prefix and
// passes every other request to next.
func Mount(next http.Handler, node Node) http.Handler {
	web, err := fs.Sub(files, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	static := http.StripPrefix(Prefix, http.FileServerFS(web))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			// A person opening the node's address meets the console
			// (docs/console.md); the API has nothing at /.
			http.Redirect(w, r, Prefix, http.StatusFound)
		case p == "/favicon.ico" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			// Browsers ask every page's host for its icon: the console's.
			w.Header().Set("Cache-Control", "max-age=86400")
			http.ServeFileFS(w, r, web, "favicon.ico")
		case p == strings.TrimSuffix(Prefix, "/"):
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
		case p == Prefix+"login":
			serveLogin(w, r, node)
		case p == Prefix+"token":
			serveToken(w, r, node)
		case p == Prefix+"logout":
			serveLogout(w, r, node)
		case strings.HasPrefix(p, Prefix):
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				w.Header().Set("Allow", "GET, HEAD")
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			h := w.Header()
			// The files change only with the binary; revalidate each load.
			h.Set("Cache-Control", "no-cache")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Content-Security-Policy", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'")
			static.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// maxLoginBody bounds the form of POST /console/login.
const maxLoginBody = 4096

// serveLogin answers POST /console/login (form fields username and
// password) as POST /api/v1/system/login answers, with the login's own
// account_token besides, and sets the session cookie. A failure is the
// API's envelope (19002, 10101, 90403, 90423, 90420).
func serveLogin(w http.ResponseWriter, r *http.Request, node Node) {
	if !postFromHere(w, r) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxLoginBody)
	if err := r.ParseForm(); err != nil {
		wire.WriteError(w, wire.Errorf(wire.CodeIllegalBody, "the login form cannot be read: %v", err))
		return
	}
	user, pass := r.PostForm.Get("username"), r.PostForm.Get("password")
	for name, v := range map[string]string{"username": user, "password": pass} {
		if v == "" {
			wire.WriteError(w, wire.InvalidParam(name, "is required"))
			return
		}
	}
	tok, cookie, p, err := node.ConsoleLogin(r.Context(), user, pass, clientAddr(r))
	if err != nil {
		wire.WriteError(w, err)
		return
	}
	http.SetCookie(w, sessionCookie(r, cookie, 0))
	w.Header().Set("Cache-Control", "no-store")
	wire.WriteJSON(w, wire.Success(wire.Object{"account_token": tok, "username": p.Username,
		"userdomainname": p.DomainName, "usermoid": p.AccountMoid, "userdomainmoid": p.DomainMoid}))
}

// serveToken answers POST /console/token with the account_token of the
// request's console login (the join page's chairman controls, docs/media.md):
// 10102 without one.
func serveToken(w http.ResponseWriter, r *http.Request, node Node) {
	if !postFromHere(w, r) {
		return
	}
	cookie := ""
	if c, err := r.Cookie(cookieName); err == nil {
		cookie = c.Value
	}
	tok, err := node.ConsoleToken(r.Context(), cookie)
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		wire.WriteError(w, err)
		return
	}
	wire.WriteJSON(w, wire.Success(wire.Object{"account_token": tok}))
}

// sessionCookie is the login cookie as the API sets it (internal/server
// origin.go): HttpOnly, SameSite=Lax, Secure over TLS; maxAge < 0 drops it.
func sessionCookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: cookieName, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"}
}

// clientAddr is the IP address of r's client.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// sameOrigin tells whether a request comes from a page of this host: its
// Origin header, when present, names the host the request was sent to.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false // another site, or another port of this host (same-site)
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

// serveLogout answers POST /console/logout: the platform API has no log
// out (reference 03), so the console ends the session of the request's
// cookie and tells the browser to drop the cookie.
func serveLogout(w http.ResponseWriter, r *http.Request, node Node) {
	if !postFromHere(w, r) {
		return
	}
	if c, err := r.Cookie(cookieName); err == nil {
		if err := node.EndSession(r.Context(), c.Value); err != nil {
			http.Error(w, "the session could not be ended", http.StatusServiceUnavailable)
			return
		}
	}
	http.SetCookie(w, sessionCookie(r, "", -1))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(struct {
		Success int `json:"success"`
	}{1})
}

// postFromHere refuses, with an answer, a request that is not a POST or
// that comes from a page of another origin.
func postFromHere(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return false
	}
	if !sameOrigin(r) {
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return false
	}
	return true
}
