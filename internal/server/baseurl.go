package server

import "net/http"

// baseURL is the scheme and host a request reached, for the links a reply
// carries (the media URLs of vc's rtc_tokens). A proxy in front of conferd
// that terminates TLS says so with X-Forwarded-Proto (docs/media.md).
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
