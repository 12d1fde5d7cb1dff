package rtc

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Module serves vc's rtc_tokens extension (internal/catalog/vc_rtc.go).
type Module struct {
	Tokens Tokens
	Confs  *engine.Conferences
}

// Routes is the module's route table; server.New attaches it.
func (m *Module) Routes() api.Routes {
	return api.Routes{"vc.confs.rtc_tokens.create": m.createToken}
}

// CodeTokenQuota answers a token of a conference that holds its cap of
// them (Tokens.PerConf; docs/media.md "Getting in: `rtc_tokens`"): Confer's quota code.
const CodeTokenQuota = 90429

// maxNameBytes bounds a participant's name, as the platform bounds a
// terminal's alias.
const maxNameBytes = 64

// createToken issues a media token of a running conference of the caller's
// domain (12103 otherwise): whoever may control the conference may let
// others into its media (docs/media.md "Getting in: `rtc_tokens`").
func (m *Module) createToken(ctx context.Context, r *api.Request) (wire.Object, error) {
	// The conference first: another domain's learns nothing from the
	// parameters' checks (12103 as an unknown one).
	conf, err := m.Confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateRunning)
	if err != nil {
		return nil, err
	}
	p := r.Args.Params
	name, _ := p["name"].(string)
	if name == "" {
		name = "guest"
	}
	if len(name) > maxNameBytes {
		return nil, wire.InvalidParam("name", fmt.Sprintf("longer than %d bytes", maxNameBytes))
	}
	role, _ := p["role"].(string)
	if role == "" {
		role = "both"
	}
	ttl := DefaultTTL
	if v, ok := p["ttl"]; ok {
		// The API decodes numbers as json.Number (issue 35 item 7: only a
		// float64 was taken, so every ttl was refused).
		n, ok := record.IntOK(v)
		if !ok || time.Duration(n)*time.Second < MinTTL || time.Duration(n)*time.Second > MaxTTL {
			return nil, wire.InvalidParam("ttl", fmt.Sprintf("must be whole seconds from %d to %d", int(MinTTL.Seconds()), int(MaxTTL.Seconds())))
		}
		ttl = time.Duration(n) * time.Second
	}
	exp := m.Tokens.Clock.Now().Add(ttl)
	tok, err := m.Tokens.Issue(ctx, Token{ConfID: conf.ID(), MeetingID: conf.MeetingID(),
		DomainMoid: r.Principal.DomainMoid, Role: role, Name: name, Expires: exp})
	if errors.Is(err, ErrTooMany) {
		return nil, wire.Errorf(CodeTokenQuota, "conference %s holds %d media tokens, its cap; expired ones are removed within five minutes", conf.ID(), m.Tokens.perConf())
	}
	if err != nil {
		return nil, err
	}
	id := url.PathEscape(conf.ID())
	return wire.Object{
		"token":      tok,
		"whip_url":   r.BaseURL + "/rtc/whip/" + id,
		"whep_url":   r.BaseURL + "/rtc/whep/" + id,
		"join_url":   r.BaseURL + "/rtc/join/" + id + "#token=" + url.QueryEscape(tok),
		"expires_at": record.FormatTime(exp),
	}, nil
}
