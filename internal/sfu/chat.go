package sfu

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The join page's chat, raised hands and reactions (docs/join-page.md): a page posts them on its session, the room keeps them, and
// every page reads them in the long-polled state, so they need no data
// channel and reach a page that reconnects.

// maxMessages is how many chat lines and reactions the room keeps.
const maxMessages = 100

// maxChatRunes bounds a chat line.
const maxChatRunes = 500

// reactions are the emoji a page may send.
var reactions = []string{"👍", "👏", "😂", "🎉", "❤️", "😮"}

// message is a chat line (Text) or a reaction (Reaction) in the state.
type message struct {
	Seq      uint64 `json:"seq"`
	MtID     string `json:"mt_id"`
	Name     string `json:"name"`
	Text     string `json:"text,omitempty"`
	Reaction string `json:"reaction,omitempty"`
	At       int64  `json:"at"` // Unix milliseconds
}

// memberOf is the participant a page's session acts for.
func (s *SFU) memberOf(w http.ResponseWriter, r *http.Request) (*session, *member) {
	sess, err := s.sessionOf(r)
	if err != nil {
		fail(w, err)
		return nil, nil
	}
	if sess.member == nil {
		http.Error(w, "the session is no participant", http.StatusForbidden)
		return nil, nil
	}
	return sess, sess.member
}

// serveChat takes {"text": "..."} (a chat line, 1 to 500 characters) or
// {"reaction": "👍"} from a participant's session.
func (s *SFU) serveChat(w http.ResponseWriter, r *http.Request) {
	sess, m := s.memberOf(w, r)
	if m == nil {
		return
	}
	var req struct {
		Text     string `json:"text"`
		Reaction string `json:"reaction"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil {
		http.Error(w, `body must be JSON {"text"} or {"reaction"}`, http.StatusBadRequest)
		return
	}
	req.Text = strings.TrimSpace(req.Text)
	switch {
	case req.Text != "" && req.Reaction != "":
		http.Error(w, "text or reaction, not both", http.StatusBadRequest)
		return
	case req.Reaction != "" && !slices.Contains(reactions, req.Reaction):
		http.Error(w, "reaction must be one of "+strings.Join(reactions, " "), http.StatusBadRequest)
		return
	case req.Reaction == "" && (req.Text == "" || !utf8.ValidString(req.Text) || utf8.RuneCountInString(req.Text) > maxChatRunes):
		http.Error(w, "text must be 1 to 500 characters", http.StatusBadRequest)
		return
	}
	rm := sess.room
	rm.mu.Lock()
	rm.seq++
	rm.messages = append(rm.messages, message{Seq: rm.seq, MtID: m.mtID, Name: m.name, Text: req.Text,
		Reaction: req.Reaction, At: time.Now().UnixMilli()})
	if n := len(rm.messages); n > maxMessages {
		rm.messages = slices.Clone(rm.messages[n-maxMessages:])
	}
	rm.bump()
	rm.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// serveHand takes {"raised": true|false} from a participant's session.
func (s *SFU) serveHand(w http.ResponseWriter, r *http.Request) {
	sess, m := s.memberOf(w, r)
	if m == nil {
		return
	}
	var req struct {
		Raised *bool `json:"raised"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil || req.Raised == nil {
		http.Error(w, `body must be JSON {"raised": true or false}`, http.StatusBadRequest)
		return
	}
	rm := sess.room
	rm.mu.Lock()
	if m.hand != *req.Raised {
		m.hand = *req.Raised
		rm.bump()
	}
	rm.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
