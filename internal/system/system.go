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
	return api.Routes{
		"system.token":           h.token,
		"system.token.heartbeat": h.tokenHeartbeat,
		"system.login":           h.login,
		"system.heartbeat":       h.heartbeat,
		"system.openapi":         openAPI,
		"system.version":         version,
		"mc.version":             version,
		"vc.version":             version,
		"amc.version":            version,
		"vrs.version":            version,
		"upu.version":            version,
		"krtc.version":           version,
		"nms.version":            version,
	}
}

func openAPI(ctx context.Context, r *api.Request) (wire.Object, error) {
	r.Raw = openapi.For(r.Platform)
	return nil, nil
}

func (h *handlers) token(ctx context.Context, r *api.Request) (wire.Object, error) {
	key, err := r.Args.RequiredString("oauth_consumer_key")
	if err != nil {
		return nil, err
	}
	secret, err := r.Args.RequiredString("oauth_consumer_secret")
	if err != nil {
		return nil, err
	}
	tok, err := h.auth.IssueToken(ctx, key, secret)
	if err != nil {
		return nil, err
	}
	return wire.Object{"account_token": tok}, nil
}

func (h *handlers) tokenHeartbeat(ctx context.Context, r *api.Request) (wire.Object, error) {
	return nil, h.auth.RenewToken(ctx, r.Path("account_token"), r.Cookie)
}

func (h *handlers) heartbeat(ctx context.Context, r *api.Request) (wire.Object, error) {
	return nil, h.auth.Heartbeat(ctx, r.Args.Token(), r.Cookie)
}

func (h *handlers) login(ctx context.Context, r *api.Request) (wire.Object, error) {
	token, err := r.Args.RequiredString("account_token")
	if err != nil {
		return nil, err
	}
	user, err := r.Args.RequiredString("username")
	if err != nil {
		return nil, err
	}
	pass, err := r.Args.RequiredString("password")
	if err != nil {
		return nil, err
	}
	cookie, p, err := h.auth.Login(ctx, token, user, pass, r.Client)
	if err != nil {
		return nil, err
	}
	// The cookie carries an Expires date 14 days ahead, as in reference 01
	// 3.1; the compat rules drop it from 6.1.0.4.0 on, and drop the
	// userdomainname, usermoid and userdomainmoid fields before it.
	r.SetCookies = append(r.SetCookies, &http.Cookie{Name: CookieName, Value: cookie, Path: "/", HttpOnly: true,
		Expires: h.clk.Now().Add(cookieExpiresDays * 24 * time.Hour)})
	return wire.Object{
		"username":       p.Username,
		"userdomainname": p.DomainName,
		"usermoid":       p.AccountMoid,
		"userdomainmoid": p.DomainMoid,
	}, nil
}

// version answers GET /api/{app}/version (seed 000 "Version information").
func version(ctx context.Context, r *api.Request) (wire.Object, error) {
	return wire.Object{"version": r.Platform.Version(), "api_level": r.Platform.Level()}, nil
}
