package server

import (
	"os"
	"time"
)

// Limits bound what clients can take from the server: memory of request
// bodies, time of slow requests and idle connections, connections per
// client address and in total (docs/operations.md "Limits"). A zero field
// takes its default (DefaultLimits); a negative count means no limit.
type Limits struct {
	// BodyMemory bounds the bytes of request bodies held in memory at
	// once by the whole server; a request whose body does not fit is
	// answered 90503 (busy) without reading it.
	BodyMemory int64
	// BodyMemoryPerIP bounds the part of BodyMemory that the bodies of
	// one client address may hold at once (issue 38 item 3); beyond,
	// 90503 for that address alone. Negative: no share.
	BodyMemoryPerIP int64
	// UploadDir is where multipart file parts are streamed while a
	// request runs (never into memory).
	UploadDir string

	HeaderTimeout time.Duration // reading the request line and headers
	ReadTimeout   time.Duration // reading a whole request, body included
	UploadTimeout time.Duration // reading the body of an authenticated upload
	WriteTimeout  time.Duration // writing the reply
	IdleTimeout   time.Duration // a keep-alive connection waiting for its next request

	MaxConns      int // open connections in total
	MaxConnsPerIP int // open connections from one client address

	// RTCTokensPerConf bounds the media tokens (rtc_tokens) one
	// conference holds at once (0: rtc.DefaultPerConf, < 0: no cap).
	RTCTokensPerConf int
}

// DefaultLimits fit the API: its bodies are small (1 MiB at most, 21 MiB
// for an upload), its replies are quick, and the CometD long poll and the
// websocket keep their own deadlines (deadlines.go).
func DefaultLimits() Limits {
	return Limits{
		BodyMemory: 64 << 20,
		// BodyMemoryPerIP: 4 MiB, four bodies of the 1 MiB limit.
		BodyMemoryPerIP: 4 << 20,
		UploadDir:       os.TempDir(),
		HeaderTimeout:   10 * time.Second,
		ReadTimeout:     30 * time.Second,
		UploadTimeout:   5 * time.Minute,
		WriteTimeout:    60 * time.Second,
		IdleTimeout:     60 * time.Second,
		MaxConns:        4096,
		MaxConnsPerIP:   256,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	set := func(v *time.Duration, def time.Duration) {
		if *v == 0 {
			*v = def
		}
	}
	if l.BodyMemory == 0 {
		l.BodyMemory = d.BodyMemory
	}
	if l.BodyMemoryPerIP == 0 {
		l.BodyMemoryPerIP = d.BodyMemoryPerIP
	}
	if l.UploadDir == "" {
		l.UploadDir = d.UploadDir
	}
	set(&l.HeaderTimeout, d.HeaderTimeout)
	set(&l.ReadTimeout, d.ReadTimeout)
	set(&l.UploadTimeout, d.UploadTimeout)
	set(&l.WriteTimeout, d.WriteTimeout)
	set(&l.IdleTimeout, d.IdleTimeout)
	if l.MaxConns == 0 {
		l.MaxConns = d.MaxConns
	}
	if l.MaxConnsPerIP == 0 {
		l.MaxConnsPerIP = d.MaxConnsPerIP
	}
	return l
}

// Limits returns the limits in force.
func (s *Server) Limits() Limits { return s.limits }
