package push

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/confer-platform/confer/internal/system"
	"github.com/confer-platform/confer/internal/wire"
)

// Path is where the push service listens (reference 02 "握手").
const Path = "/api/v1/publish"

// MaxBody limits a request body or websocket frame.
const MaxBody = 1 << 20

// writeTimeout bounds one websocket write.
const writeTimeout = 10 * time.Second

// IsPath tells whether a request path belongs to the push service:
// /api/v1/publish itself, and /api/v1/publish/... where CometD clients
// append the message type (/handshake, /connect, ...).
func IsPath(p string) bool { return p == Path || strings.HasPrefix(p, Path+"/") }

// ServeHTTP serves the Bayeux transports: a websocket upgrade, or a POST
// of a message batch (long polling).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cn := conn{transport: typeLongPolling}
	if ck, err := r.Cookie(system.CookieName); err == nil {
		cn.cookie = ck.Value
	}
	if lv, err := wire.HeaderAPILevel(r.Header); err == nil {
		cn.level = lv
	}
	tracked := s.track()
	if tracked {
		defer s.conns.Done()
	}
	if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		if !tracked {
			http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
			return
		}
		cn.transport = typeWebSocket
		s.serveWebSocket(w, r, cn)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "Bayeux long polling takes POST; websocket takes an upgrade", http.StatusMethodNotAllowed)
		return
	}
	s.serveLongPoll(w, r, cn)
}

// serveLongPoll answers one POSTed batch. A /meta/connect in it is held
// until there are messages, the timeout passes, or the client polls again.
func (s *Server) serveLongPoll(w http.ResponseWriter, r *http.Request, cn conn) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusBadRequest)
		return
	}
	msgs, err := parseBatch(body)
	if err != nil {
		http.Error(w, "not a Bayeux message batch: "+err.Error(), http.StatusBadRequest)
		return
	}
	out, h := s.process(r.Context(), msgs, cn)
	if h != nil {
		delivered, connect, ok := s.awaitLongPoll(r.Context(), h)
		if !ok {
			return // the client went away; its messages stay queued
		}
		replies := append(append(append([]json.RawMessage{}, out[:h.pos]...), connect), out[h.pos:]...)
		out = append(delivered, replies...)
	}
	w.Header().Set("Content-Type", "application/json;charset=UTF-8")
	w.Header().Set("Cache-Control", "no-cache, no-store")
	_, _ = w.Write(encodeBatch(out))
}

// awaitLongPoll holds a connect and returns the messages to deliver and
// the connect's reply; false when the request was cancelled.
func (s *Server) awaitLongPoll(ctx context.Context, h *held) ([]json.RawMessage, json.RawMessage, bool) {
	c := h.c
	c.attach()
	defer func() { c.detach(s.opt.Now()) }()
	cancel := c.startHold()
	defer c.endHold(cancel)
	select { // a stale signal must not end the wait
	case <-c.wake:
	default:
	}
	if h.timeout > 0 && c.pending() == 0 {
		t := time.NewTimer(h.timeout)
		defer t.Stop()
		select {
		case <-c.wake:
		case <-t.C:
		case <-cancel:
		case <-c.gone:
		case <-s.closing:
		case <-ctx.Done():
			return nil, nil, false
		}
	}
	msgs, reply := s.deliver(h, typeLongPolling)
	return msgs, reply, true
}

// serveWebSocket runs the websocket transport: message batches in text
// frames both ways. Replies are sent as soon as they are ready, published
// messages as soon as they are queued, and a /meta/connect is answered
// when its timeout passes.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request, cn conn) {
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"cometd"}})
	if err != nil {
		return // Accept has answered
	}
	ws.SetReadLimit(MaxBody)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	wc := &wsConn{s: s, ws: ws, holds: make(chan *held, 1)}
	done := make(chan struct{})
	go func() { defer close(done); wc.writer(ctx) }()
	for {
		typ, data, err := ws.Read(ctx)
		if err != nil {
			break
		}
		if typ != websocket.MessageText {
			_ = ws.Close(websocket.StatusUnsupportedData, "Bayeux batches are text frames")
			break
		}
		msgs, err := parseBatch(data)
		if err != nil {
			_ = ws.Close(websocket.StatusInvalidFramePayloadData, "not a Bayeux message batch")
			break
		}
		out, h := s.process(ctx, msgs, cn)
		if len(out) > 0 && wc.send(ctx, out) != nil {
			break
		}
		if h != nil {
			select {
			case wc.holds <- h:
			case <-ctx.Done():
			}
		}
	}
	cancel()
	<-done
	_ = ws.CloseNow()
}

type wsConn struct {
	s     *Server
	ws    *websocket.Conn
	holds chan *held // connects from the reader, for the writer to answer
}

func (wc *wsConn) send(ctx context.Context, msgs []json.RawMessage) error {
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return wc.ws.Write(wctx, websocket.MessageText, encodeBatch(msgs))
}

// writer delivers the bound client's messages and answers its connects.
// The client is bound by its first connect on this websocket and counts
// as attached (not expiring) while the websocket is open.
func (wc *wsConn) writer(ctx context.Context) {
	var bound *client
	var pending *held
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer func() {
		timer.Stop()
		if bound != nil {
			bound.detach(wc.s.opt.Now())
		}
	}()
	answer := func() error {
		msgs, reply := wc.s.deliver(pending, typeWebSocket)
		msgs = append(msgs, reply)
		pending = nil
		timer.Stop()
		return wc.send(ctx, msgs)
	}
	for {
		var wake, gone <-chan struct{}
		if bound != nil {
			wake, gone = bound.wake, bound.gone
		}
		var err error
		select {
		case <-ctx.Done():
			return
		case <-wc.s.closing:
			if pending != nil {
				_ = answer()
			}
			_ = wc.ws.Close(websocket.StatusGoingAway, "server shutting down")
			return
		case h := <-wc.holds:
			if pending != nil { // superseded by a newer connect
				if err = answer(); err != nil {
					break
				}
			}
			if bound != h.c {
				if bound != nil {
					bound.detach(wc.s.opt.Now())
				}
				bound = h.c
				bound.attach()
			}
			pending = h
			if h.timeout <= 0 || bound.pending() > 0 {
				err = answer()
			} else {
				timer.Reset(h.timeout)
			}
		case <-wake:
			if msgs := wc.s.sendNow(bound); len(msgs) > 0 {
				err = wc.send(ctx, msgs)
			} else if pending != nil && bound.pending() > 0 {
				err = answer() // acknowledgements: messages go with connect replies
			}
		case <-timer.C:
			if pending != nil {
				err = answer()
			}
		case <-gone:
			if pending != nil {
				err = answer() // "402::unknown client": handshake again
			}
			bound.detach(wc.s.opt.Now())
			bound = nil
		}
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				_ = wc.ws.Close(websocket.StatusGoingAway, "write failed")
			}
			return
		}
	}
}
