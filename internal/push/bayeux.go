package push

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/wire"
)

// conn is what the transport knows of the request (or websocket) a batch
// arrived on.
type conn struct {
	cookie    string // SSO_COOKIE_KEY of the HTTP request or the websocket upgrade
	level     int    // API-Level header, 0 when absent
	transport string // typeLongPolling or typeWebSocket
}

// held is a /meta/connect that the transport answers later: when there
// are messages for the client, when timeout passes, or when something
// ends it early.
type held struct {
	c       *client
	msg     inMessage
	timeout time.Duration
	pos     int // where its reply goes among the batch's replies
}

// process runs a batch in order and returns the replies that are ready,
// and the batch's /meta/connect when it is to be held.
func (s *Server) process(ctx context.Context, msgs []inMessage, cn conn) ([]json.RawMessage, *held) {
	var out []json.RawMessage
	var h *held
	for i := range msgs {
		m := &msgs[i]
		switch m.Channel {
		case chHandshake:
			out = append(out, mustJSON(s.handshake(ctx, m, cn)))
		case chConnect:
			if h != nil { // a second connect in one batch: answer the first now
				out = append(out, s.connectReply(h))
				h = nil
			}
			r, hh := s.connect(ctx, m, cn)
			if hh != nil {
				h = hh
				h.pos = len(out)
			} else {
				out = append(out, mustJSON(r))
			}
		case chSubscribe:
			out = append(out, mustJSON(s.subscribeMsg(m, cn, true)))
		case chUnsubscribe:
			out = append(out, mustJSON(s.subscribeMsg(m, cn, false)))
		case chDisconnect:
			out = append(out, mustJSON(s.disconnect(m, cn)))
		case "":
			out = append(out, mustJSON(reply{Channel: "", ID: m.ID, Error: "400::message without a channel"}))
		default:
			out = append(out, mustJSON(s.publishMsg(m, cn)))
		}
	}
	return out, h
}

func (s *Server) advice(reconnect string) *advice {
	a := &advice{Reconnect: reconnect}
	if reconnect == "retry" {
		a.Timeout = s.opt.ConnectTimeout.Milliseconds()
		a.MaxInterval = s.opt.MaxInterval.Milliseconds()
	}
	return a
}

// unknownClient answers a message of a clientId that does not exist
// (never handshaken, expired, disconnected, or from before a restart):
// the client must handshake again.
func unknownClient(m *inMessage) reply {
	return reply{Channel: m.Channel, ID: m.ID, ClientID: m.ClientID, Subscription: m.Subscription,
		Error: "402::unknown client", Advice: &advice{Reconnect: "handshake"}}
}

// clientOf is the client a message names, when the message comes with
// the login cookie that client handshook with: a clientId alone, taken
// from another client, opens nothing (issue 38 item 13; "unknown
// client" as for a clientId that never was).
func (s *Server) clientOf(m *inMessage, cn conn) *client {
	c := s.lookup(m.ClientID)
	if c == nil || subtle.ConstantTimeCompare([]byte(c.cookie), []byte(cn.cookie)) != 1 {
		return nil
	}
	return c
}

// handshake authenticates with the login's cookie (reference 02 "握手")
// and creates a clientId. The reply's ext carries user_domain_moid.
func (s *Server) handshake(ctx context.Context, m *inMessage, cn conn) reply {
	r := reply{Channel: chHandshake, ID: m.ID, Version: "1.0", MinimumVersion: "1.0", SupportedConnectionTypes: connectionTypes}
	if s.isClosing() {
		r.Error = "503::the server is shutting down"
		r.Advice = &advice{Reconnect: "handshake", Interval: 1000}
		return r
	}
	if m.Version != "" && !strings.HasPrefix(m.Version, "1.") {
		r.Error = "400::unsupported Bayeux version " + m.Version
		r.Advice = &advice{Reconnect: "none"}
		return r
	}
	if len(m.SupportedConnectionTypes) > 0 && !commonType(m.SupportedConnectionTypes) {
		r.Error = "400::no common connection type: the server supports websocket and long-polling"
		r.Advice = &advice{Reconnect: "none"}
		return r
	}
	p, err := s.cfg.Sessions.SessionPrincipal(ctx, cn.cookie)
	if err != nil {
		var we *wire.Error
		if errors.As(err, &we) {
			r.Error = fmt.Sprintf("403::handshake denied: %s (%d)", we.Desc, we.Code)
			r.Advice = &advice{Reconnect: "none"}
			return r
		}
		s.log.Error("push: handshake session check", "err", err)
		r.Error = "500::the session could not be checked"
		r.Advice = &advice{Reconnect: "handshake", Interval: 1000}
		return r
	}
	level := cn.level
	if n, ok := intOf(m.Ext.APILevel); ok && n > 0 {
		level = n
	}
	c := newClient(p.DomainMoid, cn.cookie, level, s.opt.Now())
	c.ack = ackRequested(m.Ext)
	s.add(c)
	r.ClientID = c.id
	r.Successful = true
	r.Advice = s.advice("retry")
	r.Ext = handshakeExt{UserDomainMoid: p.DomainMoid, Ack: c.ack} // ack: ack.go
	return r
}

func commonType(types []string) bool {
	for _, t := range types {
		if t == typeLongPolling || t == typeWebSocket {
			return true
		}
	}
	return false
}

// connect is the client's poll: it is held until there is something to
// deliver or the timeout passes.
func (s *Server) connect(ctx context.Context, m *inMessage, cn conn) (reply, *held) {
	c := s.clientOf(m, cn)
	if c == nil {
		return unknownClient(m), nil
	}
	r := reply{Channel: chConnect, ID: m.ID, ClientID: c.id}
	if m.ConnectionType != "" && m.ConnectionType != typeLongPolling && m.ConnectionType != typeWebSocket {
		r.Error = "400::unsupported connection type " + m.ConnectionType
		r.Advice = &advice{Reconnect: "handshake"}
		return r, nil
	}
	now := s.opt.Now()
	c.touch(now)
	c.acknowledge(m.Ext)
	if !s.sessionStillValid(ctx, c, now) {
		s.met.dropped("login_ended")
		s.remove(c)
		r.Error = "402::the login ended: handshake again after logging in"
		r.Advice = &advice{Reconnect: "handshake"}
		return r, nil
	}
	timeout := s.opt.ConnectTimeout
	if s.isClosing() {
		timeout = 0
	} else if m.Advice != nil && m.Advice.Timeout != nil && *m.Advice.Timeout >= 0 {
		timeout = min(timeout, time.Duration(*m.Advice.Timeout)*time.Millisecond)
	}
	return r, &held{c: c, msg: *m, timeout: timeout}
}

// sessionStillValid checks the client's login again once per
// SessionCheck; a login that ended (logged out, timed out, account
// disabled) ends the client.
func (s *Server) sessionStillValid(ctx context.Context, c *client, now time.Time) bool {
	c.mu.Lock()
	due := now.Sub(c.checkedAt) >= s.opt.SessionCheck
	c.mu.Unlock()
	if !due {
		return true
	}
	_, err := s.cfg.Sessions.SessionPrincipal(ctx, c.cookie)
	var we *wire.Error
	if errors.As(err, &we) {
		return false
	}
	if err != nil {
		s.log.Warn("push: session check", "err", err)
		return true // the store is unwell: keep the client, check again later
	}
	c.mu.Lock()
	c.checkedAt = now
	c.mu.Unlock()
	return true
}

// connectReply is the successful answer to a held connect; with
// acknowledgements its ext names the batch it closes (ack.go).
func (s *Server) connectReply(h *held) json.RawMessage {
	r := reply{Channel: chConnect, ID: h.msg.ID, ClientID: h.c.id, Successful: true, Advice: s.advice("retry")}
	c := h.c
	c.mu.Lock()
	removed, ack, batch := c.removed, c.ack, c.batch
	c.mu.Unlock()
	switch {
	case removed:
		return mustJSON(unknownClient(&h.msg))
	case ack:
		r.Ext = connectExt{Ack: batch}
	}
	if s.isClosing() {
		// Come back soon: the server is restarting or moving.
		r.Advice = &advice{Reconnect: "retry", Interval: 1000}
	}
	return mustJSON(r)
}

// subscribeMsg subscribes (or unsubscribes) a client. Only channels of
// the client's own user domain may be subscribed:
// /userdomains/{user_domain_moid}/..., wildcards allowed in the last
// segment. A batch of channels is all or nothing.
func (s *Server) subscribeMsg(m *inMessage, cn conn, sub bool) reply {
	c := s.clientOf(m, cn)
	if c == nil {
		return unknownClient(m)
	}
	c.touch(s.opt.Now())
	r := reply{Channel: m.Channel, ID: m.ID, ClientID: c.id, Subscription: m.Subscription}
	chans, ok := m.subscriptions()
	if !ok {
		r.Error = "400::the subscription field is missing or not a channel"
		return r
	}
	for _, ch := range chans {
		switch {
		case !validPattern(ch):
			r.Error = fmt.Sprintf("400:%s:invalid channel", ch)
		case isMeta(ch):
			r.Error = fmt.Sprintf("403:%s:meta and service channels cannot be subscribed", ch)
		case sub && domainOf(ch) != c.domain:
			r.Error = fmt.Sprintf("403:%s:subscription denied: only channels of the user domain /userdomains/%s/ may be subscribed", ch, c.domain)
		}
		if r.Error != "" {
			return r
		}
	}
	if sub {
		s.subscribe(c, chans)
	} else {
		s.unsubscribe(c, chans)
	}
	r.Successful = true
	return r
}

// disconnect ends a client.
func (s *Server) disconnect(m *inMessage, cn conn) reply {
	c := s.clientOf(m, cn)
	if c == nil {
		return unknownClient(m)
	}
	s.remove(c)
	return reply{Channel: chDisconnect, ID: m.ID, ClientID: c.id, Successful: true}
}

// publishMsg refuses a client's publication: only the platform publishes.
func (s *Server) publishMsg(m *inMessage, cn conn) reply {
	r := reply{Channel: m.Channel, ID: m.ID, ClientID: m.ClientID}
	if strings.HasPrefix(m.Channel, "/meta/") {
		r.Error = fmt.Sprintf("400:%s:unknown meta channel", m.Channel)
		return r
	}
	c := s.clientOf(m, cn)
	if c == nil {
		return unknownClient(m)
	}
	c.touch(s.opt.Now())
	r.Error = fmt.Sprintf("403:%s:publish denied: clients only subscribe", m.Channel)
	return r
}

func intOf(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		return int(x), x == float64(int(x))
	case json.Number:
		n, err := strconv.Atoi(x.String())
		return n, err == nil
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}
