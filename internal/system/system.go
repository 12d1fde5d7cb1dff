// Package system serves the unified login module (seed 000
// "Authentication"; reference 03-system-login.md) and the version queries
// of every module.
package system

import (
	"context"
	"net/http"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/openapi"
	"github.com/confer-platform/confer/internal/wire"
)

// CookieName is the session cookie (seed 000 "Authentication" 4).
const CookieName = "SSO_COOKIE_KEY"

// cookieExpiresDays is how far ahead the Expires attribute of older releases
// points: 14 days, as in the reference's login example.
const cookieExpiresDays = 14

type handlers struct {
	auth *auth.Service
	clk  clock.Clock
}

// Routes is the system route table: authentication, the OpenAPI document
// and every module's version query. server.New attaches it;
// internal/catalog describes the endpoints.
func Routes(as *auth.Service, clk clock.Clock) api.Routes {
	h := &handlers{auth: as, clk: clk}
	v := api.Typed(version)
	return api.Routes{
		"system.token":           api.Typed(h.token),
		"system.token.heartbeat": api.Done(h.tokenHeartbeat),
		"system.login":           api.Typed(h.login),
		"system.heartbeat":       api.Done(h.heartbeat),
		"system.openapi":         api.Done(openAPI),
		"system.version":         v,
		"mc.version":             v,
		"vc.version":             v,
		"amc.version":            v,
		"vrs.version":            v,
		"upu.version":            v,
		"krtc.version":           v,
		"nms.version":            v,
	}
}

// openAPI answers the OpenAPI document: raw bytes, the wire edge itself,
// so its handler has no reply type.
func openAPI(ctx context.Context, r *api.Request) error {
	r.Raw = openapi.For(r.Platform)
	return nil
}

func (h *handlers) token(ctx context.Context, r *api.Request) (*model.SystemTokenReply, error) {
	var q model.SystemTokenRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	if err := required("oauth_consumer_key", q.OauthConsumerKey, "oauth_consumer_secret", q.OauthConsumerSecret); err != nil {
		return nil, err
	}
	tok, err := h.auth.IssueToken(ctx, q.OauthConsumerKey, q.OauthConsumerSecret)
	if err != nil {
		return nil, err
	}
	return &model.SystemTokenReply{AccountToken: tok}, nil
}

func (h *handlers) tokenHeartbeat(ctx context.Context, r *api.Request) error {
	return h.auth.RenewToken(ctx, r.Path("account_token"), r.Cookie)
}

func (h *handlers) heartbeat(ctx context.Context, r *api.Request) error {
	return h.auth.Heartbeat(ctx, r.Args.Token(), r.Cookie)
}

func (h *handlers) login(ctx context.Context, r *api.Request) (*model.SystemLoginReply, error) {
	// account_token is a common parameter of every request, not a member
	// of the login's request type.
	token, err := r.Args.RequiredString("account_token")
	if err != nil {
		return nil, err
	}
	var q model.SystemLoginRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	if err := required("username", q.Username, "password", q.Password); err != nil {
		return nil, err
	}
	cookie, p, err := h.auth.Login(ctx, token, q.Username, q.Password, r.Client)
	if err != nil {
		return nil, err
	}
	// The cookie carries an Expires date 14 days ahead, as in reference 01
	// 3.1; the compat rules drop it from 6.1.0.4.0 on, and drop the
	// userdomainname, usermoid and userdomainmoid fields before it.
	r.SetCookies = append(r.SetCookies, &http.Cookie{Name: CookieName, Value: cookie, Path: "/", HttpOnly: true,
		Expires: h.clk.Now().Add(cookieExpiresDays * 24 * time.Hour)})
	return &model.SystemLoginReply{
		Username:       p.Username,
		Userdomainname: p.DomainName,
		Usermoid:       p.AccountMoid,
		Userdomainmoid: p.DomainMoid,
	}, nil
}

// required is the first of the (name, value) pairs whose value is empty as
// a missing parameter (90400 naming it), in the order given, as
// wire.Args.RequiredString answers it; nil when every value is set.
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			return wire.InvalidParam(pairs[i], "required parameter is missing")
		}
	}
	return nil
}

// version answers GET /api/{app}/version (seed 000 "Version information").
// Every module's version reply is {version, api_level}; the system's
// generated type serves them all.
func version(ctx context.Context, r *api.Request) (*model.SystemVersionReply, error) {
	return &model.SystemVersionReply{Version: r.Platform.Version(), APILevel: r.Platform.Level()}, nil
}
