package vrs

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The local login of the recording system (reference 09 "本地用户登录";
// seed 000 "Errors" 4): POST as the reference has it, GET as the seeds
// list it. It logs in the platform's own accounts with the platform's
// lockout (auth.Service.Login): one account, one failure count and one
// lock, whichever login the failures came through, so alternating the
// two logins gains an attacker nothing. The reply's token is a new
// SSO_COOKIE_KEY, also set as the cookie.

// Rights and roles of the login reply: every account may download, watch
// lives and play on demand (rightmask 7); an administrator of the user
// domain is an ordinary administrator (1), anyone else a user (2). Confer
// has no super administrator (0).
const (
	rightAll  = 7
	roleAdmin = 1
	roleUser  = 2
)

// login is the POST login, its members in the params.
func (m *Module) login(ctx context.Context, r *api.Request) (*model.VRSLoginReply, error) {
	var q model.VRSLoginRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	return m.logIn(ctx, r, q.Username, q.Psd)
}

// loginGet is the GET login, its members in the query; its reply has the
// POST one's members.
func (m *Module) loginGet(ctx context.Context, r *api.Request) (*model.VRSLoginGetReply, error) {
	var q model.VRSLoginGetRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	out, err := m.logIn(ctx, r, q.Username, q.Psd)
	if err != nil {
		return nil, err
	}
	return (*model.VRSLoginGetReply)(out), nil
}

// logIn logs user in with password psd and sets the session cookie.
func (m *Module) logIn(ctx context.Context, r *api.Request, user, psd string) (*model.VRSLoginReply, error) {
	cookie, p, err := m.auth.Login(ctx, r.Args.Token(), user, psd, r.Client)
	if err != nil {
		return nil, m.loginError(err)
	}
	r.SetCookies = append(r.SetCookies, &http.Cookie{Name: "SSO_COOKIE_KEY", Value: cookie, Path: "/", HttpOnly: true})
	return loginReply(p, cookie), nil
}

// loginReply is the reply of a login of p with the session cookie.
func loginReply(p *auth.Principal, cookie string) *model.VRSLoginReply {
	role := roleUser
	if p.Admin {
		role = roleAdmin
	}
	return &model.VRSLoginReply{Username: p.Username, Usermoid: p.AccountMoid, Userdomainmoid: p.DomainMoid,
		Rightmask: rightAll, Userrole: role, Token: cookie}
}

// loginError turns the platform login's failure into the recording
// system's: A5 codes where A5 has one (5 wrong password, 6 unknown user,
// 10 disabled account), Confer's 90423 for a locked account, and always
// the counters maxlocknum, currentnum and unlocktime, the last as the UNIX
// time the lock ends (0 while the account is not locked).
func (m *Module) loginError(err error) error {
	var we *wire.Error
	if !errors.As(err, &we) {
		return err
	}
	code := we.Code
	switch code {
	case wire.CodeWrongPassword:
		code = CodeWrongPassword
	case wire.CodeWrongCredentials:
		code = CodeUserUnknown
	case wire.CodeAccountDisabled:
		code = CodeUserDisabled
	}
	out := wire.Errorf(code, "%s", we.Desc)
	unlock, current := int64(0), 0
	if l := we.Lockout; l != nil {
		if t, err := time.Parse(time.RFC3339, l.UnlockTime); err == nil {
			unlock = t.Unix()
		}
		if l.CurrentNum != nil {
			current = *l.CurrentNum
		}
	}
	out.Lockout = wire.Counted(m.auth.Config().MaxFailures, current, "")
	out.Lockout.UnlockUnix = &unlock
	return out
}
