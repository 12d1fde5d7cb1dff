package sfu

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/pion/webrtc/v4"
)

// sdpFrag is the part of an RFC 8840 SDP fragment that PATCH uses.
type sdpFrag struct {
	ufrag, pwd string
	mid        string
	candidates []string
}

func parseFrag(body string) sdpFrag {
	var f sdpFrag
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "a=ice-ufrag:"):
			f.ufrag = strings.TrimPrefix(line, "a=ice-ufrag:")
		case strings.HasPrefix(line, "a=ice-pwd:"):
			f.pwd = strings.TrimPrefix(line, "a=ice-pwd:")
		case strings.HasPrefix(line, "a=mid:") && f.mid == "":
			f.mid = strings.TrimPrefix(line, "a=mid:")
		case strings.HasPrefix(line, "a=candidate:"):
			f.candidates = append(f.candidates, strings.TrimPrefix(line, "a="))
		}
	}
	return f
}

// sdpAttr returns the first value of attribute name in an SDP.
func sdpAttr(sdp, name string) string {
	for _, line := range strings.Split(sdp, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "a="+name+":"); ok {
			return v
		}
	}
	return ""
}

// servePatch is trickle ICE and ICE restart (RFC 9725 section 4.4): a
// fragment with the known ufrag adds the client's candidates (204); one
// with a new ufrag and password restarts ICE and is answered with the
// server's new credentials and candidates (200).
func (s *SFU) servePatch(w http.ResponseWriter, r *http.Request) {
	sess, err := s.sessionOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/trickle-ice-sdpfrag" {
		http.Error(w, "Content-Type must be application/trickle-ice-sdpfrag", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSDP))
	if err != nil {
		http.Error(w, "SDP fragment too large", http.StatusRequestEntityTooLarge)
		return
	}
	f := parseFrag(string(body))
	sess.iceMu.Lock()
	defer sess.iceMu.Unlock()
	// If-Match names the ICE session the fragment is for (RFC 9725
	// section 4.4.1): "*" for a restart, else the current ETag.
	if m := r.Header.Get("If-Match"); m != "" && m != "*" && m != sess.etag() {
		http.Error(w, "ICE session has changed", http.StatusPreconditionFailed)
		return
	}
	remote := sess.pc.RemoteDescription()
	if remote == nil {
		http.Error(w, "session has no remote description", http.StatusConflict)
		return
	}
	curUfrag := sdpAttr(remote.SDP, "ice-ufrag")
	if f.ufrag != "" && f.ufrag != curUfrag {
		frag, err := sess.restartICE(remote.SDP, curUfrag, sdpAttr(remote.SDP, "ice-pwd"), f)
		if err != nil {
			fail(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/trickle-ice-sdpfrag")
		w.Header().Set("ETag", sess.etag())
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, frag)
		return
	}
	mid := f.mid
	if mid == "" {
		mid = sdpAttr(remote.SDP, "mid")
	}
	for _, c := range f.candidates {
		if err := sess.pc.AddICECandidate(webrtc.ICECandidateInit{Candidate: c, SDPMid: &mid}); err != nil {
			http.Error(w, "bad candidate: "+shortErr(err), http.StatusBadRequest)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// etag names the session's current ICE session: its local ufrag.
func (sess *session) etag() string {
	if ld := sess.pc.LocalDescription(); ld != nil {
		return `"` + sdpAttr(ld.SDP, "ice-ufrag") + `"`
	}
	return `"` + sess.id[:8] + `"`
}

// restartICE applies the client's new credentials to its last offer,
// answers it, and returns the answer's credentials and candidates.
func (sess *session) restartICE(offer, oldUfrag, oldPwd string, f sdpFrag) (string, error) {
	if f.pwd == "" {
		return "", &httpError{http.StatusBadRequest, "ICE restart without a=ice-pwd", ErrBadOffer}
	}
	offer = strings.ReplaceAll(offer, "a=ice-ufrag:"+oldUfrag, "a=ice-ufrag:"+f.ufrag)
	offer = strings.ReplaceAll(offer, "a=ice-pwd:"+oldPwd, "a=ice-pwd:"+f.pwd)
	pc := sess.pc
	if c := sess.sfu.tr.batch.checker(); c != nil {
		c.untrack(sess) // the new pair, once selected, is tracked anew (checks.go)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", &httpError{http.StatusBadRequest, "ICE restart refused: " + shortErr(err), ErrBadOffer}
	}
	ans, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", &httpError{http.StatusBadRequest, "ICE restart refused: " + shortErr(err), ErrBadOffer}
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(ans); err != nil {
		return "", &httpError{http.StatusBadRequest, "ICE restart refused: " + shortErr(err), ErrBadOffer}
	}
	select {
	case <-gathered:
	case <-time.After(10 * time.Second):
		return "", &httpError{http.StatusServiceUnavailable, "ICE gathering timed out", ErrUnavailable}
	}
	local := pc.LocalDescription().SDP
	var b strings.Builder
	b.WriteString("a=ice-ufrag:" + sdpAttr(local, "ice-ufrag") + "\r\n")
	b.WriteString("a=ice-pwd:" + sdpAttr(local, "ice-pwd") + "\r\n")
	inFirst := false
	for _, line := range strings.Split(local, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "m="):
			if inFirst {
				return b.String() + "a=end-of-candidates\r\n", nil
			}
			inFirst = true
			b.WriteString(line + "\r\n")
		case inFirst && (strings.HasPrefix(line, "a=mid:") || strings.HasPrefix(line, "a=candidate:")):
			b.WriteString(line + "\r\n")
		}
	}
	return b.String() + "a=end-of-candidates\r\n", nil
}
