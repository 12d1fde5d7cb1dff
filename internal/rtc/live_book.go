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

// monitorOpener opens a monitor's sender (LiveMedia.OpenMonitor: a tap
// of the SFU).
type monitorOpener interface {
	OpenMonitor(ctx context.Context, confID string, s media.MonitorSpec) (media.Tap, error)
}

// watchers are the watching viewers of a conference by tag (the SFU's
// tagged WHEP viewers).
type watchers interface {
	Watchers(confID, tag string) int
	CloseWatchers(confID, tag string) int
}

// liveBook is LiveMedia's records; its methods are LiveMedia's (the book
// is embedded). It reaches the media only through taps, viewers and push,
// so that its bookkeeping is tested without an SFU
// (live_book_internal_test.go).
type liveBook struct {
	taps    monitorOpener
	viewers watchers
	push    Pusher // nil: the node cannot push (no ffmpeg)
	mu      sync.Mutex
	watched map[string]*watchedConf   // conferences with watching viewers, by conf_id
	senders map[string]*monitorSender // monitors' senders, by domain/conf_id/dst
}

func newLiveBook(taps monitorOpener, viewers watchers, push Pusher) *liveBook {
	return &liveBook{taps: taps, viewers: viewers, push: push, watched: map[string]*watchedConf{}, senders: map[string]*monitorSender{}}
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
func (b *liveBook) SendMonitor(ctx context.Context, domain, confID, key string, s media.MonitorSpec, keyFrame bool) error {
	id := senderID(domain, confID, s.Dst)
	b.mu.Lock()
	cur := b.senders[id]
	b.mu.Unlock()
	if cur != nil && cur.key == key {
		if keyFrame {
			cur.tap.RequestKeyFrame()
		}
		return nil
	}
	b.StopMonitor(domain, confID, s.Dst)
	t, err := b.taps.OpenMonitor(ctx, confID, s)
	if err != nil {
		return err
	}
	// Another call may have given the destination its sender meanwhile
	// (two starts at once, or a start beside the sweep): this one replaces
	// it and closes it, so that no tap is left sending outside the book.
	b.mu.Lock()
	prev := b.senders[id]
	b.senders[id] = &monitorSender{domain: domain, confID: confID, key: key, tap: t}
	b.mu.Unlock()
	if prev != nil {
		prev.tap.Close()
	}
	t.RequestKeyFrame()
	return nil
}

// MonitorSending tells whether the conference has a monitor's sender to
// dst on this node.
func (b *liveBook) MonitorSending(domain, confID, dst string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.senders[senderID(domain, confID, dst)] != nil
}

// StopMonitor ends the conference's sender to dst, if any.
func (b *liveBook) StopMonitor(domain, confID, dst string) {
	id := senderID(domain, confID, dst)
	b.mu.Lock()
	s := b.senders[id]
	delete(b.senders, id)
	b.mu.Unlock()
	if s != nil {
		s.tap.Close()
	}
}

// SweepMonitors ends the senders whose tap the SFU closed, and those whose
// monitor is no longer live: live gives the keys of a conference's live
// monitors (none: it is not running), read once per conference.
func (b *liveBook) SweepMonitors(ctx context.Context, live func(ctx context.Context, domain, confID string) (map[string]bool, error)) error {
	b.mu.Lock()
	all := make(map[string]*monitorSender, len(b.senders))
	for id, s := range b.senders {
		all[id] = s
	}
	b.mu.Unlock()
	keys := map[string]map[string]bool{}
	for id, s := range all {
		select {
		case <-s.tap.Done():
			b.stopMonitorIf(id, s)
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
			b.stopMonitorIf(id, s)
		}
	}
	return nil
}

// stopMonitorIf ends s if it is still id's sender (not a replacement).
func (b *liveBook) stopMonitorIf(id string, s *monitorSender) {
	b.mu.Lock()
	cur := b.senders[id]
	if cur == s {
		delete(b.senders, id)
	}
	b.mu.Unlock()
	if cur == s { // a replacement closed s already
		s.tap.Close()
	}
}

// Watched notes a tag of the conference that viewers (or a push) of this
// node watch.
func (b *liveBook) Watched(domain, confID, tag string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	w := b.watched[confID]
	if w == nil {
		w = &watchedConf{domain: domain, tags: map[string]bool{}}
		b.watched[confID] = w
	}
	w.tags[tag] = true
}

// SweepWatched closes the watching viewers of the tags that may no longer
// be watched, and stops the push of a broadcast that ended: ok gives the
// tags a conference may go on being watched by (none: it is not
// running).
func (b *liveBook) SweepWatched(ctx context.Context, ok func(ctx context.Context, domain, confID string) (map[string]bool, error)) error {
	b.mu.Lock()
	all := make(map[string]watchedConf, len(b.watched))
	for id, w := range b.watched {
		tags := make(map[string]bool, len(w.tags))
		for t := range w.tags {
			tags[t] = true
		}
		all[id] = watchedConf{domain: w.domain, tags: tags}
	}
	b.mu.Unlock()
	for confID, w := range all {
		still, err := ok(ctx, w.domain, confID)
		if err != nil {
			return err
		}
		for tag := range w.tags {
			if still[tag] {
				continue
			}
			b.viewers.CloseWatchers(confID, tag)
			if recID, ok := media.LiveOf(tag); ok {
				b.StopRTMP(confID, recID) // the broadcast or the conference ended
			}
			b.mu.Lock()
			if cur := b.watched[confID]; cur != nil {
				delete(cur.tags, tag)
				if len(cur.tags) == 0 {
					delete(b.watched, confID)
				}
			}
			b.mu.Unlock()
		}
	}
	return nil
}

// LiveViewers returns the viewers of each live broadcast this node
// admitted viewers of (or pushes), by conference and rec_id (the
// metrics).
func (b *liveBook) LiveViewers() map[[2]string]int {
	out := map[[2]string]int{}
	b.mu.Lock()
	defer b.mu.Unlock()
	for confID, w := range b.watched {
		for tag := range w.tags {
			if recID, ok := media.LiveOf(tag); ok {
				out[[2]string{confID, recID}] = b.viewers.Watchers(confID, tag)
			}
		}
	}
	return out
}

// CanPush tells whether the node pushes broadcasts to RTMP.
func (b *liveBook) CanPush() bool { return b.push != nil }

// PushRTMP starts a broadcast's push on this node (a push running already
// is kept); the sweep of watched tags stops it when the broadcast or its
// conference ends.
func (b *liveBook) PushRTMP(domain, confID, recID, url string) error {
	if b.push == nil {
		return nil
	}
	if err := b.push.Start(confID, recID, url); err != nil {
		return err
	}
	b.Watched(domain, confID, media.TagLive(recID))
	return nil
}

// StopRTMP stops a broadcast's push, if this node has one.
func (b *liveBook) StopRTMP(confID, recID string) {
	if b.push != nil {
		b.push.Stop(confID, recID)
	}
}

// DropRTMP stops this node's pushes of a conference another node took
// over.
func (b *liveBook) DropRTMP(confID string) {
	if b.push == nil {
		return
	}
	b.mu.Lock()
	var recIDs []string
	if w := b.watched[confID]; w != nil {
		for tag := range w.tags {
			if recID, ok := media.LiveOf(tag); ok {
				recIDs = append(recIDs, recID)
			}
		}
	}
	b.mu.Unlock()
	for _, recID := range recIDs {
		b.StopRTMP(confID, recID)
	}
}
