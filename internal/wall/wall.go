// Package wall serves the TV wall page (docs/live.md "TV walls"):
// /wall/{hdu_id} shows every channel of a wall in its style, each a WHEP
// stream of what the channel shows. The page is plain files embedded in
// the binary (no build step, like the join page). It is opened with the
// SSO session cookie of the wall's user domain (a user logged in to the
// platform or the console): the cookie names the domain, whose running
// conference that started the wall gives the channels.
package wall

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/system"
	"github.com/confer-platform/confer/internal/vc"
)

// Prefix is where the page is served.
const Prefix = "/wall/"

//go:embed page
var files embed.FS

// Sessions checks the SSO cookie (auth.Service).
type Sessions interface {
	SessionPrincipal(ctx context.Context, cookie string) (*auth.Principal, error)
}

// Walls tells what a wall shows (vc.Module).
type Walls interface {
	WallView(ctx context.Context, domain, hduID, base string) (vc.WallView, bool, error)
	// WallSeen notes that the wall's page is open (a registered wall is
	// online while it is, docs/live.md "TV walls").
	WallSeen(ctx context.Context, domain, hduID string)
}

// Mount serves the page under Prefix and passes every other request to
// next:
//
//	GET /wall/{hdu_id}         the page
//	GET /wall/{hdu_id}/state   what the wall shows, JSON (vc.WallView;
//	                           401 without the session, running false when
//	                           no conference shows the wall)
//	GET /wall/assets/...       the page's script and style
func Mount(next http.Handler, s Sessions, w Walls) http.Handler {
	sub, _ := fs.Sub(files, "page")
	assets := http.StripPrefix(Prefix+"assets/", http.FileServerFS(sub))
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.Path, Prefix)
		if !ok {
			next.ServeHTTP(rw, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			rw.Header().Set("Allow", "GET, HEAD")
			http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		rw.Header().Set("Cache-Control", "no-store")
		rw.Header().Set("X-Content-Type-Options", "nosniff")
		id, rest, _ := strings.Cut(p, "/")
		switch {
		case id == "assets":
			assets.ServeHTTP(rw, r)
		case id == "" || len(id) > 32:
			http.NotFound(rw, r)
		case rest == "":
			servePage(rw)
		case rest == "state":
			serveState(rw, r, s, w, id)
		default:
			http.NotFound(rw, r)
		}
	})
}

func servePage(w http.ResponseWriter) {
	b, err := files.ReadFile("page/wall.html")
	if err != nil {
		http.Error(w, "wall page missing", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; media-src 'self' blob: mediastream:; img-src 'self' data:; frame-ancestors 'none'")
	_, _ = w.Write(b)
}

// state is the JSON of /wall/{hdu_id}/state.
type state struct {
	Running bool `json:"running"`
	vc.WallView
}

func serveState(w http.ResponseWriter, r *http.Request, s Sessions, walls Walls, id string) {
	c, err := r.Cookie(system.CookieName)
	if err != nil || c.Value == "" {
		http.Error(w, "log in to the platform first (no session cookie)", http.StatusUnauthorized)
		return
	}
	p, err := s.SessionPrincipal(r.Context(), c.Value)
	if err != nil {
		http.Error(w, "the session has ended: log in again", http.StatusUnauthorized)
		return
	}
	walls.WallSeen(r.Context(), p.DomainMoid, id)
	v, ok, err := walls.WallView(r.Context(), p.DomainMoid, id, "")
	if err != nil {
		http.Error(w, "the wall's state is unavailable", http.StatusServiceUnavailable)
		return
	}
	st := state{Running: ok, WallView: v}
	if !ok {
		st.HduID, st.Channels = id, []vc.WallChannel{}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(st)
}
