package sip

import (
	"context"
	"net"
	"strings"

	"github.com/emiago/sipgo/sip"

	"github.com/confer-platform/confer/internal/media"
)

// A caller is listed with its identity (issue 39): protocol 1 (SIP), the
// address its INVITE came from as ip, and, when its From user is an E.164
// number registered from that address, that number as account (type 5)
// and e164; otherwise its address is its account (type 7). Its alias is
// its display name, else its From user (callerName).

// callerOf is the identity of the caller of req.
func (u *UA) callerOf(ctx context.Context, req *sip.Request) media.Participant {
	p := media.Participant{Name: callerName(req), Kind: Kind, Protocol: 1}
	host, _, err := net.SplitHostPort(req.Source())
	if err != nil {
		host = req.Source()
	}
	p.IP, p.Account, p.AccountType = host, host, accountIP
	if f := req.From(); f != nil && f.Address.User != "" && strings.Trim(f.Address.User, "0123456789+") == "" {
		if reg, ok := u.registered(ctx, f.Address.User); ok {
			if h, _ := splitHostPort(reg.Source); h == host {
				p.Account, p.AccountType, p.E164 = f.Address.User, accountE164, f.Address.User
			}
		}
	}
	return p
}
