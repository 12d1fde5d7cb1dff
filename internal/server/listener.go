package server

import (
	"bytes"
	"fmt"
	"log"
	"log/slog"
	"net"
	"strconv"
	"sync"

	"github.com/confer-platform/confer/internal/wire"
)

// The listener wrapper (issue 20 items 2 and 7; docs/operations.md
// "Limits"): it caps open connections per client address and in total,
// and turns the plain-text replies that net/http writes itself, before
// any handler runs (a malformed request, headers above the limit), into
// the JSON envelope.

// maxHeaderBytes bounds the request line and headers (with the query):
// 1 MiB, net/http's default, answered 90413 in the envelope beyond.
const maxHeaderBytes = 1 << 20

// WrapListener returns ln with the connection caps of the limits. A
// connection beyond a cap is answered 90503 (busy) and closed at once, so that it
// holds no file descriptor.
func (s *Server) WrapListener(ln net.Listener) net.Listener {
	return &capListener{Listener: ln, total: s.limits.MaxConns, perIP: s.limits.MaxConnsPerIP, byIP: map[string]int{}, log: s.log}
}

type capListener struct {
	net.Listener
	total, perIP int // < 0: no cap
	log          *slog.Logger

	mu   sync.Mutex
	open int
	byIP map[string]int
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := remoteIP(c)
		l.mu.Lock()
		over := (l.total >= 0 && l.open >= l.total) || (l.perIP >= 0 && l.byIP[ip] >= l.perIP)
		if !over {
			l.open++
			l.byIP[ip]++
		}
		l.mu.Unlock()
		if over {
			refuse(c)
			continue
		}
		return &envelopeConn{Conn: c, release: sync.OnceFunc(func() { l.release(ip) })}, nil
	}
}

func (l *capListener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byIP[ip]--; l.byIP[ip] <= 0 {
		delete(l.byIP, ip)
	}
}

// Open returns the connections open now (tests, /metrics).
func (l *capListener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

func remoteIP(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	return host
}

// refuse answers a connection beyond a cap and closes it. The reply is
// small enough for the socket buffer: the write does not wait for the
// client.
func refuse(c net.Conn) {
	_, _ = c.Write(envelopeReply(503, wire.Errorf(CodeBusy, "the server is busy: the server's connection limit is reached; retry later")))
	_ = c.Close()
}

// envelopeConn releases its cap slot when closed, and rewrites net/http's
// own plain-text error replies into the envelope.
type envelopeConn struct {
	net.Conn
	release func()
}

func (c *envelopeConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// netHTTPErrorHeaders is how net/http (server.go, conn.serve) writes the
// replies it sends before any handler: "HTTP/1.1 <status>" then these
// headers, then the status text.
var netHTTPErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

func (c *envelopeConn) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("HTTP/1.1 ")) && len(p) > 12 {
		if i := bytes.Index(p, netHTTPErrorHeaders); i > 0 && !bytes.Contains(p[:i], []byte("\r\n")) {
			status, err := strconv.Atoi(string(p[9:12]))
			if err == nil && status >= 400 {
				if _, err := c.Conn.Write(envelopeReply(status, netHTTPError(status, string(p[i+len(netHTTPErrorHeaders):])))); err != nil {
					return 0, err
				}
				return len(p), nil
			}
		}
	}
	return c.Conn.Write(p)
}

// netHTTPError maps net/http's refusal to an envelope error: headers
// above the limit 90413, anything else (a malformed request line, header
// or Content-Length, an unsupported transfer encoding) 24506.
func netHTTPError(status int, text string) *wire.Error {
	if status == 431 {
		return wire.Errorf(wire.CodeBodyTooLarge, "the request line and headers exceed %d bytes", maxHeaderBytes)
	}
	return wire.Errorf(wire.CodeIllegalBody, "malformed HTTP request: %s", text)
}

// envelopeReply is a whole HTTP/1.1 reply carrying the envelope of e,
// with the status net/http chose (the request was not served) and
// Connection: close.
func envelopeReply(status int, e *wire.Error) []byte {
	body, _ := wire.MarshalObject(wire.Failure(e))
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, statusText(status), wire.ContentType, len(body), body)
}

func statusText(status int) string {
	switch status {
	case 431:
		return "Request Header Fields Too Large"
	case 503:
		return "Service Unavailable"
	case 501:
		return "Not Implemented"
	}
	return "Bad Request"
}

// newErrorLog routes net/http's own log lines (accept errors, TLS
// handshakes) to the server's logger at WARN.
func newErrorLog(l *slog.Logger) *log.Logger {
	return slog.NewLogLogger(l.Handler(), slog.LevelWarn)
}
