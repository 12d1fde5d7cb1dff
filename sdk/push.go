package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// PushPath is the CometD endpoint of the platform (reference 02 "握手").
const PushPath = "/api/v1/publish"

// Event is one message pushed on a subscribed channel (reference 07).
type Event struct {
	// Channel is the concrete channel, never a wildcard, e.g.
	// /userdomains/{moid}/confs/1110000/speaker.
	Channel string
	// Resource is the channel without its user-domain prefix, e.g.
	// /confs/1110000/speaker. After an "update", GET /api/v1/vc + Resource
	// returns the new state (reference 02 "订阅").
	Resource string
	// Method is "update" (created or changed), "delete" (removed) or
	// "notify" (a notification, with ErrorCode).
	Method string
	// ErrorCode is the error_code of a notification.
	ErrorCode int
	// Data is the message's data object.
	Data map[string]any
}

// ConfID returns the conference number of an event on a /confs/{conf_id}
// channel, or "".
func (e Event) ConfID() string {
	parts := strings.Split(strings.Trim(e.Resource, "/"), "/")
	if len(parts) >= 2 && parts[0] == "confs" {
		return parts[1]
	}
	return ""
}

// PushError is a Bayeux reply that refused a handshake, subscription or
// connection, e.g. "403::domain" for a channel of another user domain.
type PushError struct {
	Channel string // the meta channel: /meta/handshake, /meta/subscribe, ...
	Message string // the reply's error field
	Subject string // the subscription concerned, if any
}

func (e *PushError) Error() string {
	s := "confer: push " + e.Channel
	if e.Subject != "" {
		s += " " + e.Subject
	}
	if e.Message == "" {
		return s + " refused"
	}
	return s + ": " + e.Message
}

// Subscription is a CometD session with its subscriptions. Its events
// arrive on Events until Close, the end of the context given to Subscribe,
// or a failure it cannot recover from (see Err).
type Subscription struct {
	c        *Client
	url      string
	events   chan Event
	ctx      context.Context
	cancel   context.CancelFunc
	done     chan struct{}
	nextID   atomic.Int64
	mu       sync.Mutex
	clientID string
	domain   string
	channels []string // subscribed channels, resubscribed after a new handshake
	cookies  map[string]string
	advice   bayeuxAdvice
	err      error
	// Counters, for tests and monitoring.
	handshakes atomic.Int64
	// Backoff bounds after a failed connection.
	minBackoff, maxBackoff time.Duration
	heartbeat              time.Duration
}

type bayeuxAdvice struct {
	Reconnect string `json:"reconnect,omitempty"`
	Interval  *int64 `json:"interval,omitempty"`
	Timeout   *int64 `json:"timeout,omitempty"`
}

type bayeuxMessage struct {
	Channel                  string          `json:"channel"`
	ID                       string          `json:"id,omitempty"`
	ClientID                 string          `json:"clientId,omitempty"`
	Version                  string          `json:"version,omitempty"`
	MinimumVersion           string          `json:"minimumVersion,omitempty"`
	SupportedConnectionTypes []string        `json:"supportedConnectionTypes,omitempty"`
	ConnectionType           string          `json:"connectionType,omitempty"`
	Subscription             json.RawMessage `json:"subscription,omitempty"`
	Successful               *bool           `json:"successful,omitempty"`
	Error                    string          `json:"error,omitempty"`
	Advice                   *bayeuxAdvice   `json:"advice,omitempty"`
	Ext                      map[string]any  `json:"ext,omitempty"`
	Data                     json.RawMessage `json:"data,omitempty"`
}

// Subscribe opens a push session and subscribes to channel patterns. A
// pattern without the /userdomains/{moid} prefix gets the prefix of the
// caller's user domain: "/confs/**" is every channel of every conference
// of the domain, "/confs/*" the conference list, "/confs/1110000/**"
// everything of one conference (reference 02 "通道说明"). The session
// lives until Close or the end of ctx; after a lost connection or a
// server restart it handshakes again (logging in again when the session
// expired) and subscribes again to every channel.
func (c *Client) Subscribe(ctx context.Context, patterns ...string) (*Subscription, error) {
	sctx, cancel := context.WithCancel(ctx)
	s := &Subscription{
		c: c, url: c.base + PushPath, events: make(chan Event, 256), ctx: sctx, cancel: cancel,
		done: make(chan struct{}), cookies: map[string]string{},
		minBackoff: 100 * time.Millisecond, maxBackoff: 5 * time.Second, heartbeat: 10 * time.Minute,
	}
	if err := s.handshake(ctx); err != nil {
		cancel()
		return nil, err
	}
	if err := s.Add(ctx, patterns...); err != nil {
		s.disconnect()
		cancel()
		return nil, err
	}
	go s.run()
	return s, nil
}

// Events returns the channel of pushed messages; it is closed when the
// subscription ends.
func (s *Subscription) Events() <-chan Event { return s.events }

// DomainMoid returns the caller's user domain, as the handshake gave it.
func (s *Subscription) DomainMoid() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.domain
}

// Handshakes returns how many handshakes the subscription made: 1, plus
// one per reconnection that needed a new session.
func (s *Subscription) Handshakes() int { return int(s.handshakes.Load()) }

// Err returns why the subscription ended: nil while it runs and after
// Close or the end of its context, else the failure.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the subscription (with a Bayeux disconnect) and closes Events.
func (s *Subscription) Close() error {
	s.cancel()
	<-s.done
	return nil
}

// Add subscribes to more channel patterns.
func (s *Subscription) Add(ctx context.Context, patterns ...string) error {
	var chans []string
	for _, p := range patterns {
		chans = append(chans, s.channel(p))
	}
	if err := s.subscribe(ctx, "/meta/subscribe", chans); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range chans {
		if !contains(s.channels, ch) {
			s.channels = append(s.channels, ch)
		}
	}
	return nil
}

// Remove unsubscribes from channel patterns given to Subscribe or Add.
func (s *Subscription) Remove(ctx context.Context, patterns ...string) error {
	var chans []string
	for _, p := range patterns {
		chans = append(chans, s.channel(p))
	}
	s.mu.Lock()
	kept := s.channels[:0]
	for _, ch := range s.channels {
		if !contains(chans, ch) {
			kept = append(kept, ch)
		}
	}
	s.channels = kept
	s.mu.Unlock()
	return s.subscribe(ctx, "/meta/unsubscribe", chans)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// channel puts a pattern under the caller's user domain.
func (s *Subscription) channel(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if strings.HasPrefix(p, "/userdomains/") || strings.HasPrefix(p, "/meta/") || strings.HasPrefix(p, "/service/") {
		return p
	}
	return "/userdomains/" + s.DomainMoid() + p
}

func (s *Subscription) id() string { return strconv.FormatInt(s.nextID.Add(1), 10) }

// handshake opens a Bayeux session with the client's login cookie
// (reference 02 "握手"), logging in again once if the platform refuses it.
func (s *Subscription) handshake(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		sess, err := s.c.ensureSession(ctx)
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.clientID = ""
		s.mu.Unlock()
		msg := bayeuxMessage{Channel: "/meta/handshake", ID: s.id(), Version: "1.0", MinimumVersion: "1.0",
			SupportedConnectionTypes: []string{"long-polling"}}
		reply, err := s.exchange(ctx, sess, msg)
		var pe *PushError
		var ce *Error
		refused := errors.As(err, &pe) || errors.As(err, &ce) && (ce.Code == int(CodeNotLoggedIn) || ce.Code == int(CodeTokenInvalid))
		if refused && attempt == 0 && s.c.canLogin() {
			if _, lerr := s.c.relogin(ctx, sess.generation); lerr != nil {
				return lerr
			}
			continue
		}
		if err != nil {
			return err
		}
		s.handshakes.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.clientID = reply.ClientID
		if d, ok := reply.Ext["user_domain_moid"].(string); ok && d != "" {
			s.domain = d
		} else if info := s.c.LoginInfo(); info != nil && s.domain == "" {
			s.domain = info.Userdomainmoid
		}
		if reply.Advice != nil {
			s.advice = *reply.Advice
		}
		return nil
	}
}

// subscribe sends one subscribe or unsubscribe message per channel, in one
// batch, and checks every reply.
func (s *Subscription) subscribe(ctx context.Context, meta string, chans []string) error {
	if len(chans) == 0 {
		return nil
	}
	s.mu.Lock()
	cid := s.clientID
	s.mu.Unlock()
	msgs := make([]bayeuxMessage, len(chans))
	for i, ch := range chans {
		sub, _ := json.Marshal(ch)
		msgs[i] = bayeuxMessage{Channel: meta, ID: s.id(), ClientID: cid, Subscription: sub}
	}
	_, err := s.exchange(ctx, s.c.current(), msgs...)
	return err
}

// exchange posts a batch of messages, delivers the data messages of the
// reply, and returns the reply to the first message (an error when it
// failed).
func (s *Subscription) exchange(ctx context.Context, sess session, msgs ...bayeuxMessage) (bayeuxMessage, error) {
	replies, err := s.post(ctx, sess, msgs)
	if err != nil {
		return bayeuxMessage{}, err
	}
	want := map[string]bool{}
	for _, m := range msgs {
		want[m.ID] = true
	}
	var first *bayeuxMessage
	var failure error
	for i := range replies {
		r := &replies[i]
		if !strings.HasPrefix(r.Channel, "/meta/") {
			s.deliver(ctx, *r)
			continue
		}
		if r.ID != "" && !want[r.ID] {
			continue
		}
		if first == nil && r.Channel == msgs[0].Channel {
			first = r
		}
		if r.Successful == nil || !*r.Successful {
			var sub string
			_ = json.Unmarshal(r.Subscription, &sub)
			if failure == nil {
				failure = &PushError{Channel: r.Channel, Message: r.Error, Subject: sub}
			}
			if r.Advice != nil {
				s.mu.Lock()
				s.advice = *r.Advice
				s.mu.Unlock()
			}
		}
	}
	if failure != nil {
		return bayeuxMessage{}, failure
	}
	if first == nil {
		return bayeuxMessage{}, &PushError{Channel: msgs[0].Channel, Message: "no reply"}
	}
	return *first, nil
}

// post sends messages to the CometD endpoint with the session cookie.
func (s *Subscription) post(ctx context.Context, sess session, msgs []bayeuxMessage) ([]bayeuxMessage, error) {
	body, err := json.Marshal(msgs)
	if err != nil {
		return nil, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, &TransportError{Method: "POST", URL: s.url, Err: err}
	}
	hr.Header.Set("Content-Type", "application/json;charset=UTF-8")
	hr.Header.Set("User-Agent", s.c.userAgent)
	if sess.cookie != "" {
		hr.AddCookie(&http.Cookie{Name: CookieName, Value: sess.cookie})
	}
	s.mu.Lock()
	for k, v := range s.cookies {
		hr.AddCookie(&http.Cookie{Name: k, Value: v})
	}
	s.mu.Unlock()
	resp, err := s.c.hc.Do(hr)
	if err != nil {
		return nil, &TransportError{Method: "POST", URL: s.url, Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return nil, &TransportError{Method: "POST", URL: s.url, StatusCode: resp.StatusCode, Err: err}
	}
	s.mu.Lock()
	for _, ck := range resp.Cookies() {
		if ck.Name != CookieName {
			s.cookies[ck.Name] = ck.Value
		}
	}
	s.mu.Unlock()
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		// The platform's envelope (no such endpoint, not logged in), or a
		// lone Bayeux message.
		var env map[string]json.RawMessage
		if json.Unmarshal(trimmed, &env) == nil {
			if _, ok := env["success"]; ok {
				return nil, decodeReply(&Endpoint{Name: "push", Method: "POST", Path: PushPath}, PushPath, "POST", s.url, trimmed, nil, false)
			}
		}
		trimmed = append(append([]byte{'['}, trimmed...), ']')
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &TransportError{Method: "POST", URL: s.url, StatusCode: resp.StatusCode, Err: fmt.Errorf("reply %s", snippet(raw))}
	}
	var replies []bayeuxMessage
	if err := json.Unmarshal(trimmed, &replies); err != nil {
		return nil, &TransportError{Method: "POST", URL: s.url, StatusCode: resp.StatusCode, Err: fmt.Errorf("reply is not Bayeux messages: %s", snippet(raw))}
	}
	return replies, nil
}

// deliver hands a data message to the subscriber.
func (s *Subscription) deliver(ctx context.Context, m bayeuxMessage) {
	ev := Event{Channel: m.Channel, Resource: m.Channel}
	prefix := "/userdomains/"
	if strings.HasPrefix(m.Channel, prefix) {
		rest := m.Channel[len(prefix):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			ev.Resource = rest[i:]
		}
	}
	if len(m.Data) > 0 {
		d := json.NewDecoder(bytes.NewReader(m.Data))
		d.UseNumber()
		var data map[string]any
		if d.Decode(&data) == nil {
			ev.Data = plain(data).(map[string]any)
			ev.Method, _ = ev.Data["method"].(string)
			if f, ok := numeric(ev.Data["error_code"]); ok {
				ev.ErrorCode = int(f)
			}
		}
	}
	select {
	case s.events <- ev:
	case <-ctx.Done():
	case <-s.ctx.Done():
	}
}

// run keeps the long-polling connection (reference 02 "断链重订阅"): a
// failed connection is retried with backoff; a session the server forgot
// (402::Unknown client, advice reconnect=handshake, a restart) gets a new
// handshake and every subscription again.
func (s *Subscription) run() {
	defer close(s.done)
	defer close(s.events)
	go s.keepAlive()
	backoff := time.Duration(0)
	first := true
	for s.ctx.Err() == nil {
		s.mu.Lock()
		cid, adv := s.clientID, s.advice
		s.mu.Unlock()
		if cid == "" {
			if err := s.reconnect(); err != nil {
				if s.ctx.Err() == nil {
					s.fail(err)
				}
				break
			}
			continue
		}
		msg := bayeuxMessage{Channel: "/meta/connect", ID: s.id(), ClientID: cid, ConnectionType: "long-polling"}
		if first {
			zero := int64(0)
			msg.Advice = &bayeuxAdvice{Timeout: &zero}
		}
		ctx := s.ctx
		var cancel context.CancelFunc = func() {}
		if adv.Timeout != nil && *adv.Timeout > 0 {
			// The server holds a connect for advice.timeout; allow that and more.
			ctx, cancel = context.WithTimeout(s.ctx, time.Duration(*adv.Timeout)*time.Millisecond+30*time.Second)
		}
		_, err := s.exchange(ctx, s.c.current(), msg)
		cancel()
		if s.ctx.Err() != nil {
			break
		}
		if err != nil {
			var pe *PushError
			s.mu.Lock()
			adv = s.advice
			s.mu.Unlock()
			switch {
			case errors.As(err, &pe) && adv.Reconnect == "none":
				s.fail(err)
				return
			case errors.As(err, &pe):
				// Refused: unknown client, or advice to handshake.
				s.mu.Lock()
				s.clientID = ""
				s.mu.Unlock()
			default:
				// Transport failure: retry, and handshake again after the
				// second failure in a row (the server may have restarted).
				if backoff >= s.minBackoff {
					s.mu.Lock()
					s.clientID = ""
					s.mu.Unlock()
				}
			}
			backoff = s.sleep(backoff)
			continue
		}
		first, backoff = false, 0
		if adv.Interval != nil && *adv.Interval > 0 {
			s.wait(time.Duration(*adv.Interval) * time.Millisecond)
		}
	}
	s.disconnect()
}

// reconnect handshakes again and subscribes to every channel, retrying
// with backoff until it succeeds or the subscription ends. Only a login
// that fails for good (wrong credentials) ends it.
func (s *Subscription) reconnect() error {
	backoff := time.Duration(0)
	for s.ctx.Err() == nil {
		err := s.handshake(s.ctx)
		if err == nil {
			s.mu.Lock()
			chans := append([]string(nil), s.channels...)
			s.mu.Unlock()
			if err = s.subscribe(s.ctx, "/meta/subscribe", chans); err == nil {
				return nil
			}
		}
		if errors.Is(err, ErrLoginFailed) || errors.Is(err, ErrNoCredentials) {
			return err
		}
		backoff = s.sleep(backoff)
	}
	return nil
}

// sleep waits for the next backoff step and returns it.
func (s *Subscription) sleep(prev time.Duration) time.Duration {
	next := prev * 2
	if next < s.minBackoff {
		next = s.minBackoff
	}
	if next > s.maxBackoff {
		next = s.maxBackoff
	}
	s.wait(next)
	return next
}

func (s *Subscription) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.ctx.Done():
	}
}

// keepAlive renews the HTTP session while the subscription lives
// (reference 02 "心跳保护": a heartbeat at least every 30 minutes).
func (s *Subscription) keepAlive() {
	t := time.NewTicker(s.heartbeat)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			_ = s.c.Heartbeat(s.ctx)
		}
	}
}

func (s *Subscription) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.err = err
	}
}

// disconnect ends the Bayeux session, best effort.
func (s *Subscription) disconnect() {
	s.mu.Lock()
	cid := s.clientID
	s.mu.Unlock()
	if cid == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _ = s.post(ctx, s.c.current(), []bayeuxMessage{{Channel: "/meta/disconnect", ID: s.id(), ClientID: cid}})
}
