package sfu

import (
	"time"
)

// Watching viewers (docs/live.md): a WHEP session whose Grant has Watch
// set is no participant. It is not announced with Events.Joined, not
// counted against the conference's participant limit (the node's session
// limit still applies), publishes nothing and is never silenced; it
// receives what its URL asks (the broadcast, ?mt_id=, ?dual=1) like any
// WHEP subscriber. Live broadcast viewers, monitors and TV wall channels
// watch; the engine counts and closes them by their Grant.Tag.

// TagViewer tags the WHEP viewers that are not join pages (a player, OBS,
// ffmpeg): they watch, and no page or vc list shows them (issue 35).
const TagViewer = "whep"

// openWatch completes open for a watching viewer: the PeerConnection, no
// member.
func (s *SFU) openWatch(o offer, sess *session, rm *room) (_ *session, _ string, err error) {
	sess.watch, sess.tag = true, o.grant.Tag
	defer func() {
		if err != nil {
			s.count.Add(-1)
			if sess.pc != nil {
				_ = sess.pc.Close()
			}
		}
	}()
	if err := sess.negotiate(o); err != nil {
		return nil, "", err
	}
	if o.grant.MixedAudio {
		if err := rm.addMixViewer(sess); err != nil {
			return nil, "", err
		}
	}
	for _, d := range sess.downs {
		d.setMaxLayer(o.layer)
	}
	rm.addTap(sess)
	s.mu.Lock()
	s.sessions[sess.id] = sess
	s.mu.Unlock()
	close(sess.ready)
	for i, d := range sess.downs {
		go d.readRTCP(sess.senders[i])
	}
	time.AfterFunc(s.cfg.ConnectTimeout, func() {
		if !sess.connected.Load() {
			sess.close(endLost)
		}
	})
	rm.rewire()
	return sess, sess.pc.LocalDescription().SDP, nil
}

// watchers returns the open watching sessions of a conference with a tag.
func (s *SFU) watchers(confID, tag string) []*session {
	rm := s.room(confID, false)
	if rm == nil {
		return nil
	}
	rm.mu.Lock()
	defer rm.mu.Unlock()
	var out []*session
	for x := range rm.sessions {
		if x.watch && x.tag == tag {
			out = append(out, x)
		}
	}
	return out
}

// Watchers counts the watching viewers of a conference with a tag (the
// viewers of one live broadcast).
func (s *SFU) Watchers(confID, tag string) int { return len(s.watchers(confID, tag)) }

// CloseWatchers ends the watching viewers of a conference with a tag (a
// monitor released, a broadcast stopped) and returns how many it ended.
func (s *SFU) CloseWatchers(confID, tag string) int {
	all := s.watchers(confID, tag)
	for _, x := range all {
		x.close(endEngine)
	}
	return len(all)
}
