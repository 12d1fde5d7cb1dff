package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/sfu"
)

// rtcCollectors are the SFU's figures at /metrics (docs/sfu-internals.md
// "Batched UDP I/O" and "Call quality"): its sessions and forwarded packets, and the system calls of
// its ICE UDP port (docs/sfu-internals.md "Batched UDP I/O").
func rtcCollectors(sf *sfu.SFU) []prometheus.Collector {
	counter := func(name, help string, f func(sfu.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(f(sf.Stats())) })
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "confer_rtc_sessions", Help: "WHIP and WHEP sessions open on this node."},
			func() float64 { return float64(sf.Stats().Sessions) }),
		counter("confer_rtc_forwarded_packets_total", "RTP packets written to subscribers.", func(s sfu.Stats) uint64 { return s.Forwarded }),
		counter("confer_rtc_udp_read_calls_total", "recvmmsg calls on the ICE UDP port (0 with --rtc-batch-io=false).", func(s sfu.Stats) uint64 { return s.UDP.ReadCalls }),
		counter("confer_rtc_udp_received_total", "Datagrams received by those calls.", func(s sfu.Stats) uint64 { return s.UDP.Read }),
		counter("confer_rtc_udp_write_calls_total", "sendmmsg calls on the ICE UDP port.", func(s sfu.Stats) uint64 { return s.UDP.WriteCalls }),
		counter("confer_rtc_udp_sent_total", "Datagrams sent by those calls.", func(s sfu.Stats) uint64 { return s.UDP.Wrote }),
		counter("confer_rtc_udp_dropped_total", "Datagrams the kernel refused to send.", func(s sfu.Stats) uint64 { return s.UDP.Dropped }),
		counter("confer_rtc_udp_dropped_unsent_total", "Of those, datagrams dropped without a send (the socket closed, or a write deadline passed).", func(s sfu.Stats) uint64 { return s.UDP.DroppedUnsent }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "confer_rtc_udp_drop_errno", Help: "The error number of the last datagram the kernel refused to send (0: none; the highest of the port's sockets)."},
			func() float64 { return float64(sf.Stats().UDP.DropErrno) }),
	}
}
