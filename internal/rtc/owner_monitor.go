package rtc

import (
	"context"
	"errors"
	"net/http"
)

// Monitors' RTP senders follow the conference's media owner
// (docs/live.md "Monitors"): a node that serves a monitor's start,
// heartbeat or key frame request for a conference another node owns
// passes it on as the control {"op": "monitor", "domain": ..., "key":
// ..., "key_frame": ...}; the owner reads the monitor from the store by
// its key and opens (or asks a key frame of) its sender there.

// MonitorHook opens, on this node, the sender of the live monitor with
// key of a conference (vc.Module.MonitorHere); keyFrame also asks its
// source for a key frame. ErrNoMonitor: no live monitor has the key.
type MonitorHook func(ctx context.Context, domain, confID, key string, keyFrame bool) error

// ErrNoMonitor answers a monitor control whose monitor is not live (the
// owner's 410).
var ErrNoMonitor = errors.New("rtc: no live monitor with that key")

// SetMonitorHook gives the owner handler vc's monitor senders.
func (o *Owners) SetMonitorHook(h MonitorHook) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.monitor = h
}

func (o *Owners) monitorHook() MonitorHook {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.monitor
}

// PassMonitor sends a monitor's sender to the conference's media owner
// when another node owns it (claiming the conference for this node when
// no node does): passed is false when the sender belongs here.
func (o *Owners) PassMonitor(ctx context.Context, domain, confID, key string, keyFrame bool) (passed bool, err error) {
	d, self, err := o.Owner(ctx, confID, true)
	if err != nil || self {
		return false, err
	}
	return true, remote{ctx: ctx, client: o.Client, owner: d}.send(confID, control{Op: "monitor", Domain: domain, Key: key, KeyFrame: keyFrame})
}

// monitorControl applies a passed monitor control on the owner.
func (o *Owners) monitorControl(w http.ResponseWriter, r *http.Request, conf string, c control) {
	h := o.monitorHook()
	if h == nil {
		http.Error(w, "this node sends no monitor media", http.StatusNotImplemented)
		return
	}
	switch err := h(r.Context(), c.Domain, conf, c.Key, c.KeyFrame); {
	case errors.Is(err, ErrNoMonitor):
		http.Error(w, "no live monitor with that key", http.StatusGone)
	case err != nil:
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}
