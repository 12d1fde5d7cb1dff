package rtc

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/system"
)

// Authorizer admits WHIP, WHEP and join page requests (sfu.Authorizer).
// A media token of the conference grants its role; without a token, the
// session cookie of a user logged in to the conference's user domain
// grants both roles, and then a conference with a password asks for it
// (X-Confer-Password): a token is issued only to whoever may control the
// conference, while a plain link can travel (docs/media.md "Admission").
type Authorizer struct {
	Tokens Tokens
	Confs  *engine.Conferences
	Auth   *auth.Service
	// Watch admits watching viewers (watch.go); nil: none.
	Watch Watcher
	// Sessions counts a conference's open media sessions on this node
	// and MaxSessions is the node's cap (--rtc-max-sessions): while the
	// platform has several user domains, one domain's sessions take at
	// most its share of the cap (--domain-share), beyond it an offer is
	// answered 503 (issue 38 item 12). nil or 0: no share.
	Sessions    func(confID string) int
	MaxSessions int
}

// overShare tells whether the domain's media sessions on this node hold
// its share of MaxSessions; only offers (POST) are counted against it.
func (a Authorizer) overShare(ctx context.Context, domain string) (bool, error) {
	req := sfu.RequestFromContext(ctx)
	if a.Sessions == nil || a.MaxSessions <= 0 || a.Confs == nil || req == nil || req.Method != http.MethodPost {
		return false, nil
	}
	if on, err := a.Confs.Sharing(ctx); err != nil || !on {
		return false, err
	}
	ids, err := a.Confs.RunningIDs(ctx, domain)
	if err != nil {
		return false, err
	}
	n := 0
	for _, id := range ids {
		n += a.Sessions(id)
	}
	return n >= a.Confs.ShareOf(a.MaxSessions), nil
}

// Authorize implements sfu.Authorizer.
func (a Authorizer) Authorize(ctx context.Context, confID, bearer string) (sfu.Grant, error) {
	if req := watchRequest(ctx); req != nil && a.Watch != nil {
		return a.authorizeWatch(ctx, req, confID, bearer)
	}
	var domain, name, role, meeting string
	checkPassword, preview := false, false
	if bearer != "" {
		t, err := a.Tokens.Check(ctx, confID, bearer)
		if errors.Is(err, ErrNoToken) {
			return sfu.Grant{}, sfu.ErrUnauthorized
		}
		if err != nil {
			return sfu.Grant{}, err
		}
		domain, name, role, meeting = t.DomainMoid, t.Name, t.Role, t.MeetingID
	} else {
		req := sfu.RequestFromContext(ctx)
		if req == nil {
			return sfu.Grant{}, sfu.ErrUnauthorized
		}
		c, err := req.Cookie(system.CookieName)
		if err != nil || c.Value == "" {
			return sfu.Grant{}, sfu.ErrUnauthorized
		}
		p, err := a.Auth.SessionPrincipal(ctx, c.Value)
		if err != nil {
			return sfu.Grant{}, sfu.ErrUnauthorized
		}
		domain, name, role = p.DomainMoid, p.Username, string(sfu.RoleBoth)
		// A logged-in account of the domain may control the conference:
		// it may preview the broadcast without joining (?preview=1), and
		// then no password is asked, as for the tokens it may issue.
		preview = true
		checkPassword = req.URL.Query().Get("preview") != "1"
	}
	conf, err := a.Confs.Get(ctx, domain, confID, engine.StateRunning)
	if errors.Is(err, engine.ErrConfNotFound) {
		return sfu.Grant{}, sfu.ErrNotFound // ended: its tokens die with it
	}
	if err != nil {
		return sfu.Grant{}, err
	}
	if meeting != "" && conf.MeetingID() != meeting {
		return sfu.Grant{}, sfu.ErrNotFound // the token's conference ended; its number is another's now
	}
	if pw := conf.Password(); checkPassword && pw != "" {
		got := ""
		if req := sfu.RequestFromContext(ctx); req != nil {
			got = req.Header.Get("X-Confer-Password")
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(pw)) != 1 {
			return sfu.Grant{}, sfu.ErrPasswordRequired
		}
	}
	if over, err := a.overShare(ctx, domain); err != nil {
		return sfu.Grant{}, err
	} else if over {
		return sfu.Grant{}, fmt.Errorf("%w: the user domain holds its share of the node's media sessions (--domain-share of --rtc-max-sessions)", sfu.ErrUnavailable)
	}
	return sfu.Grant{ConfID: confID, Role: sfu.Role(role), Name: name, Title: conf.Name(), Preview: preview}, nil
}
