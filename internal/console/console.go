// Package console serves the operator console, a browser application
// embedded in the binary, at /console/ (docs/console.md). The console speaks
// only the public API and push (CometD at /api/v1/publish); the one thing
// it gets from this package besides its files is an account_token of the
// node's own license (auth.NodeToken), so that no license secret reaches
// the browser.
package console

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// Prefix is where the console is served.
const Prefix = "/console/"

//go:embed web
var files embed.FS

// Node is what the console needs of the node's authentication
// (auth.Service): tokens of its own license, and ending a session.
type Node interface {
	NodeToken(ctx context.Context) (string, error)
	CheckToken(ctx context.Context, token string) error
	EndSession(ctx context.Context, cookie string) error
}

// tokens hands out one account_token of the node's license to every
// browser while it stays valid (each hand-out renews it), so that requests
// to /console/token, which need no credentials, cannot fill the token table.
// The token is no secret: it opens only the login request, and what a
// request may do is decided by its session.
type tokens struct {
	node Node
	mu   sync.Mutex
	tok  string
}

func (t *tokens) get(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != "" && t.node.CheckToken(ctx, t.tok) == nil {
		return t.tok, nil
	}
	tok, err := t.node.NodeToken(ctx)
	if err != nil {
		return "", err
	}
	t.tok = tok
	return tok, nil
}

// cookieName is the login session's cookie (seed 000 "Authentication" 4).
const cookieName = "SSO_COOKIE_KEY"

// Mount returns a handler that serves the console under Prefix and
// passes every other request to next.
func Mount(next http.Handler, node Node) http.Handler {
	web, err := fs.Sub(files, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	static := http.StripPrefix(Prefix, http.FileServerFS(web))
	toks := &tokens{node: node}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == strings.TrimSuffix(Prefix, "/"):
			http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
		case p == Prefix+"token":
			serveToken(w, r, toks)
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

// serveToken answers POST /console/token with {"account_token": ...}. It
// refuses other methods and requests from pages of another origin, which
// could otherwise use the node's license (the reply is not readable
// cross-origin anyway; this keeps the token table clean).
func serveToken(w http.ResponseWriter, r *http.Request, toks *tokens) {
	if !postFromHere(w, r) {
		return
	}
	tok, err := toks.get(r.Context())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(map[string]any{"success": 0, "description": "the node could not issue a token"})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"success": 1, "account_token": tok})
}

// sameOrigin tells whether a request comes from a page of this host: its
// Origin header, when present, names the host the request was sent to.
func sameOrigin(r *http.Request) bool {
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
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
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(map[string]any{"success": 1})
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
