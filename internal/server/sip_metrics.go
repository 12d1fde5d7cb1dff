package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/sip"
)

// sipCollectors are the SIP user agent's figures at /metrics (docs/sip.md
// "Metrics").
func sipCollectors(ua *sip.UA) []prometheus.Collector {
	counter := func(name, help string, f func(sip.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(f(ua.Stats())) })
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "confer_sip_calls", Help: "SIP calls in progress, in and out."},
			func() float64 { return float64(ua.Stats().Calls) }),
		counter("confer_sip_calls_dialled_total", "SIP calls placed.", func(s sip.Stats) uint64 { return s.Dialled }),
		counter("confer_sip_calls_answered_total", "Placed SIP calls the terminal answered.", func(s sip.Stats) uint64 { return s.Answered }),
		counter("confer_sip_calls_in_total", "INVITEs to a conference number.", func(s sip.Stats) uint64 { return s.CallsIn }),
		counter("confer_sip_callers_joined_total", "SIP callers that joined a conference.", func(s sip.Stats) uint64 { return s.Joined }),
		counter("confer_sip_rtp_received_total", "RTP packets received from SIP terminals.", func(s sip.Stats) uint64 { return s.RTPReceived }),
		counter("confer_sip_rtp_sent_total", "RTP packets sent to SIP terminals.", func(s sip.Stats) uint64 { return s.RTPSent }),
		counter("confer_sip_dropped_total", "SIP datagrams dropped over their address's rate.", func(s sip.Stats) uint64 { return s.Dropped }),
		counter("confer_sip_refused_connections_total", "SIP TCP/TLS connections closed over their address's limit.", func(s sip.Stats) uint64 { return s.Refused }),
	}
}
