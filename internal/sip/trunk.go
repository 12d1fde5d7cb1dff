package sip

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
)

// Registration of Confer to a PBX or SIP trunk (RFC 3261 section 10;
// docs/sip.md "Registering to a PBX"): with Config.RegisterTo set, the
// user agent registers Config.OutboundUser at that registrar, answers its
// digest challenge (401, 407) with Config.OutboundPassword, refreshes
// the binding at half its granted expiry (one Call-ID, CSeq counting up,
// RFC 3261 section 10.2.4), retries a failure after 5 s doubling up to
// 5 minutes, and removes the binding (Expires: 0) when it stops. Calls
// the PBX sends arrive as any INVITE: the request-URI's user, or the To
// header's when the request-URI is the binding (dialledNumber), must be
// a conference's (or a virtual meeting room's) number.

// TrunkStatus is the state of the registration to the PBX.
type TrunkStatus struct {
	Registered bool
	Expires    time.Duration // granted by the registrar
	LastError  string        // the last failure ("" none)
	At         time.Time     // of the last attempt
}

// trunk is the registration's state.
type trunk struct {
	mu     sync.Mutex
	status TrunkStatus
	callID sip.CallIDHeader
	cseq   uint32
	tag    string
}

// unregister removes the binding while the transport still runs (Close).
func (u *UA) unregister() {
	if u.cfg.RegisterTo == "" || !u.Trunk().Registered {
		return
	}
	ctx, cancel := context.WithTimeout(u.ctx, 2*time.Second)
	defer cancel()
	_, _ = u.register(ctx, 0)
}

// Trunk returns the registration's state (zero without Config.RegisterTo).
func (u *UA) Trunk() TrunkStatus {
	u.trunk.mu.Lock()
	defer u.trunk.mu.Unlock()
	return u.trunk.status
}

var errRegisterRefused = errors.New("sip: the registrar refused the registration")

// registerLoop keeps the registration up until the user agent closes.
func (u *UA) registerLoop() {
	u.trunk.callID = sip.CallIDHeader(sip.GenerateTagN(24) + "@confer")
	u.trunk.tag = sip.GenerateTagN(16)
	backoff := 5 * time.Second
	for {
		granted, err := u.register(u.ctx, u.cfg.RegisterExpires)
		u.trunk.mu.Lock()
		u.trunk.status = TrunkStatus{Registered: err == nil, Expires: granted, At: time.Now()}
		if err != nil {
			u.trunk.status.LastError = err.Error()
		}
		u.trunk.mu.Unlock()
		wait := granted / 2
		if err != nil {
			if u.ctx.Err() == nil {
				u.log.Warn("sip: registering to the PBX", "registrar", u.cfg.RegisterTo, "err", err)
			}
			wait, backoff = backoff, min(2*backoff, 5*time.Minute)
		} else {
			backoff = 5 * time.Second
		}
		select {
		case <-u.ctx.Done():
			return // Close removed the binding
		case <-time.After(max(wait, time.Second)):
		}
	}
}

// register sends one REGISTER asking for expires (0 removes the binding)
// and returns what the registrar granted.
func (u *UA) register(ctx context.Context, expires time.Duration) (time.Duration, error) {
	host, port := splitHostPort(u.cfg.RegisterTo)
	ip := u.ipFor(net.JoinHostPort(host, strconv.Itoa(max(port, 5060))))
	aor := sip.Uri{Scheme: "sip", User: u.cfg.OutboundUser, Host: host, Port: port}
	req := sip.NewRequest(sip.REGISTER, sip.Uri{Scheme: "sip", Host: host, Port: port})
	from := sip.FromHeader{Address: aor, Params: sip.NewParams()}
	from.Params.Add("tag", u.trunk.tag)
	to := sip.ToHeader{Address: aor}
	ct := u.contact(ip, "")
	ct.Address.User = u.cfg.OutboundUser
	u.trunk.mu.Lock()
	u.trunk.cseq++
	cseq := u.trunk.cseq
	callID := u.trunk.callID
	u.trunk.mu.Unlock()
	req.AppendHeader(&from)
	req.AppendHeader(&to)
	req.AppendHeader(&callID)
	req.AppendHeader(&sip.CSeqHeader{SeqNo: cseq, MethodName: sip.REGISTER})
	req.AppendHeader(&ct)
	req.AppendHeader(sip.NewHeader("Expires", strconv.Itoa(int(expires/time.Second))))
	ctx, cancel := context.WithTimeout(ctx, 32*time.Second) // Timer F
	defer cancel()
	res, err := u.cli.Do(ctx, req)
	if err != nil {
		return 0, err
	}
	if (res.StatusCode == 401 || res.StatusCode == 407) && u.cfg.OutboundPassword != "" {
		u.trunk.mu.Lock()
		u.trunk.cseq++ // DoDigestAuth sends it again with the next CSeq
		u.trunk.mu.Unlock()
		res, err = u.cli.DoDigestAuth(ctx, req, res, sipgo.DigestAuth{Username: u.cfg.OutboundUser, Password: u.cfg.OutboundPassword})
		if err != nil {
			return 0, err
		}
	}
	if !res.IsSuccess() {
		return 0, fmt.Errorf("%w: %d %s", errRegisterRefused, res.StatusCode, res.Reason)
	}
	return grantedExpiry(res, expires), nil
}

// grantedExpiry is the expiry the registrar granted: the Contact's
// expires, else the Expires header, else what was asked (section 10.2.4).
func grantedExpiry(res *sip.Response, asked time.Duration) time.Duration {
	if c := res.Contact(); c != nil {
		if v, ok := c.Params.Get("expires"); ok {
			if n, err := strconv.Atoi(v); err == nil {
				return time.Duration(n) * time.Second
			}
		}
	}
	if h := res.GetHeader("Expires"); h != nil {
		if n, err := strconv.Atoi(h.Value()); err == nil {
			return time.Duration(n) * time.Second
		}
	}
	return asked
}

// dialledNumber is the number a caller dialled: the request-URI's user,
// except that a call the PBX sends to Confer's registered binding
// (request-URI user Config.OutboundUser) dialled the To header's user.
func (u *UA) dialledNumber(req *sip.Request) string {
	n := req.Recipient.User
	if u.cfg.RegisterTo != "" && n == u.cfg.OutboundUser {
		if to := req.To(); to != nil && to.Address.User != "" {
			return to.Address.User
		}
	}
	return n
}
