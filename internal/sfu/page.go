package sfu

import (
	"embed"
	"io/fs"
	"net/http"
)

// The join page: plain files embedded in the binary, no build step, no CDN.
//
//go:embed page
var pageFiles embed.FS

func assetHandler() http.Handler {
	sub, _ := fs.Sub(pageFiles, "page")
	return http.FileServerFS(sub)
}

// serveJoin serves the join page of one conference; the page reads the
// conference id from its path and the token from its fragment (#token=).
func (s *SFU) serveJoin(w http.ResponseWriter, r *http.Request) {
	if s.redirected(w, r, r.PathValue("conf_id"), false) {
		return // the fragment (#token=) stays with the browser across the redirect
	}
	s.cfg.Log.Info("rtc: join page", "conf_id", r.PathValue("conf_id"), "remote", r.RemoteAddr)
	b, err := pageFiles.ReadFile("page/join.html")
	if err != nil {
		http.Error(w, "join page missing", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; media-src 'self' blob: mediastream:; img-src 'self' data:")
	_, _ = w.Write(b)
}
