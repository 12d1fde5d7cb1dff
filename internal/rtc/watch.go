package rtc

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
	"github.com/confer-platform/confer/internal/system"
)

// Watcher admits WHEP viewers that watch without taking part: a live
// broadcast's, a monitor's, a TV wall's (vc.Module.Watch; docs/live.md).
// domain is the conference's user domain, from the token, the session
// cookie or, without either, the link's ?domain=; authed tells whether a
// token or cookie vouched for it.
type Watcher interface {
	Watch(ctx context.Context, domain, confID string, q url.Values, authed bool) (media.Viewer, error)
}

// watchErrors are the SFU's answers to a viewer the Watcher refused.
var watchErrors = []struct{ why, answer error }{
	{media.ErrWatchGone, sfu.ErrNotFound},
	{media.ErrWatchAuth, sfu.ErrUnauthorized},
	{media.ErrWatchForbidden, sfu.ErrForbidden},
}

// watchGrant is the SFU's grant of a viewer the Watcher admitted, or its
// refusal.
func watchGrant(confID string, v media.Viewer, err error) (sfu.Grant, error) {
	for _, e := range watchErrors {
		if errors.Is(err, e.why) {
			return sfu.Grant{}, e.answer
		}
	}
	if err != nil {
		return sfu.Grant{}, err
	}
	return sfu.Grant{ConfID: confID, Role: sfu.RoleSubscribe, Watch: true, Name: "viewer", Tag: v.Tag, MixedAudio: v.MixedAudio}, nil
}

// watchRequest is the WHEP request of a watching viewer, nil otherwise.
func watchRequest(ctx context.Context) *http.Request {
	req := sfu.RequestFromContext(ctx)
	if req == nil || req.Method != http.MethodPost || !strings.HasPrefix(req.URL.Path, sfu.PathWHEP) {
		return nil
	}
	q := req.URL.Query()
	if !q.Has("live") && !q.Has("monitor") && !q.Has("wall") {
		return nil
	}
	return req
}

// authorizeWatch admits a watching viewer: its credential, if any, names
// the domain; the Watcher decides.
func (a Authorizer) authorizeWatch(ctx context.Context, req *http.Request, confID, bearer string) (sfu.Grant, error) {
	return a.AuthorizeWatch(ctx, req, req.URL.Query(), confID, bearer)
}

// AuthorizeWatch admits a viewer of what q names (live=, monitor=, wall=;
// domain= without credential) in conference confID, with the request's
// bearer token or session cookie if any: WHEP, and the HLS of a broadcast
// (internal/live).
func (a Authorizer) AuthorizeWatch(ctx context.Context, req *http.Request, q url.Values, confID, bearer string) (sfu.Grant, error) {
	if a.Watch == nil {
		return sfu.Grant{}, sfu.ErrNotFound
	}
	domain, authed := q.Get("domain"), false
	switch {
	case bearer != "":
		t, err := a.Tokens.Check(ctx, confID, bearer)
		if errors.Is(err, ErrNoToken) {
			return sfu.Grant{}, sfu.ErrUnauthorized
		}
		if err != nil {
			return sfu.Grant{}, err
		}
		domain, authed = t.DomainMoid, true
	default:
		if c, err := req.Cookie(system.CookieName); err == nil && c.Value != "" {
			if p, err := a.Auth.SessionPrincipal(ctx, c.Value); err == nil {
				domain, authed = p.DomainMoid, true
			}
		}
	}
	if domain == "" {
		return sfu.Grant{}, sfu.ErrUnauthorized
	}
	v, err := a.Watch.Watch(ctx, domain, confID, q, authed)
	return watchGrant(confID, v, err)
}
