package sfu

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxSDP bounds an offer or a PATCH body; real offers are a few kilobytes.
const maxSDP = 64 << 10

// Paths of the media plane (Confer extensions, docs/media.md "HTTP").
const (
	PathWHIP    = "/rtc/whip/"
	PathWHEP    = "/rtc/whep/"
	PathSession = "/rtc/session/"
	PathState   = "/rtc/state/"
	PathJoin    = "/rtc/join/"
	PathAssets  = "/rtc/assets/"
)

// Handler serves WHIP, WHEP, their sessions, the room state and the join
// page; mount it at the root (its paths start with /rtc/).
func (s *SFU) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /rtc/whip/{conf_id}", func(w http.ResponseWriter, r *http.Request) { s.serveOffer(w, r, false) })
	mux.HandleFunc("POST /rtc/whep/{conf_id}", func(w http.ResponseWriter, r *http.Request) { s.serveOffer(w, r, true) })
	mux.HandleFunc("OPTIONS /rtc/whip/{conf_id}", s.serveOptions)
	mux.HandleFunc("OPTIONS /rtc/whep/{conf_id}", s.serveOptions)
	mux.HandleFunc("PATCH /rtc/session/{id}", s.servePatch)
	mux.HandleFunc("DELETE /rtc/session/{id}", s.serveDelete)
	mux.HandleFunc("POST /rtc/session/{id}/layer", s.serveLayer)
	mux.HandleFunc("POST /rtc/session/{id}/mute", s.serveSelfMute)
	mux.HandleFunc("POST /rtc/session/{id}/chat", s.serveChat)
	mux.HandleFunc("POST /rtc/session/{id}/hand", s.serveHand)
	mux.HandleFunc("GET /rtc/state/{conf_id}", s.serveState)
	mux.HandleFunc("GET /rtc/join/{conf_id}", s.serveJoin)
	mux.Handle("GET /rtc/assets/", http.StripPrefix(PathAssets, assetHandler()))
	return mux
}

// redirected answers 307 with the owner node's URL when another node
// serves the conference's media (Config.Locate): the method and the body
// are kept (RFC 9110 section 15.4.8), so a WHIP or WHEP client re-sends its
// offer there, and the session's Location is then the owner's.
func (s *SFU) redirected(w http.ResponseWriter, r *http.Request, confID string, claim bool) bool {
	if s.cfg.Locate == nil {
		return false
	}
	owner, err := s.cfg.Locate(r.Context(), confID, claim)
	if err != nil {
		http.Error(w, "the conference's media node is unknown for now", http.StatusServiceUnavailable)
		return true
	}
	if owner == "" {
		return false
	}
	w.Header().Set("Location", owner+r.URL.RequestURI())
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "the conference's media is served by "+owner, http.StatusTemporaryRedirect)
	return true
}

type requestKey struct{}

func withRequest(r *http.Request) context.Context {
	return context.WithValue(r.Context(), requestKey{}, r)
}

// RequestFromContext returns the HTTP request an Authorize call serves, so
// an Authorizer can accept a logged-in user's cookie instead of a token, or
// read the conference password the join page sends in X-Confer-Password.
func RequestFromContext(ctx context.Context) *http.Request {
	r, _ := ctx.Value(requestKey{}).(*http.Request)
	return r
}

func fail(w http.ResponseWriter, err error) {
	code, msg := statusOf(err)
	if code == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="confer"`)
	}
	http.Error(w, msg, code)
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

func (s *SFU) serveOptions(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Accept-Post", "application/sdp")
	s.iceLinks(w.Header())
	w.WriteHeader(http.StatusNoContent)
}

// iceLinks adds the STUN/TURN servers as Link headers, rel="ice-server"
// (RFC 9725 section 4.6), for WHIP and WHEP clients other than the page.
func (s *SFU) iceLinks(h http.Header) {
	for _, is := range s.cfg.ICEServers {
		for _, u := range is.URLs {
			l := "<" + u + `>; rel="ice-server"`
			if c, ok := is.Credential.(string); ok && is.Username != "" {
				l += `; username="` + is.Username + `"; credential="` + c + `"; credential-type="password"`
			}
			h.Add("Link", l)
		}
	}
}

// serveOffer is WHIP (RFC 9725 section 4.2) or WHEP: validate, authorise,
// open the session, reply 201 with Location and the SDP answer.
func (s *SFU) serveOffer(w http.ResponseWriter, r *http.Request, whep bool) {
	confID := r.PathValue("conf_id")
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/sdp" {
		http.Error(w, "Content-Type must be application/sdp", http.StatusUnsupportedMediaType)
		return
	}
	token := bearer(r)
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxSDP))
	if err != nil {
		http.Error(w, "SDP offer too large", http.StatusRequestEntityTooLarge)
		return
	}
	g, err := s.auth.Authorize(withRequest(r), confID, token)
	if err != nil {
		fail(w, err)
		return
	}
	if s.redirected(w, r, confID, true) {
		return
	}
	if (whep && !g.Role.canSubscribe()) || (!whep && !g.Role.canPublish()) {
		fail(w, ErrForbidden)
		return
	}
	q := r.URL.Query()
	o := offer{confID: confID, token: token, grant: g, whep: whep, sdp: string(body), name: g.Name,
		viewer: q.Get("viewer"), fixed: q.Get("mt_id"), dual: q.Get("dual") == "1", layer: layerHigh}
	if q.Get("preview") == "1" {
		if !whep || !g.Preview || o.viewer != "" {
			http.Error(w, "a preview is a WHEP session of an account that may control the conference", http.StatusForbidden)
			return
		}
		// A preview watches (watch.go): no participant, not counted
		// against the conference's limit, ended with the conference or
		// its DELETE.
		o.grant.Watch, o.grant.Tag = true, "preview"
	}
	if whep && !o.grant.Watch && o.viewer == "" && q.Get("kind") != string(KindBrowser) {
		// A WHEP viewer (a player, not a join page) receives only: it is
		// no terminal of the conference (issue 35), so it watches as a
		// preview does, tagged TagViewer.
		o.grant.Watch, o.grant.Tag = true, TagViewer
	}
	if q.Get("composed") == "1" {
		// The composed picture (composed.go): a WHEP viewer of the
		// broadcast only, on a node that composes.
		s.mu.Lock()
		can := s.composer != nil
		s.mu.Unlock()
		switch {
		case !whep || o.dual || o.fixed != "":
			http.Error(w, "composed=1 is for a WHEP viewer of the broadcast (no mt_id, no dual)", http.StatusBadRequest)
			return
		case !can:
			http.Error(w, ErrNoComposer.Error(), http.StatusServiceUnavailable)
			return
		}
		o.composed = true
		o.wall = q.Get("wall")
	}
	if c := q.Get("client"); c != "" {
		if !validClient(c) {
			http.Error(w, "client must be 16 to 128 letters, digits, '-' or '_'", http.StatusBadRequest)
			return
		}
		o.rejoin = rejoinKey(token, c)
	}
	if n := strings.TrimSpace(q.Get("name")); n != "" && len(n) <= 64 {
		o.name = n
	}
	switch {
	case q.Get("kind") == string(KindBrowser):
		o.kind = KindBrowser
	case whep:
		o.kind = KindWHEP
	default:
		o.kind = KindWHIP
	}
	if wd, ht := atoi(q.Get("width")), atoi(q.Get("height")); wd > 0 || ht > 0 {
		o.layer = layerForSize(wd, ht)
	}
	if l := q.Get("layer"); l != "" {
		o.layer = layerOfRID(l)
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	sess, answer, err := s.open(ctx, o)
	if err != nil {
		code, msg := statusOf(err)
		s.cfg.Log.Info("rtc: offer refused", "method", protoName(whep), "conf_id", confID, "kind", o.kind, "status", code,
			"reason", msg, "remote", r.RemoteAddr)
		fail(w, err)
		return
	}
	mt := ""
	if sess.member != nil {
		mt = sess.member.mtID
	}
	s.cfg.Log.Info("rtc: session opened", "method", protoName(whep), "conf_id", confID, "mt_id", mt, "kind", o.kind,
		"session", sess.id, "viewer", o.viewer, "dual", o.dual, "remote", r.RemoteAddr)
	w.Header().Set("Content-Type", "application/sdp")
	w.Header().Set("Location", PathSession+sess.id)
	w.Header().Set("ETag", sess.etag())
	// Trickle and ICE restart through PATCH (RFC 9725 section 4.3.1).
	w.Header().Set("Accept-Patch", "application/trickle-ice-sdpfrag")
	s.iceLinks(w.Header())
	if sess.member != nil { // a watching viewer (a preview) is no terminal
		w.Header().Set("X-Confer-Mt-Id", sess.member.mtID)
	}
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, answer)
}

// protoName names the protocol of an offer in the log.
func protoName(whep bool) string {
	if whep {
		return "WHEP"
	}
	return "WHIP"
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 100000 {
		return 0
	}
	return n
}

// sessionOf finds a session and checks its bearer token is the one that
// created it (RFC 9725 section 4.5: the session URL is protected alike). A
// session opened without a token (a logged-in user's cookie) is protected
// by its unguessable id alone.
func (s *SFU) sessionOf(r *http.Request) (*session, error) {
	token := bearer(r)
	s.mu.Lock()
	sess := s.sessions[r.PathValue("id")]
	s.mu.Unlock()
	if sess == nil || sess.local != nil {
		return nil, &httpError{http.StatusNotFound, "unknown session", ErrNotFound}
	}
	h := sha256.Sum256([]byte(token))
	if subtle.ConstantTimeCompare(h[:], sess.tokenHash[:]) != 1 {
		return nil, ErrUnauthorized
	}
	return sess, nil
}

func (s *SFU) serveDelete(w http.ResponseWriter, r *http.Request) {
	sess, err := s.sessionOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	sess.close(endDelete)
	w.WriteHeader(http.StatusOK)
}

// serveLayer takes the size a subscriber renders a video at, {"width":W,
// "height":H}, or a layer name, {"layer":"q"}, and picks the simulcast
// layer it receives (switching on the layer's next key frame).
func (s *SFU) serveLayer(w http.ResponseWriter, r *http.Request) {
	sess, err := s.sessionOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	var req struct {
		Width  int    `json:"width"`
		Height int    `json:"height"`
		Layer  string `json:"layer"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil {
		http.Error(w, "body must be JSON {\"width\",\"height\"} or {\"layer\"}", http.StatusBadRequest)
		return
	}
	l := layerForSize(req.Width, req.Height)
	if req.Layer != "" {
		l = layerOfRID(req.Layer)
	}
	for _, d := range sess.downs {
		d.setMaxLayer(l)
	}
	w.WriteHeader(http.StatusNoContent)
}

// serveState is the join page's view of the room, long-polled: with
// ?since=V it answers once the room's version differs from V (or after 25
// s). ?session= names the caller's session, echoed as "you".
func (s *SFU) serveState(w http.ResponseWriter, r *http.Request) {
	confID := r.PathValue("conf_id")
	g, err := s.auth.Authorize(withRequest(r), confID, bearer(r))
	if err != nil {
		fail(w, err)
		return
	}
	if s.redirected(w, r, confID, false) {
		return
	}
	rm := s.room(confID, true)
	if rm == nil {
		fail(w, ErrClosed)
		return
	}
	since, hasSince := r.URL.Query().Get("since"), r.URL.Query().Has("since")
	st, changed := rm.state()
	if hasSince && since == strconv.FormatUint(st.Version, 10) {
		t := time.NewTimer(25 * time.Second)
		select {
		case <-changed:
		case <-t.C:
		case <-r.Context().Done():
		}
		t.Stop()
		st, _ = rm.state()
	}
	if s.room(confID, false) != rm {
		st.Ended = true
	}
	st.Conference, st.Name = g.Title, g.Name
	if id := r.URL.Query().Get("session"); id != "" {
		s.mu.Lock()
		if x := s.sessions[id]; x != nil && x.room == rm && x.member != nil {
			st.You = x.member.mtID
		}
		s.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(st)
}
