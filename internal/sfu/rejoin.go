package sfu

import (
	"crypto/sha256"
	"encoding/hex"
)

// Rejoining as the same terminal (issue 35, docs/join-page.md "Reconnection"):
// a client names itself with ?client= on its WHIP (or watching join page's
// WHEP) POST, a random id it keeps while it runs (the join page keeps one
// per page, in memory). When its publication is lost (a dropped network,
// a conferd restart, a failover) and it posts again with the same id and
// the same credential, it is the same participant: the engine finds the
// terminal by the key (engine.Joined) and gives it back its mt_id, online
// again, instead of a new terminal beside an offline one.
//
// The key is the SHA-256 of the token and the id: another token cannot
// take the terminal over with the same id, and an id alone (a join by
// login cookie, no token) is as unguessable as a token.

// validClient tells whether c is an acceptable client id: 16 to 128
// letters, digits, '-' or '_'.
func validClient(c string) bool {
	if len(c) < 16 || len(c) > 128 {
		return false
	}
	for _, r := range c {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// rejoinKey is the key of a client id under a credential.
func rejoinKey(token, client string) string {
	h := sha256.Sum256([]byte(token + "\x00" + client))
	return hex.EncodeToString(h[:])
}

// endRejoined ends the member that the same client (key) registered
// before, if the room still holds it: without a leave (endEngine), so the
// terminal stays as it was until the client's new session takes it over.
// A DELETE of that session already under way finishes first (its leave
// reaches the engine before the new join).
func (rm *room) endRejoined(key string) {
	if key == "" {
		return
	}
	rm.mu.Lock()
	var old *session
	for _, m := range rm.members {
		if m.rejoin == key && m.owner != nil && m.owner.local == nil {
			old = m.owner
			break
		}
	}
	rm.mu.Unlock()
	if old != nil {
		old.close(endEngine)
	}
}

// endMember ends the member that holds mtID, if any, before a new
// session takes that mt_id (the engine gave the terminal back to a
// client that rejoined): two members never share an mt_id.
func (rm *room) endMember(mtID string) {
	rm.mu.Lock()
	var old *session
	if m := rm.members[mtID]; m != nil && m.owner != nil && m.owner.local == nil {
		old = m.owner
	}
	rm.mu.Unlock()
	if old != nil {
		old.close(endEngine)
	}
}
