package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// rawClient is the --raw client: HTTP/1.1 over kept-alive connections,
// each request written and each reply read by hand, as wrk does, instead
// of net/http's client. On two cores the load generator shares the CPU
// with conferd and its database; net/http's client cost about 90 µs of
// CPU a request, a fifth of what a speaker change costs the whole machine
// (docs/benchmarks.md "Fourth pass"). It sends what the request carries
// (method, path and query, Content-Type, cookies, body) and reads a reply
// with a Content-Length or a chunked body.
type rawClient struct {
	addr  string // host:port
	conns chan *rawConn
}

type rawConn struct {
	c   net.Conn
	br  *bufio.Reader
	out []byte
}

func newRawClient(addr string, conc int) *rawClient {
	return &rawClient{addr: addr, conns: make(chan *rawConn, conc)}
}

// do sends req and returns the body of its reply, an error for a failed
// exchange or an HTTP status other than 200 (as send does).
func (rc *rawClient) do(req *http.Request) ([]byte, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		body = b
	}
	var c *rawConn
	select {
	case c = <-rc.conns:
	default:
		nc, err := net.DialTimeout("tcp", rc.addr, 5*time.Second)
		if err != nil {
			return nil, err
		}
		c = &rawConn{c: nc, br: bufio.NewReaderSize(nc, 32<<10)}
	}
	status, reply, keep, err := c.exchange(req, rc.addr, body)
	if err != nil || !keep {
		c.c.Close()
	} else {
		select {
		case rc.conns <- c:
		default:
			c.c.Close()
		}
	}
	if err == nil && status != 200 {
		err = fmt.Errorf("HTTP %d", status)
	}
	return reply, err
}

// exchange writes one request and reads its reply; keep is false when
// the server closes the connection after it.
func (c *rawConn) exchange(req *http.Request, host string, body []byte) (status int, reply []byte, keep bool, err error) {
	b := c.out[:0]
	b = append(b, req.Method...)
	b = append(b, ' ')
	b = append(b, req.URL.RequestURI()...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\n"...)
	for _, k := range []string{"Content-Type", "Cookie"} {
		if v := req.Header.Get(k); v != "" {
			b = append(b, k...)
			b = append(b, ": "...)
			b = append(b, v...)
			b = append(b, "\r\n"...)
		}
	}
	if body != nil {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, body...)
	c.out = b
	if _, err := c.c.Write(b); err != nil {
		return 0, nil, false, err
	}
	return c.readReply()
}

var errBadReply = errors.New("malformed HTTP reply")

// readReply reads a status line, the headers and the body.
func (c *rawConn) readReply() (status int, body []byte, keep bool, err error) {
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return 0, nil, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, nil, false, errBadReply
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, false, errBadReply
	}
	length, chunked, keep := -1, false, true
	for {
		line, err = c.br.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, nil, false, errBadReply
		}
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(v)); err != nil || length < 0 {
				return 0, nil, false, errBadReply
			}
		case bytes.EqualFold(k, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(v, []byte("chunked"))
		case bytes.EqualFold(k, []byte("Connection")):
			keep = !bytes.EqualFold(v, []byte("close"))
		}
	}
	switch {
	case chunked:
		body, err = c.readChunked()
	case length >= 0:
		body = make([]byte, length)
		_, err = io.ReadFull(c.br, body)
	default: // the body runs to the connection's end
		body, err = io.ReadAll(c.br)
		keep = false
	}
	return status, body, keep && err == nil, err
}

// readChunked reads a chunked body (RFC 9112 section 7.1), trailers
// ignored.
func (c *rawConn) readChunked() ([]byte, error) {
	var body []byte
	for {
		line, err := c.br.ReadSlice('\n')
		if err != nil {
			return nil, err
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(size), 16, 32)
		if err != nil || n < 0 {
			return nil, errBadReply
		}
		if n == 0 {
			for { // trailers, then the blank line
				line, err := c.br.ReadSlice('\n')
				if err != nil {
					return nil, err
				}
				if len(bytes.TrimRight(line, "\r\n")) == 0 {
					return body, nil
				}
			}
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		if _, err := io.ReadFull(c.br, body[start:]); err != nil {
			return nil, err
		}
		if _, err := c.br.Discard(2); err != nil { // the chunk's CRLF
			return nil, err
		}
	}
}
