package sfu

import (
	"errors"
	"net/http"
	"strings"
)

// Sentinel errors shared by the SFU, its Authorizer and its Events. Each maps
// to one HTTP status of the WHIP/WHEP contract (docs/media.md, "Errors").
var (
	// ErrUnauthorized: the bearer token is missing or wrong (401).
	ErrUnauthorized = errors.New("sfu: missing or invalid token")
	// ErrPasswordRequired: the conference has a password and the request
	// did not carry it (X-Confer-Password) or carried a wrong one (401).
	ErrPasswordRequired = errors.New("sfu: conference password required")
	// ErrForbidden: the token is valid but its role does not allow the
	// request, e.g. a subscribe token on WHIP (403).
	ErrForbidden = errors.New("sfu: role does not allow this request")
	// ErrNotFound: unknown or ended conference or session (404).
	ErrNotFound = errors.New("sfu: unknown conference or session")
	// ErrFull: the conference holds its maximum of participants (409).
	ErrFull = errors.New("sfu: conference is full")
	// ErrUnavailable: the node holds its maximum of sessions (503).
	ErrUnavailable = errors.New("sfu: node is at its session limit")
	// ErrBadOffer: the SDP offer is malformed or unusable (400).
	ErrBadOffer = errors.New("sfu: malformed or unusable SDP offer")
	// ErrClosed: the SFU has been closed.
	ErrClosed = errors.New("sfu: closed")
)

// httpError is what a WHIP/WHEP client sees: a status and a short reason
// (Tailscale's HTTPError shape: Msg for the client, Err for the log).
type httpError struct {
	Code int
	Msg  string
	Err  error
}

func (e *httpError) Error() string { return e.Msg }
func (e *httpError) Unwrap() error { return e.Err }

// statusOf maps an error to its HTTP status and reason. Anything unknown is
// 503 (the node cannot serve it now), never 500.
func statusOf(err error) (int, string) {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he.Code, he.Msg
	case errors.Is(err, ErrPasswordRequired):
		return http.StatusUnauthorized, "password required"
	case errors.Is(err, ErrUnauthorized):
		return http.StatusUnauthorized, "missing or invalid token"
	case errors.Is(err, ErrForbidden):
		return http.StatusForbidden, "token role does not allow this"
	case errors.Is(err, ErrNotFound):
		return http.StatusNotFound, "unknown or ended conference"
	case errors.Is(err, ErrFull):
		return http.StatusConflict, "conference is full"
	case errors.Is(err, ErrBadOffer):
		return http.StatusBadRequest, "malformed SDP offer"
	default:
		return http.StatusServiceUnavailable, "media node unavailable"
	}
}

// reason is an error's own words without the sentinel it wraps
// ("media: the participant is refused: only the speaker may share" gives
// "only the speaker may share"), for a person to read.
func reason(err error) string {
	msg := err.Error()
	if u := errors.Unwrap(err); u != nil {
		msg = strings.TrimPrefix(msg, u.Error()+": ")
	}
	return msg
}
