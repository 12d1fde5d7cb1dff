package sip

import (
	"context"
	"net"
	"strconv"
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
	f := req.From()
	if f != nil && f.Address.User != "" && strings.Trim(f.Address.User, "0123456789+") == "" {
		if reg, ok := u.registered(ctx, f.Address.User); ok {
			if h, _ := splitHostPort(reg.Source); h == host {
				p.Account, p.AccountType, p.E164 = f.Address.User, accountE164, f.Address.User
			}
		}
	}
	p.Caller = callerKey(p, f)
	return p
}

// callerKey is who a caller is when it calls in again (the engine reuses
// its offline terminal, issue 38 item 8): its registered number, else
// its From URI without parameters.
func callerKey(p media.Participant, f *sip.FromHeader) string {
	if p.E164 != "" {
		return "sip:e164:" + p.E164
	}
	if f == nil {
		return ""
	}
	a := f.Address
	k := "sip:" + a.User + "@" + strings.ToLower(a.Host)
	if a.Port != 0 {
		k += ":" + strconv.Itoa(a.Port)
	}
	return truncate(k, 256)
}
