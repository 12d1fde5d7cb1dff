package mediaload

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/pion/webrtc/v4"
)

// driver signals publishers and subscribers to one kind of server.
type driver interface {
	// prepare makes the rooms ready (Janus creates them); cleanup undoes it.
	prepare(ctx context.Context, rooms []string, publishers int) error
	cleanup(ctx context.Context)
	// publish negotiates a publisher's connection in a room and returns
	// its feed id (the name subscribers ask for) and how to leave.
	publish(ctx context.Context, room, name string, pc *webrtc.PeerConnection) (feed string, leave func(), err error)
	// subscribe negotiates a subscriber's connection receiving the feeds
	// (each with the given kinds) of a room.
	subscribe(ctx context.Context, room string, feeds []string, kinds []webrtc.RTPCodecType, pc *webrtc.PeerConnection) (leave func(), err error)
}

// whip is WHIP (RFC 9725) and WHEP: POST an offer to {base}/rtc/whip/{room}
// or {base}/rtc/whep/{room} with a bearer token, 201 with a Location and
// the answer; DELETE on the Location leaves.
type whip struct {
	base               string
	pubToken, subToken string
	roomTokens         map[string]string // per room, for both (Confer's tokens are per conference)
	client             *http.Client
}

// token is the room's own token if it has one, else def.
func (w *whip) token(room, def string) string {
	if t := w.roomTokens[room]; t != "" {
		return t
	}
	return def
}

func (w *whip) prepare(context.Context, []string, int) error { return nil }
func (w *whip) cleanup(context.Context)                      {}

func (w *whip) publish(ctx context.Context, room, _ string, pc *webrtc.PeerConnection) (string, func(), error) {
	leave, err := w.exchange(ctx, "/rtc/whip/", room, w.token(room, w.pubToken), pc)
	return room, leave, err
}

// subscribe offers one receive-only transceiver per feed and kind; a WHEP
// server fills those it has tracks for.
func (w *whip) subscribe(ctx context.Context, room string, feeds []string, kinds []webrtc.RTPCodecType, pc *webrtc.PeerConnection) (func(), error) {
	for range feeds {
		for _, k := range kinds {
			if _, err := pc.AddTransceiverFromKind(k, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
				return nil, err
			}
		}
	}
	return w.exchange(ctx, "/rtc/whep/", room, w.token(room, w.subToken), pc)
}

func (w *whip) exchange(ctx context.Context, path, room, token string, pc *webrtc.PeerConnection) (func(), error) {
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return nil, err
	}
	sdp, err := gather(ctx, pc, offer)
	if err != nil {
		return nil, err
	}
	endpoint := w.base + path + url.PathEscape(room)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(sdp))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/sdp")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("POST %s: %s: %s", endpoint, resp.Status, strings.TrimSpace(string(body)))
	}
	loc, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("POST %s: 201 without a Location", endpoint)
	}
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: string(body)}); err != nil {
		return nil, fmt.Errorf("POST %s: answer: %w", endpoint, err)
	}
	leave := func() {
		req, err := http.NewRequest(http.MethodDelete, loc.String(), nil)
		if err != nil {
			return
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if resp, err := w.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	return leave, nil
}
