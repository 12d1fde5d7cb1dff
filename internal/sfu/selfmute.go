package sfu

import (
	"encoding/json"
	"errors"
	"net/http"
)

// serveSelfMute is a participant's own microphone and camera buttons (the
// join page): POST {session}/mute with {"audio": true|false} and/or
// {"video": true|false}, from any session of the participant. The
// microphone goes to the engine (SelfMuter): the terminal's mute is
// stored, pushed and applied as a mute by the chair would be, so vc and
// every page see it; lifting a mute the chair set is refused, 403. The
// camera is the page's own: its video is no longer forwarded and the
// pages show the camera off (docs/join-page.md).
func (s *SFU) serveSelfMute(w http.ResponseWriter, r *http.Request) {
	sess, err := s.sessionOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	var req struct {
		Audio *bool `json:"audio"`
		Video *bool `json:"video"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil || (req.Audio == nil && req.Video == nil) {
		http.Error(w, "body must be JSON {\"audio\": bool} and/or {\"video\": bool}", http.StatusBadRequest)
		return
	}
	m := sess.member
	if m == nil || m.mtID == "" {
		http.Error(w, "this session is no participant", http.StatusForbidden)
		return
	}
	rm := sess.room
	if req.Audio != nil {
		if sm, ok := s.ev.(SelfMuter); ok {
			err = sm.SelfMuted(rm.id, m.mtID, *req.Audio)
		} else {
			err = s.SetMute(rm.id, m.mtID, *req.Audio)
		}
		if errors.Is(err, ErrForbidden) {
			http.Error(w, "the chair muted you", http.StatusForbidden)
			return
		}
		if err != nil {
			fail(w, err)
			return
		}
	}
	if req.Video != nil {
		rm.mu.Lock()
		m.camOff = *req.Video
		rm.bump()
		rm.mu.Unlock()
		rm.rewire()
	}
	w.WriteHeader(http.StatusNoContent)
}
