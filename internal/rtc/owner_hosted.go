package rtc

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/confer-platform/confer/internal/wire"
)

// Media that runs inside the owner's SFU (sfu.OpenLocal: recordings and
// playbacks) follows the conference's media owner
// (docs/media-nodes.md, docs/recording.md "Several nodes"): a
// node that serves a recording's start, pause, resume or stop for a
// conference another node owns passes it on as the control {"op":
// "hosted", "kind": "recording", "domain": ..., "id": rec_id, "action":
// "start"}; the owner reads what to do from the store (the recording by
// its id in the conference) and does it with its own SFU. The owner's
// reply body is the action's result (a stop's file figures); a platform
// error (*wire.Error: a full node, a file that cannot be made) comes back
// as 409 with {"error_code", "description"} and is answered as it is.

// Hosted is one action on media hosted by the owner.
type Hosted struct {
	Kind   string `json:"kind"` // "recording", "playback"
	Domain string `json:"domain"`
	ID     string `json:"id"`
	Action string `json:"action"`  // a recording's "start", "pause", "resume", "stop"; a playback's "start", "apply"
	Value  int    `json:"value"`   // a playback's state (apply)
	SeekMs int64  `json:"seek_ms"` // a playback's position to move to, -1 none (apply)
}

// HostedHook applies a hosted action on this node, the conference's
// media owner (vc.Module.HostedHere); the result is the reply's body.
// A playback's actions are as docs/live.md "Playback" describes.
type HostedHook func(ctx context.Context, confID string, h Hosted) ([]byte, error)

// SetHostedHook gives the owner handler vc's hosted media.
func (o *Owners) SetHostedHook(h HostedHook) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.hosted = h
}

func (o *Owners) hostedHook() HostedHook {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.hosted
}

// Self is this node's media URL ("" when ownership is off: one node).
func (o *Owners) Self() string {
	me, _ := o.me()
	return me
}

// PassHosted sends a hosted action to the conference's media owner when
// another node owns it (claiming the conference for this node when no
// node does): passed is false when the action belongs here. A stopped
// owner is media.ErrMoving (90503: retry).
func (o *Owners) PassHosted(ctx context.Context, confID string, h Hosted) (passed bool, reply []byte, err error) {
	d, self, err := o.Owner(ctx, confID, true)
	if err != nil || self {
		return false, nil, err
	}
	reply, err = remote{ctx: ctx, client: o.Client, owner: d}.do(confID, control{Op: "hosted", Hosted: &h})
	var pe *platformError
	if errors.As(err, &pe) {
		return true, nil, wire.Errorf(pe.Code, "%s", pe.Desc)
	}
	return true, reply, err
}

// platformError is a *wire.Error carried from the owner (409).
type platformError struct {
	Code int    `json:"error_code"`
	Desc string `json:"description"`
}

func (e *platformError) Error() string { return e.Desc }

// hostedControl applies a passed hosted action on the owner.
func (o *Owners) hostedControl(w http.ResponseWriter, r *http.Request, conf string, c control) {
	h := o.hostedHook()
	if h == nil || c.Hosted == nil {
		http.Error(w, "this node hosts no such media", http.StatusNotImplemented)
		return
	}
	out, err := h(r.Context(), conf, *c.Hosted)
	var we *wire.Error
	switch {
	case errors.As(err, &we):
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_ = json.NewEncoder(w).Encode(platformError{Code: we.Code, Desc: we.Desc})
	case err != nil:
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	default:
		w.Header().Set("Content-Type", "application/json")
		if out == nil {
			out = []byte("null")
		}
		_, _ = w.Write(out)
	}
}
