package rtc

import (
	"context"
	"sync"

	"github.com/confer-platform/confer/internal/media"
)

// The node's bookkeeping of conference control's live media (issue 40:
// it was vc's, docs/architecture.md "Live media"): which monitor sender
// belongs to which monitor, the conferences with watching viewers and
// what they watch (their tags), and the live broadcasts' RTMP pushes.
// vc decides (which monitor is live, which tag may go on being watched,
// which broadcast pushes where) and passes its decision in; the runtime
// keeps the streams and their records, under a lock that guards its maps
// only: a tap's or a push's end runs without it.

// Pusher pushes live broadcasts to RTMP URLs (*live.RTMP).
type Pusher interface {
	Start(confID, recID, url string) error
	Stop(confID, recID string)
}

// liveBook is LiveMedia's records.
type liveBook struct {
	push    Pusher // nil: the node cannot push (no ffmpeg)
	mu      sync.Mutex
	watched map[string]*watchedConf   // conferences with watching viewers, by conf_id
	senders map[string]*monitorSender // monitors' senders, by domain/conf_id/dst
}

func newLiveBook(push Pusher) liveBook {
	return liveBook{push: push, watched: map[string]*watchedConf{}, senders: map[string]*monitorSender{}}
}

// watchedConf is a conference whose viewers (or pushes) this node has.
type watchedConf struct {
	domain string
	tags   map[string]bool
}

// monitorSender is one monitor's stream on its way to its destination.
type monitorSender struct {
	domain, confID, key string
	tap                 media.Tap
}

// senderID is a sender's key in liveBook.senders.
func senderID(domain, confID, dst string) string { return domain + "/" + confID + "/" + dst }

// SendMonitor gives the live monitor with key its sender to s.Dst on this
// node: the sender it has is kept (asked for a key frame with keyFrame),
// one of another monitor to the same destination replaced.
func (l *LiveMedia) SendMonitor(ctx context.Context, domain, confID, key string, s media.MonitorSpec, keyFrame bool) error {
	id := senderID(domain, confID, s.Dst)
	l.book.mu.Lock()
	cur := l.book.senders[id]
	l.book.mu.Unlock()
	if cur != nil && cur.key == key {
		if keyFrame {
			cur.tap.RequestKeyFrame()
		}
		return nil
	}
	l.StopMonitor(domain, confID, s.Dst)
	t, err := l.OpenMonitor(ctx, confID, s)
	if err != nil {
		return err
	}
	// Another call may have given the destination its sender meanwhile
	// (two starts at once, or a start beside the sweep): this one replaces
	// it and closes it, so that no tap is left sending outside the book.
	l.book.mu.Lock()
	prev := l.book.senders[id]
	l.book.senders[id] = &monitorSender{domain: domain, confID: confID, key: key, tap: t}
	l.book.mu.Unlock()
	if prev != nil {
		prev.tap.Close()
	}
	t.RequestKeyFrame()
	return nil
}

// MonitorSending tells whether the conference has a monitor's sender to
// dst on this node.
func (l *LiveMedia) MonitorSending(domain, confID, dst string) bool {
	l.book.mu.Lock()
	defer l.book.mu.Unlock()
	return l.book.senders[senderID(domain, confID, dst)] != nil
}

// StopMonitor ends the conference's sender to dst, if any.
func (l *LiveMedia) StopMonitor(domain, confID, dst string) {
	id := senderID(domain, confID, dst)
	l.book.mu.Lock()
	s := l.book.senders[id]
	delete(l.book.senders, id)
	l.book.mu.Unlock()
	if s != nil {
		s.tap.Close()
	}
}

// SweepMonitors ends the senders whose tap the SFU closed, and those whose
// monitor is no longer live: live gives the keys of a conference's live
// monitors (none: it is not running), read once per conference.
func (l *LiveMedia) SweepMonitors(ctx context.Context, live func(ctx context.Context, domain, confID string) (map[string]bool, error)) error {
	l.book.mu.Lock()
	all := make(map[string]*monitorSender, len(l.book.senders))
	for id, s := range l.book.senders {
		all[id] = s
	}
	l.book.mu.Unlock()
	keys := map[string]map[string]bool{}
	for id, s := range all {
		select {
		case <-s.tap.Done():
			l.stopMonitorIf(id, s)
			continue
		default:
		}
		ck := s.domain + "/" + s.confID
		k, read := keys[ck]
		if !read {
			var err error
			if k, err = live(ctx, s.domain, s.confID); err != nil {
				return err
			}
			keys[ck] = k
		}
		if !k[s.key] {
			l.stopMonitorIf(id, s)
		}
	}
	return nil
}

// stopMonitorIf ends s if it is still id's sender (not a replacement).
func (l *LiveMedia) stopMonitorIf(id string, s *monitorSender) {
	l.book.mu.Lock()
	cur := l.book.senders[id]
	if cur == s {
		delete(l.book.senders, id)
	}
	l.book.mu.Unlock()
	if cur == s { // a replacement closed s already
		s.tap.Close()
	}
}

// Watched notes a tag of the conference that viewers (or a push) of this
// node watch.
func (l *LiveMedia) Watched(domain, confID, tag string) {
	l.book.mu.Lock()
	defer l.book.mu.Unlock()
	w := l.book.watched[confID]
	if w == nil {
		w = &watchedConf{domain: domain, tags: map[string]bool{}}
		l.book.watched[confID] = w
	}
	w.tags[tag] = true
}

// SweepWatched closes the watching viewers of the tags that may no longer
// be watched, and stops the push of a broadcast that ended: ok gives the
// tags a conference may go on being watched by (none: it is not
// running).
func (l *LiveMedia) SweepWatched(ctx context.Context, ok func(ctx context.Context, domain, confID string) (map[string]bool, error)) error {
	l.book.mu.Lock()
	all := make(map[string]watchedConf, len(l.book.watched))
	for id, w := range l.book.watched {
		tags := make(map[string]bool, len(w.tags))
		for t := range w.tags {
			tags[t] = true
		}
		all[id] = watchedConf{domain: w.domain, tags: tags}
	}
	l.book.mu.Unlock()
	for confID, w := range all {
		still, err := ok(ctx, w.domain, confID)
		if err != nil {
			return err
		}
		for tag := range w.tags {
			if still[tag] {
				continue
			}
			l.CloseWatchers(confID, tag)
			if recID, ok := media.LiveOf(tag); ok {
				l.StopRTMP(confID, recID) // the broadcast or the conference ended
			}
			l.book.mu.Lock()
			if cur := l.book.watched[confID]; cur != nil {
				delete(cur.tags, tag)
				if len(cur.tags) == 0 {
					delete(l.book.watched, confID)
				}
			}
			l.book.mu.Unlock()
		}
	}
	return nil
}

// LiveViewers returns the viewers of each live broadcast this node
// admitted viewers of (or pushes), by conference and rec_id (the
// metrics).
func (l *LiveMedia) LiveViewers() map[[2]string]int {
	out := map[[2]string]int{}
	l.book.mu.Lock()
	defer l.book.mu.Unlock()
	for confID, w := range l.book.watched {
		for tag := range w.tags {
			if recID, ok := media.LiveOf(tag); ok {
				out[[2]string{confID, recID}] = l.Watchers(confID, tag)
			}
		}
	}
	return out
}

// CanPush tells whether the node pushes broadcasts to RTMP.
func (l *LiveMedia) CanPush() bool { return l.book.push != nil }

// PushRTMP starts a broadcast's push on this node (a push running already
// is kept); the sweep of watched tags stops it when the broadcast or its
// conference ends.
func (l *LiveMedia) PushRTMP(domain, confID, recID, url string) error {
	if l.book.push == nil {
		return nil
	}
	if err := l.book.push.Start(confID, recID, url); err != nil {
		return err
	}
	l.Watched(domain, confID, media.TagLive(recID))
	return nil
}

// StopRTMP stops a broadcast's push, if this node has one.
func (l *LiveMedia) StopRTMP(confID, recID string) {
	if l.book.push != nil {
		l.book.push.Stop(confID, recID)
	}
}

// DropRTMP stops this node's pushes of a conference another node took
// over.
func (l *LiveMedia) DropRTMP(confID string) {
	if l.book.push == nil {
		return
	}
	l.book.mu.Lock()
	var recIDs []string
	if w := l.book.watched[confID]; w != nil {
		for tag := range w.tags {
			if recID, ok := media.LiveOf(tag); ok {
				recIDs = append(recIDs, recID)
			}
		}
	}
	l.book.mu.Unlock()
	for _, recID := range recIDs {
		l.StopRTMP(confID, recID)
	}
}
