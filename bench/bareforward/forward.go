// Package bareforward is the bare pion forwarder of docs/benchmarks.md
// "Media": each publisher's tracks go to every subscriber of its room with
// no congestion control, no NACK, no RTCP reports and no rewriting beyond
// what pion's TrackLocalStaticRTP does (SSRC and payload type per
// subscriber). It is the limit Confer's SFU is measured against, as the bare
// net/http handler is for the API. It speaks the WHIP (RFC 9725) and WHEP
// contract of Confer: POST /rtc/whip/{room} and POST /rtc/whep/{room} with
// an SDP offer, 201 Created, a Location and the SDP answer; DELETE on the
// Location ends the session. Tokens are not checked.
package bareforward

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/pion/webrtc/v4"
)

// Server forwards RTP from WHIP publishers to WHEP subscribers.
type Server struct {
	api      *webrtc.API
	mu       sync.Mutex
	rooms    map[string][]*webrtc.TrackLocalStaticRTP
	sessions map[string]*webrtc.PeerConnection
	next     int
	mux      *http.ServeMux
}

// New returns a forwarder; loopback restricts ICE to loopback addresses.
func New(loopback bool) *Server {
	var m webrtc.MediaEngine
	if err := m.RegisterDefaultCodecs(); err != nil {
		panic(err)
	}
	var s webrtc.SettingEngine
	if loopback {
		s.SetIncludeLoopbackCandidate(true)
		s.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	}
	s.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	srv := &Server{
		api:      webrtc.NewAPI(webrtc.WithMediaEngine(&m), webrtc.WithSettingEngine(s)),
		rooms:    map[string][]*webrtc.TrackLocalStaticRTP{},
		sessions: map[string]*webrtc.PeerConnection{},
		mux:      http.NewServeMux(),
	}
	srv.routes()
	return srv
}

// ServeHTTP serves /rtc/whip/{room}, /rtc/whep/{room} and the sessions.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) routes() {
	mux := s.mux
	mux.HandleFunc("POST /rtc/whip/{room}", func(w http.ResponseWriter, r *http.Request) { s.session(w, r, true) })
	mux.HandleFunc("POST /rtc/whep/{room}", func(w http.ResponseWriter, r *http.Request) { s.session(w, r, false) })
	mux.HandleFunc("DELETE /rtc/session/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		pc := s.sessions[r.PathValue("id")]
		delete(s.sessions, r.PathValue("id"))
		s.mu.Unlock()
		if pc == nil {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		pc.Close()
	})
}

func (s *Server) session(w http.ResponseWriter, r *http.Request, publish bool) {
	offer, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pc, err := s.api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	room := r.PathValue("room")
	if publish {
		pc.OnTrack(func(remote *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { s.forward(room, remote) })
	} else {
		s.mu.Lock()
		tracks := s.rooms[room]
		s.mu.Unlock()
		for _, t := range tracks {
			if _, err := pc.AddTrack(t); err != nil {
				pc.Close()
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
	}
	answer, err := negotiate(pc, string(offer))
	if err != nil {
		pc.Close()
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.next++
	id := fmt.Sprint(s.next)
	s.sessions[id] = pc
	s.mu.Unlock()
	pc.OnConnectionStateChange(func(st webrtc.PeerConnectionState) {
		if st == webrtc.PeerConnectionStateFailed || st == webrtc.PeerConnectionStateClosed {
			s.mu.Lock()
			delete(s.sessions, id)
			s.mu.Unlock()
			pc.Close()
		}
	})
	w.Header().Set("Content-Type", "application/sdp")
	w.Header().Set("Location", "/rtc/session/"+id)
	w.WriteHeader(http.StatusCreated)
	io.WriteString(w, answer)
}

// negotiate answers an offer with every candidate in the answer (no trickle).
func negotiate(pc *webrtc.PeerConnection, offer string) (string, error) {
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return "", err
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return "", err
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		return "", err
	}
	<-gathered
	return pc.LocalDescription().SDP, nil
}

// forward copies a publisher's track to a local track that subscribers of
// the room get when they join.
func (s *Server) forward(room string, remote *webrtc.TrackRemote) {
	local, err := webrtc.NewTrackLocalStaticRTP(remote.Codec().RTPCodecCapability, remote.ID(), remote.StreamID())
	if err != nil {
		return
	}
	s.mu.Lock()
	s.rooms[room] = append(s.rooms[room], local)
	s.mu.Unlock()
	buf := make([]byte, 1500)
	for {
		n, _, err := remote.Read(buf)
		if err != nil {
			break
		}
		if _, err := local.Write(buf[:n]); err != nil && err != io.ErrClosedPipe {
			break
		}
	}
	s.mu.Lock()
	tracks := s.rooms[room]
	for i, t := range tracks {
		if t == local {
			s.rooms[room] = append(tracks[:i:i], tracks[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
}
