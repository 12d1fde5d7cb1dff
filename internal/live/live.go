// Package live serves what a live broadcast's viewers open besides WHEP
// (docs/live.md "Live broadcasts"): the broadcast's descriptor
// (Readme.json, the reference's livestreampath) and, when the system
// ffmpeg is installed, its HLS playlist and segments.
package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/sfu"
)

// Prefix is where the files are served:
//
//	/live/{domain}/{conf_id}/{rec_id}/Readme.json  {"whep_url", "hls_url"}
//	/live/{domain}/{conf_id}/{rec_id}/index.m3u8   the HLS playlist
//	/live/{domain}/{conf_id}/{rec_id}/segNNNNNN.ts its segments
//
// The domain is in the path so that the playlist's relative segment
// addresses carry it.
const Prefix = "/live/"

// Admit admits a viewer of a broadcast (rtc.Authorizer.AuthorizeWatch):
// public broadcasts without credential, others with the session cookie
// or a bearer token.
type Admit func(ctx context.Context, req *http.Request, q url.Values, confID, bearer string) (sfu.Grant, error)

// Path is the descriptor's path of a broadcast.
func Path(domain, confID, recID string) string {
	return Prefix + url.PathEscape(domain) + "/" + url.PathEscape(confID) + "/" + url.PathEscape(recID) + "/Readme.json"
}

// WHEPURL is the broadcast's WHEP link.
func WHEPURL(base, domain, confID, recID string) string {
	return base + sfu.PathWHEP + url.PathEscape(confID) + "?" + url.Values{"domain": {domain}, "live": {recID}}.Encode()
}

var segment = regexp.MustCompile(`^seg[0-9]{6}\.ts$`)

// playlistWait bounds how long the first playlist request waits for
// ffmpeg's first segment.
const playlistWait = 20 * time.Second

// Mount serves Prefix and passes other requests to next; hls nil: no HLS
// (the descriptor has no hls_url and the playlist answers 404).
//
// locate (nil: every broadcast is served here) names the node that owns
// a conference's media ("" this one, rtc.Owners.Locate): the playlist and
// segments of a conference another node owns are answered 307 to the
// same path on that node, whose SFU holds the broadcast (docs/live.md
// "HLS").
func Mount(next http.Handler, admit Admit, hls *HLS, locate func(ctx context.Context, confID string) (string, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.Path, Prefix)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		parts := strings.Split(p, "/")
		if len(parts) != 4 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
			http.NotFound(w, r)
			return
		}
		domain, confID, recID, file := parts[0], parts[1], parts[2], parts[3]
		_, err := admit(r.Context(), r, url.Values{"domain": {domain}, "live": {recID}}, confID, bearer(r))
		if err != nil {
			if hls != nil && errors.Is(err, sfu.ErrNotFound) {
				hls.Stop(confID, recID) // the broadcast ended
			}
			code := http.StatusNotFound
			if errors.Is(err, sfu.ErrUnauthorized) {
				code = http.StatusUnauthorized
			}
			http.Error(w, "no such broadcast, or it needs a login", code)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		switch {
		case file == "Readme.json":
			base := baseURL(r)
			out := map[string]string{"whep_url": WHEPURL(base, domain, confID, recID)}
			if hls != nil {
				out["hls_url"] = base + Prefix + url.PathEscape(domain) + "/" + url.PathEscape(confID) + "/" + url.PathEscape(recID) + "/index.m3u8"
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(out)
		case (file == "index.m3u8" || segment.MatchString(file)) && locate != nil && redirected(w, r, locate, confID):
		case hls == nil:
			http.Error(w, "HLS needs ffmpeg, which this node lacks", http.StatusNotFound)
		case file == "index.m3u8":
			dir, err := hls.Dir(r.Context(), confID, recID)
			if err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
			path := filepath.Join(dir, "index.m3u8")
			deadline := time.Now().Add(playlistWait)
			for {
				if _, err := os.Stat(path); err == nil {
					break
				}
				if time.Now().After(deadline) || r.Context().Err() != nil {
					http.Error(w, "the stream has not started yet", http.StatusServiceUnavailable)
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
			w.Header().Set("Content-Type", "application/vnd.apple.mpegurl")
			http.ServeFile(w, r, path)
		case segment.MatchString(file):
			dir, err := hls.Dir(r.Context(), confID, recID)
			if err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "video/mp2t")
			http.ServeFile(w, r, filepath.Join(dir, file))
		default:
			http.NotFound(w, r)
		}
	})
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// redirected answers 307 to the owner of the conference's media when it
// is another node (RFC 9110 section 15.4.8: the same method, path and
// query there), and tells whether it did.
func redirected(w http.ResponseWriter, r *http.Request, locate func(ctx context.Context, confID string) (string, error), confID string) bool {
	owner, err := locate(r.Context(), confID)
	if err != nil {
		http.Error(w, "the conference's media node is unknown for now; retry", http.StatusServiceUnavailable)
		return true
	}
	if owner == "" {
		return false
	}
	w.Header().Set("Location", owner+r.URL.RequestURI())
	w.WriteHeader(http.StatusTemporaryRedirect)
	return true
}
