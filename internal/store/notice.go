package store

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Notices are events that no record write makes: notifications of
// reference 07 "推送通知信息" (an alarm, a playback that broke, a viewing
// that failed, a terminal applying for the floor). They go through the
// event log like record changes, so every node's push service publishes
// them once, in commit order with the changes around them.

// Event fields of a notice: Kind is KindNotice, Op is OpNotify, ID is the
// channel under /confs/{conf_id} (e.g. "/applyspeaker"), OwnerMoid the
// conf_id, and Data the message's fields besides method (a JSON object).
const (
	KindNotice = "notice"
	OpNotify   = "notify"
)

// Notice is a notification about a conference.
type Notice struct {
	DomainMoid string
	ConfID     string
	Channel    string // under /confs/{conf_id}, starting with "/"
	Data       []byte // JSON object
	At         time.Time
}

// NewNotice builds a notice with fields encoded as its data: a value that
// encodes as a JSON object (the typed payloads of internal/push); nil is
// the empty object.
func NewNotice(domain, confID, channel string, fields any, at time.Time) (Notice, error) {
	b, err := json.Marshal(fields)
	if err == nil && string(b) == "null" {
		b = []byte("{}")
	}
	return Notice{DomainMoid: domain, ConfID: confID, Channel: channel, Data: b, At: at}, err
}

// Event is the notice as the event log holds it.
func (n Notice) Event() Event {
	return Event{Kind: KindNotice, ID: n.Channel, DomainMoid: n.DomainMoid, OwnerMoid: n.ConfID, Op: OpNotify, At: n.At, Data: n.Data}
}

// Notices carries notices to the next record write made with a context
// from WithNotices: that write appends them to the event log in its own
// transaction, after the record's event, so a notice is committed exactly
// when the change it reports is. A write that fails takes them along
// (nothing is committed); a retry loop calls Set again on each attempt.
type Notices struct {
	mu   sync.Mutex
	list []Notice
}

type noticesKey struct{}

// WithNotices returns a context whose next record write also appends the
// notices set on the returned Notices.
func WithNotices(ctx context.Context) (context.Context, *Notices) {
	n := &Notices{}
	return context.WithValue(ctx, noticesKey{}, n), n
}

// Set replaces the notices waiting for the next write (none: nothing).
func (n *Notices) Set(ns ...Notice) {
	n.mu.Lock()
	n.list = append([]Notice(nil), ns...)
	n.mu.Unlock()
}

// TakeNotices removes and returns the notices that ctx carries for a
// record write (store implementations call it inside the write's
// transaction).
func TakeNotices(ctx context.Context) []Notice {
	n, _ := ctx.Value(noticesKey{}).(*Notices)
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.list
	n.list = nil
	return out
}
