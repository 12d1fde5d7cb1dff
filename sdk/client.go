package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Version is the version of this SDK, sent in the User-Agent header.
const Version = "0.1.0"

// CookieName is the platform's session cookie.
const CookieName = "SSO_COOKIE_KEY"

// Client calls the platform API. It is safe for concurrent use.
//
// A Client logs in lazily: the first call that needs a session obtains an
// account_token with the license key and secret and logs in with the
// account, keeping the token and the SSO_COOKIE_KEY cookie. When the
// platform answers 10002 (token invalid) or 10102 (not logged in), the
// client logs in again and retries the call once. Heartbeat and KeepAlive
// (or WithKeepAlive) renew the session while the client is idle.
type Client struct {
	base       string
	hc         *http.Client
	key        string
	secret     string
	user       string
	password   string
	level      int
	override   bool
	debug      bool
	userAgent  string
	keepEvery  time.Duration
	loginMu    sync.Mutex // serializes logins
	mu         sync.Mutex // guards the fields below
	token      string
	cookie     string
	generation int // incremented at each login
	info       *SystemLoginReply
	stopKeep   context.CancelFunc
}

// Option configures a Client.
type Option func(*Client)

// WithLicense sets the API license (oauth_consumer_key and
// oauth_consumer_secret) used to obtain account_tokens.
func WithLicense(key, secret string) Option {
	return func(c *Client) { c.key, c.secret = key, secret }
}

// WithAccount sets the account the client logs in as.
func WithAccount(username, password string) Option {
	return func(c *Client) { c.user, c.password = username, password }
}

// WithSession starts the client with an existing account_token and
// SSO_COOKIE_KEY cookie (e.g. a cached session). With a license and an
// account too, the client logs in again when they expire; without, the
// platform's 10002 or 10102 is returned.
func WithSession(token, cookie string) Option {
	return func(c *Client) { c.token, c.cookie = token, cookie }
}

// WithAPILevel sends the API-Level header on every request (docs/api.md
// "Versioning"): the platform then parses parameters and shapes replies as
// that level defines. 0 (the default) sends no header.
func WithAPILevel(level int) Option {
	return func(c *Client) { c.level = level }
}

// WithHTTPClient sets the HTTP client (transport, proxy, TLS, timeouts).
// Its cookie jar, if any, is not needed: the client sends the session
// cookie itself.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithMethodOverride sends PUT and DELETE requests as POST with the query
// parameter _method=PUT or _method=DELETE, for proxies that block those
// methods (seed 000 "Common rules" 6).
func WithMethodOverride() Option {
	return func(c *Client) { c.override = true }
}

// WithDebug puts the client in debug mode: every POST, PUT and DELETE
// (but the token and login requests) carries debug=1, so the platform validates it and executes nothing. A
// request it would refuse returns a *DebugError; one it would accept
// returns nil and leaves the reply empty. GET requests are unaffected.
func WithDebug() Option {
	return func(c *Client) { c.debug = true }
}

// WithKeepAlive renews the session every interval with the heartbeat, in
// the background, from the first login until Close.
func WithKeepAlive(every time.Duration) Option {
	return func(c *Client) { c.keepEvery = every }
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) { c.userAgent = ua }
}

// New returns a client of the platform at baseURL (scheme, host and port,
// e.g. "http://confer.example:8080"). Nothing is sent until the first call.
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		return nil, fmt.Errorf("confer: base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("confer: base URL %q: want http://host[:port] or https://host[:port]", baseURL)
	}
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		base:      strings.TrimRight(u.String(), "/"),
		hc:        http.DefaultClient,
		userAgent: "confer-sdk-go/" + Version,
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// BaseURL returns the platform's base URL.
func (c *Client) BaseURL() string { return c.base }

// APILevel returns the API-Level the client sends (0: none).
func (c *Client) APILevel() int { return c.level }

// Session returns the current account_token and SSO_COOKIE_KEY cookie
// ("" before the first login), e.g. to cache them for WithSession.
func (c *Client) Session() (token, cookie string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token, c.cookie
}

// LoginInfo returns the reply of the client's last login (nil before one,
// and for a client started WithSession that has not logged in since).
func (c *Client) LoginInfo() *SystemLoginReply {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// canLogin tells whether the client has what a login needs.
func (c *Client) canLogin() bool {
	return c.key != "" && c.secret != "" && c.user != "" && c.password != ""
}

// session is the token and cookie a request was sent with.
type session struct {
	token, cookie string
	generation    int
}

func (c *Client) current() session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return session{c.token, c.cookie, c.generation}
}

// Login obtains a new account_token and logs in, replacing the client's
// session. Calls log in by themselves when needed; Login is for callers
// that want to check the credentials first, or the login's reply.
func (c *Client) Login(ctx context.Context) (*SystemLoginReply, error) {
	if _, err := c.relogin(ctx, -1); err != nil {
		return nil, err
	}
	return c.LoginInfo(), nil
}

// ensureSession returns the client's session, logging in when it has none.
func (c *Client) ensureSession(ctx context.Context) (session, error) {
	s := c.current()
	if s.token != "" && s.cookie != "" {
		return s, nil
	}
	return c.relogin(ctx, s.generation)
}

// ensureToken returns the client's session with at least a token, for the
// public endpoints that carry one (login).
func (c *Client) ensureToken(ctx context.Context) (session, error) {
	s := c.current()
	if s.token != "" || c.key == "" {
		return s, nil
	}
	token, err := c.newToken(ctx)
	if err != nil {
		return s, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token == "" {
		c.token = token
	}
	return session{c.token, c.cookie, c.generation}, nil
}

// relogin logs in unless another goroutine did since the session of
// generation seen was found wanting (seen -1 always logs in).
func (c *Client) relogin(ctx context.Context, seen int) (session, error) {
	c.loginMu.Lock()
	defer c.loginMu.Unlock()
	if s := c.current(); seen >= 0 && s.generation != seen && s.token != "" && s.cookie != "" {
		return s, nil
	}
	if !c.canLogin() {
		return session{}, ErrNoCredentials
	}
	token, err := c.newToken(ctx)
	if err != nil {
		return session{}, err
	}
	info := new(SystemLoginReply)
	cookie, err := c.exchange(ctx, epSystemLogin, nil, &SystemLoginRequest{Username: c.user, Password: c.password}, info, session{token: token})
	if err != nil {
		return session{}, err
	}
	if cookie == "" {
		return session{}, &TransportError{Method: "POST", URL: c.base + epSystemLogin.Path, StatusCode: 200,
			Err: errors.New("the login reply set no " + CookieName + " cookie")}
	}
	c.mu.Lock()
	c.token, c.cookie, c.info = token, cookie, info
	c.generation++
	s := session{c.token, c.cookie, c.generation}
	startKeep := c.keepEvery > 0 && c.stopKeep == nil
	var kctx context.Context
	if startKeep {
		kctx, c.stopKeep = context.WithCancel(context.Background())
	}
	c.mu.Unlock()
	if startKeep {
		go c.KeepAlive(kctx, c.keepEvery) //nolint:errcheck // ends with Close
	}
	return s, nil
}

// newToken obtains an account_token with the license.
func (c *Client) newToken(ctx context.Context) (string, error) {
	if c.key == "" || c.secret == "" {
		return "", ErrNoCredentials
	}
	out := new(SystemTokenReply)
	if _, err := c.exchange(ctx, epSystemToken, nil, &SystemTokenRequest{OauthConsumerKey: c.key, OauthConsumerSecret: c.secret}, out, session{}); err != nil {
		return "", err
	}
	if out.AccountToken == "" {
		return "", &TransportError{Method: "POST", URL: c.base + epSystemToken.Path, StatusCode: 200,
			Err: errors.New("the token reply carries no account_token")}
	}
	return out.AccountToken, nil
}

// Heartbeat renews the session and its token (POST
// /api/v1/system/heartbeat). Like any call, it logs in again when the
// session has expired already.
func (c *Client) Heartbeat(ctx context.Context) error { return c.SystemHeartbeat(ctx) }

// KeepAlive sends a heartbeat every interval until ctx ends, and returns
// ctx's error. A failed heartbeat is retried at the next tick.
func (c *Client) KeepAlive(ctx context.Context, every time.Duration) error {
	if every <= 0 {
		return errors.New("confer: KeepAlive interval must be positive")
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			_ = c.Heartbeat(ctx)
		}
	}
}

// Close stops the background heartbeat of WithKeepAlive. The client stays
// usable; the session is not ended (the platform has no logout).
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopKeep != nil {
		c.stopKeep()
		c.stopKeep = nil
	}
	return nil
}
