package sip

import (
	"context"
	"errors"

	"github.com/emiago/sipgo/sip"

	"github.com/confer-platform/confer/internal/media"
)

// Who may call a conference in (Config.CallIn, conferd --sip-call-in;
// issue 38; docs/sip.md "Calling in"). Callers are not authenticated:
// a caller is "registered" when its From user is an E.164 number a
// terminal registered, with digest, from the address the INVITE comes
// from (identity.go).
const (
	// CallInOpen: anyone who reaches the SIP port may call a running
	// conference; one with a password asks for it (the default: a
	// private cloud whose SIP port only its own network reaches).
	CallInOpen = "open"
	// CallInPassword: only conferences with a password take callers.
	CallInPassword = "password"
	// CallInRegistered: only registered callers, and conferences with a
	// password ask them for it.
	CallInRegistered = "registered"
)

// ErrCallInPolicy is a policy that is none of the three.
var ErrCallInPolicy = errors.New("sip: the call-in policy is open, password or registered")

// registeredCaller tells whether the caller is a registered terminal.
func registeredCaller(p media.Participant) bool { return p.E164 != "" }

// mayCallIn applies the policy to a caller of conf.
func (u *UA) mayCallIn(caller media.Participant, conf Conference) bool {
	switch u.cfg.CallIn {
	case CallInPassword:
		return conf.Password != ""
	case CallInRegistered:
		return registeredCaller(caller)
	}
	return true
}

// refusal is the answer a caller gets when it may not join: an
// unregistered caller gets 404 whatever the reason (no such conference,
// closed, full, the policy), so that it cannot tell running conferences
// from unused numbers (issue 38); a registered one the reason's own.
func refusal(caller media.Participant, code int, reason string) (int, string) {
	if registeredCaller(caller) {
		return code, reason
	}
	switch code {
	case 403, 404, 486:
		return 404, "Not Found"
	}
	return code, reason
}

// refuse answers a caller that may not join (refusal).
func (u *UA) refuse(req *sip.Request, tx sip.ServerTransaction, caller media.Participant, code int, reason string) {
	code, reason = refusal(caller, code, reason)
	respond(req, tx, code, reason)
}

// lookupOrStart finds the running conference a caller dialled; a virtual
// meeting room's number with no conference running starts the room's
// conference first when the call-in policy would let the caller in
// (meeting-room behaviour, docs/sip.md "Calling in").
func (u *UA) lookupOrStart(ctx context.Context, number string, caller media.Participant) (Conference, error) {
	conf, err := u.deps.Confs.Lookup(ctx, number)
	if !errors.Is(err, ErrNoConference) || number == "" {
		return conf, err
	}
	may := func(password string) bool { return u.mayCallIn(caller, Conference{Password: password}) }
	started, serr := u.deps.Confs.StartRoom(ctx, number, may)
	if serr != nil {
		return conf, serr
	}
	if !started {
		return conf, err
	}
	return u.deps.Confs.Lookup(ctx, number)
}
