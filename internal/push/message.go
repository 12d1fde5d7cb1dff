package push

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Meta channels of Bayeux 1.0.
const (
	chHandshake   = "/meta/handshake"
	chConnect     = "/meta/connect"
	chSubscribe   = "/meta/subscribe"
	chUnsubscribe = "/meta/unsubscribe"
	chDisconnect  = "/meta/disconnect"
)

// Connection types the server supports (reference 02 "传输层"; callback
// polling, JSONP, is not offered).
const (
	typeLongPolling = "long-polling"
	typeWebSocket   = "websocket"
)

var connectionTypes = []string{typeWebSocket, typeLongPolling}

// inMessage is a message a client sends.
type inMessage struct {
	Channel                  string          `json:"channel"`
	ID                       json.RawMessage `json:"id,omitempty"`
	ClientID                 string          `json:"clientId,omitempty"`
	Version                  string          `json:"version,omitempty"`
	SupportedConnectionTypes []string        `json:"supportedConnectionTypes,omitempty"`
	ConnectionType           string          `json:"connectionType,omitempty"`
	Subscription             json.RawMessage `json:"subscription,omitempty"`
	Advice                   *inAdvice       `json:"advice,omitempty"`
	Ext                      inExt           `json:"ext,omitzero"`
	Data                     json.RawMessage `json:"data,omitempty"`
}

// inExt is what the server reads of a message's ext object (the other
// members a client sends are not read): api_level in a handshake, and
// ack, true in a handshake that asks for acknowledgements and a batch
// number in a connect that acknowledges one (ack.go). Both are the JSON
// value sent, as encoding/json decodes it (bool, float64, string), since
// the CometD extension's types differ by message.
type inExt struct {
	APILevel any `json:"api_level"`
	Ack      any `json:"ack"`
}

type inAdvice struct {
	Timeout *int64 `json:"timeout,omitempty"` // milliseconds
}

// subscriptions reads the subscription field: one channel or a list.
func (m *inMessage) subscriptions() ([]string, bool) {
	if len(m.Subscription) == 0 {
		return nil, false
	}
	var one string
	if json.Unmarshal(m.Subscription, &one) == nil {
		return []string{one}, one != ""
	}
	var many []string
	if json.Unmarshal(m.Subscription, &many) == nil && len(many) > 0 {
		for _, s := range many {
			if s == "" {
				return nil, false
			}
		}
		return many, true
	}
	return nil, false
}

// reply is a message the server sends in answer to one of a client's.
type reply struct {
	Channel                  string          `json:"channel"`
	ID                       json.RawMessage `json:"id,omitempty"`
	ClientID                 string          `json:"clientId,omitempty"`
	Successful               bool            `json:"successful"`
	Error                    string          `json:"error,omitempty"`
	Subscription             json.RawMessage `json:"subscription,omitempty"`
	Version                  string          `json:"version,omitempty"`
	MinimumVersion           string          `json:"minimumVersion,omitempty"`
	SupportedConnectionTypes []string        `json:"supportedConnectionTypes,omitempty"`
	Advice                   *advice         `json:"advice,omitempty"`
	Ext                      any             `json:"ext,omitempty"` // handshakeExt or connectExt
}

// handshakeExt is the ext of a handshake's reply: the session's user
// domain, and ack true when the client asked for acknowledgements
// (members in name order, as the map it replaced wrote them).
type handshakeExt struct {
	Ack            bool   `json:"ack,omitempty"`
	UserDomainMoid string `json:"user_domain_moid"`
}

// connectExt is the ext of a connect's reply to a client with
// acknowledgements: the number of the batch the reply carries.
type connectExt struct {
	Ack int64 `json:"ack"`
}

// advice tells the client how to reconnect (Bayeux 1.0 section 5.5):
// reconnect "retry", "handshake" or "none"; times in milliseconds.
type advice struct {
	Reconnect   string `json:"reconnect"`
	Interval    int64  `json:"interval"`
	Timeout     int64  `json:"timeout,omitempty"`
	MaxInterval int64  `json:"maxInterval,omitempty"`
}

// dataMessage is a message published on a channel.
type dataMessage struct {
	Channel string `json:"channel"`
	Data    any    `json:"data"`
}

// parseBatch reads a request body: one message or an array of them
// (Bayeux 1.0 section 3.5: batching).
func parseBatch(body []byte) ([]inMessage, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, errors.New("empty body")
	}
	if body[0] == '{' {
		var m inMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, err
		}
		return []inMessage{m}, nil
	}
	var ms []inMessage
	if err := json.Unmarshal(body, &ms); err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, errors.New("empty batch")
	}
	return ms, nil
}

// encodeBatch writes messages, each already encoded, as one JSON array.
func encodeBatch(msgs []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m)
	}
	b.WriteByte(']')
	return b.Bytes()
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only server-built values are encoded
	}
	return b
}
