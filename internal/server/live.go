package server

import (
	"context"
	"errors"
	"net/http"
	"net/netip"

	"github.com/confer-platform/confer/internal/live"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/wall"
	"github.com/prometheus/client_golang/prometheus"
)

// Live media (docs/live.md): playbacks play programs' files into
// conferences through the SFU, and the viewers of live broadcasts,
// monitors and TV walls watch through WHEP, admitted by vc
// (rtc.Authorizer.Watch). Without the SFU (NoRTC) they stay records.

// setupLive wires vc's playbacks and watching viewers to the SFU and
// registers the viewers metric.
func (s *Server) setupLive(cfg RecordingConfig, monitorNets []netip.Prefix) {
	if s.sfu == nil {
		return
	}
	var push rtc.Pusher
	if s.rtmp = live.NewRTMP(live.RTMPConfig{Log: s.log}, s.sfu); s.rtmp != nil { // nil without ffmpeg
		push = s.rtmp
	}
	s.liveRun = rtc.NewLiveMedia(s.sfu, s.group, push)
	s.vc.SetLive(vc.LiveConfig{Media: s.liveRun, Dir: cfg.Dir, MonitorNets: monitorNets, PassMonitor: s.owners.PassMonitor, Group: s.group})
	// A monitor passed here by another node: this node owns the media.
	s.owners.SetMonitorHook(func(ctx context.Context, domain, confID, key string, keyFrame bool) error {
		if err := s.vc.MonitorHere(ctx, domain, confID, key, keyFrame); !errors.Is(err, vc.ErrNoMonitor) {
			return err
		}
		return rtc.ErrNoMonitor
	})
	s.rtcAuth.Watch = s.vc
	s.vrs.SetLive(s.vc.LiveViewersOf)
	s.hls = live.NewHLS(live.HLSConfig{Log: s.log}, s.sfu) // nil without ffmpeg: no HLS
	s.metrics.Registry().MustRegister(liveViewers{s.vc})
}

// liveHandlers serve the TV wall page at /wall/ (internal/wall) and the
// broadcasts' descriptors and HLS at /live/ (internal/live) when the node
// has media (nil otherwise).
func (s *Server) liveHandlers() (wallH, liveH http.Handler) {
	if s.sfu == nil {
		return nil, nil
	}
	locate := func(ctx context.Context, confID string) (string, error) { return s.owners.Locate(ctx, confID, false) }
	return wall.Mount(http.NotFoundHandler(), s.auth, s.vc), live.Mount(http.NotFoundHandler(), s.rtcAuth.AuthorizeWatch, s.hls, locate)
}

// closePlaybacks stops the node's playbacks' streams.
func (s *Server) closePlaybacks() {
	if s.liveRun != nil {
		s.liveRun.ClosePlaybacks()
	}
}

// closeLive stops the HLS streams.
func (s *Server) closeLive() {
	if s.hls != nil {
		s.hls.Close()
	}
	if s.rtmp != nil {
		s.rtmp.Close()
	}
}

// liveViewers is confer_live_viewers{conf_id, rec_id}: the WHEP viewers
// of each live broadcast on this node.
type liveViewers struct{ vc *vc.Module }

var liveViewersDesc = prometheus.NewDesc("confer_live_viewers",
	"WHEP viewers watching a live broadcast on this node.", []string{"conf_id", "rec_id"}, nil)

func (l liveViewers) Describe(ch chan<- *prometheus.Desc) { ch <- liveViewersDesc }

func (l liveViewers) Collect(ch chan<- prometheus.Metric) {
	for k, n := range l.vc.LiveViewers() {
		ch <- prometheus.MustNewConstMetric(liveViewersDesc, prometheus.GaugeValue, float64(n), k[0], k[1])
	}
}

// RTMPPushes is how many live broadcasts this node pushes to RTMP.
func (s *Server) RTMPPushes() int {
	if s.rtmp == nil {
		return 0
	}
	return s.rtmp.Running()
}
