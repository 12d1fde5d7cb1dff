package mediaload

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"
)

// janus drives Janus's VideoRoom plugin through Janus's HTTP API
// (janus.conf.meetecho.com/docs/rest.html, videoroom.html): a session and a
// handle attached to janus.plugin.videoroom per participant; a publisher
// joins with an offer (joinandconfigure) and gets the answer in its event;
// a subscriber joins with the feeds it wants, gets Janus's offer and starts
// with its answer. Events come by long poll (GET on the session).
type janus struct {
	base   string // e.g. http://127.0.0.1:8088/janus
	client *http.Client
	admin  *janusHandle // creates and destroys the rooms
	rooms  []int64
}

type janusMsg struct {
	Janus       string             `json:"janus"`
	Transaction string             `json:"transaction,omitempty"`
	Data        struct{ ID int64 } `json:"data"`
	Error       *struct {
		Code   int
		Reason string
	} `json:"error,omitempty"`
	PluginData struct {
		Data json.RawMessage `json:"data"`
	} `json:"plugindata"`
	Jsep *webrtc.SessionDescription `json:"jsep,omitempty"`
}

// janusHandle is one session with one videoroom handle.
type janusHandle struct {
	j        *janus
	session  int64
	handle   int64
	stop     chan struct{}
	stopOnce sync.Once
}

func txn() string {
	b := make([]byte, 8)
	rand.Read(b)
	return fmt.Sprintf("%x", b)
}

// janusReq is a message to Janus's HTTP API: create, attach (plugin),
// keepalive, destroy, or a plugin message (body, jsep).
type janusReq struct {
	Janus       string     `json:"janus"`
	Transaction string     `json:"transaction"`
	Plugin      string     `json:"plugin,omitempty"`
	Body        any        `json:"body,omitempty"`
	Jsep        *janusJsep `json:"jsep,omitempty"`
}

type janusJsep struct {
	Type string `json:"type"`
	SDP  string `json:"sdp"`
}

// The VideoRoom's requests (videoroom.html).
type (
	// roomReq is a request naming a room: destroy; request alone: start.
	roomReq struct {
		Request string `json:"request"`
		Room    int64  `json:"room,omitempty"`
	}
	roomCreate struct {
		Request         string `json:"request"` // create
		Room            int64  `json:"room"`
		Publishers      int    `json:"publishers"`
		AudioCodec      string `json:"audiocodec"`
		VideoCodec      string `json:"videocodec"`
		Bitrate         int    `json:"bitrate"`
		NotifyJoining   bool   `json:"notify_joining"`
		AudioLevelEvent bool   `json:"audiolevel_event"`
	}
	publisherJoin struct {
		Request string `json:"request"` // joinandconfigure
		Room    int64  `json:"room"`
		PType   string `json:"ptype"` // publisher
		Display string `json:"display"`
	}
	subscriberJoin struct {
		Request string      `json:"request"` // join
		Room    int64       `json:"room"`
		PType   string      `json:"ptype"` // subscriber
		Streams []janusFeed `json:"streams"`
	}
	janusFeed struct {
		Feed int64 `json:"feed"`
	}
)

func (j *janus) post(ctx context.Context, path string, body janusReq) (*janusMsg, error) {
	if body.Transaction == "" {
		body.Transaction = txn()
	}
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.base+path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return j.do(req)
}

func (j *janus) do(req *http.Request) (*janusMsg, error) {
	resp, err := j.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	var m janusMsg
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("janus %s: %s: %.200s", req.URL.Path, resp.Status, b)
	}
	if m.Janus == "error" && m.Error != nil {
		return nil, fmt.Errorf("janus %s: error %d: %s", req.URL.Path, m.Error.Code, m.Error.Reason)
	}
	return &m, nil
}

// attach creates a session and a videoroom handle, and keeps the session
// alive (Janus ends idle sessions after session_timeout, 60 s by default).
func (j *janus) attach(ctx context.Context) (*janusHandle, error) {
	m, err := j.post(ctx, "", janusReq{Janus: "create"})
	if err != nil {
		return nil, err
	}
	h := &janusHandle{j: j, session: m.Data.ID, stop: make(chan struct{})}
	m, err = j.post(ctx, h.sessionPath(), janusReq{Janus: "attach", Plugin: "janus.plugin.videoroom"})
	if err != nil {
		h.close()
		return nil, err
	}
	h.handle = m.Data.ID
	go func() {
		t := time.NewTicker(25 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				j.post(context.Background(), h.sessionPath(), janusReq{Janus: "keepalive"})
			}
		}
	}()
	return h, nil
}

func (h *janusHandle) sessionPath() string { return "/" + strconv.FormatInt(h.session, 10) }
func (h *janusHandle) handlePath() string {
	return h.sessionPath() + "/" + strconv.FormatInt(h.handle, 10)
}

func (h *janusHandle) close() {
	h.stopOnce.Do(func() {
		close(h.stop)
		h.j.post(context.Background(), h.sessionPath(), janusReq{Janus: "destroy"})
	})
}

// request sends a plugin message; a synchronous one (create, destroy) is
// answered in the reply, an asynchronous one (join, start) by an event.
func (h *janusHandle) request(ctx context.Context, body any, jsep *webrtc.SessionDescription) (*janusMsg, error) {
	t := txn()
	msg := janusReq{Janus: "message", Body: body, Transaction: t}
	if jsep != nil {
		msg.Jsep = &janusJsep{Type: jsep.Type.String(), SDP: jsep.SDP}
	}
	m, err := h.j.post(ctx, h.handlePath(), msg)
	if err != nil {
		return nil, err
	}
	if m.Janus == "ack" {
		return h.event(ctx, t)
	}
	return m, pluginError(m)
}

// event long-polls the session until the plugin event of a transaction.
func (h *janusHandle) event(ctx context.Context, transaction string) (*janusMsg, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.j.base+h.sessionPath()+"?maxev=1&rid="+txn(), nil)
		if err != nil {
			return nil, err
		}
		m, err := h.j.do(req)
		if err != nil {
			return nil, err
		}
		if m.Janus == "event" && m.Transaction == transaction {
			return m, pluginError(m)
		}
	}
}

// pluginError is the VideoRoom's error_code and error in plugindata.
func pluginError(m *janusMsg) error {
	var d struct {
		ErrorCode int    `json:"error_code"`
		Error     string `json:"error"`
	}
	json.Unmarshal(m.PluginData.Data, &d)
	if d.ErrorCode != 0 {
		return fmt.Errorf("videoroom error %d: %s", d.ErrorCode, d.Error)
	}
	return nil
}

func (j *janus) prepare(ctx context.Context, rooms []string, publishers int) error {
	h, err := j.attach(ctx)
	if err != nil {
		return err
	}
	j.admin = h
	for _, r := range rooms {
		id, err := strconv.ParseInt(r, 10, 64)
		if err != nil {
			return fmt.Errorf("janus room %q: a number is needed", r)
		}
		h.request(ctx, roomReq{Request: "destroy", Room: id}, nil) // a previous run's
		if _, err := h.request(ctx, roomCreate{
			Request: "create", Room: id, Publishers: publishers + 1, AudioCodec: "opus", VideoCodec: "vp8",
		}, nil); err != nil {
			return fmt.Errorf("janus create room %d: %w", id, err)
		}
		j.rooms = append(j.rooms, id)
	}
	return nil
}

func (j *janus) cleanup(ctx context.Context) {
	if j.admin == nil {
		return
	}
	for _, id := range j.rooms {
		j.admin.request(ctx, roomReq{Request: "destroy", Room: id}, nil)
	}
	j.admin.close()
}

func (j *janus) publish(ctx context.Context, room, name string, pc *webrtc.PeerConnection) (string, func(), error) {
	id, _ := strconv.ParseInt(room, 10, 64)
	h, err := j.attach(ctx)
	if err != nil {
		return "", nil, err
	}
	offer, err := pc.CreateOffer(nil)
	if err == nil {
		var sdp string
		if sdp, err = gather(ctx, pc, offer); err == nil {
			var m *janusMsg
			m, err = h.request(ctx, publisherJoin{Request: "joinandconfigure", Room: id, PType: "publisher", Display: name}, &webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: sdp})
			if err == nil && m.Jsep == nil {
				err = fmt.Errorf("janus publisher %s: no answer in %s", name, m.PluginData.Data)
			}
			if err == nil {
				var d struct{ ID int64 }
				json.Unmarshal(m.PluginData.Data, &d)
				if err = pc.SetRemoteDescription(*m.Jsep); err == nil {
					return strconv.FormatInt(d.ID, 10), h.close, nil
				}
			}
		}
	}
	h.close()
	return "", nil, err
}

func (j *janus) subscribe(ctx context.Context, room string, feeds []string, _ []webrtc.RTPCodecType, pc *webrtc.PeerConnection) (func(), error) {
	id, _ := strconv.ParseInt(room, 10, 64)
	h, err := j.attach(ctx)
	if err != nil {
		return nil, err
	}
	var streams []janusFeed
	for _, f := range feeds {
		n, _ := strconv.ParseInt(f, 10, 64)
		streams = append(streams, janusFeed{Feed: n})
	}
	m, err := h.request(ctx, subscriberJoin{Request: "join", Room: id, PType: "subscriber", Streams: streams}, nil)
	if err == nil && m.Jsep == nil {
		err = fmt.Errorf("janus subscriber: no offer in %s", m.PluginData.Data)
	}
	if err == nil {
		if err = pc.SetRemoteDescription(*m.Jsep); err == nil {
			var answer webrtc.SessionDescription
			if answer, err = pc.CreateAnswer(nil); err == nil {
				var sdp string
				if sdp, err = gather(ctx, pc, answer); err == nil {
					if _, err = h.request(ctx, roomReq{Request: "start"},
						&webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sdp}); err == nil {
						return h.close, nil
					}
				}
			}
		}
	}
	h.close()
	return nil, err
}
