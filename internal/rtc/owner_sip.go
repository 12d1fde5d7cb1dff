package rtc

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/sfu"
)

// SIP calls follow the conference's media owner (docs/sip.md "Several
// nodes"): a SIP call is bridged into the SFU of the node that holds it,
// so a number dialled on another node is passed to the owner's user agent
// (control "dial"), and a caller who reaches another node is redirected
// to the owner's SIP address (302, rtc.SIPConferences). The owner's SIP
// address is in its rtc_owner record.

// SetSIP sets this node's SIP address ("host:port") that callers are
// redirected to while this node owns a conference's media.
func (o *Owners) SetSIP(addr string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sipAddr = addr
}

func (o *Owners) sip() string {
	if o == nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sipAddr
}

// errNoSIPRoute: the owner's user agent does not route the callee (it
// runs without SIP, say); the caller's node dials it itself.
var errNoSIPRoute = errors.New("rtc: the owner's SIP user agent has no route to the callee")

// Dial passes a SIP call to the owner's user agent.
func (r remote) Dial(conf, mt string, c media.Callee) (media.Identity, error) {
	body, err := r.do(conf, control{Op: "dial", MtID: mt, Callee: &c})
	if errors.Is(err, sfu.ErrNotFound) {
		return media.Identity{}, errNoSIPRoute
	}
	if err != nil {
		return media.Identity{}, err
	}
	var id media.Identity
	if err := json.Unmarshal(body, &id); err != nil {
		return media.Identity{}, err
	}
	return id, nil
}

// SIPApply passes a control that the SIP user agent acts on (camera,
// key frame) to the owner; handled is false when the owner holds no SIP
// call of that terminal.
func (r remote) SIPApply(conf, mt string, c media.Control) (handled bool, err error) {
	_, err = r.do(conf, control{Op: "sip_apply", MtID: mt, Control: &c})
	switch {
	case errors.Is(err, sfu.ErrNotFound):
		return false, nil
	case errors.Is(err, media.ErrUnsupported):
		return true, err
	}
	return err == nil, err
}

// sipControl serves the owner's side of dial and sip_apply.
func sipControl(w http.ResponseWriter, r *http.Request, sp SIP, conf string, c control) {
	switch {
	case c.Op == "dial" && c.Callee != nil:
		if sp == nil || !sp.Routes(r.Context(), *c.Callee) {
			http.Error(w, "no SIP route to the callee here", http.StatusNotFound)
			return
		}
		id, err := sp.Dial(r.Context(), conf, c.MtID, *c.Callee)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(id)
	case c.Op == "sip_apply" && c.Control != nil:
		if sp == nil {
			http.Error(w, "no SIP call of the terminal here", http.StatusNotFound)
			return
		}
		switch handled, err := sp.Apply(conf, c.MtID, *c.Control); {
		case errors.Is(err, media.ErrUnsupported):
			http.Error(w, err.Error(), http.StatusNotImplemented)
		case err != nil:
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		case !handled:
			http.Error(w, "no SIP call of the terminal here", http.StatusNotFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		http.Error(w, "a "+c.Op+" control without its callee or control", http.StatusBadRequest)
	}
}
