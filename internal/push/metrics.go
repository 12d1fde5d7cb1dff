package push

import (
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The push service's Prometheus metrics (docs/push.md "Metrics"). Labels
// never carry ids: a channel is counted under its family, the channel
// with each id segment replaced by its name ("/confs/{conf_id}/speaker").
type pushMetrics struct {
	published *prometheus.CounterVec
	sent      *prometheus.CounterVec
	drops     *prometheus.CounterVec
	delay     prometheus.Histogram
}

func newPushMetrics() *pushMetrics {
	return &pushMetrics{
		published: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "confer_push_messages_published_total",
			Help: "Messages published to this node's push clients, by channel family (ids replaced by their names).",
		}, []string{"channel"}),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "confer_push_messages_delivered_total",
			Help: "Messages written to push clients' connections by this node, by transport (messages sent again under the acknowledgement extension included).",
		}, []string{"transport"}),
		drops: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "confer_push_clients_dropped_total",
			Help: "Push clients this node dropped, by reason: expired (silent longer than maxInterval), queue_full, login_ended.",
		}, []string{"reason"}),
		delay: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "confer_push_fanout_delay_seconds",
			Help:    "Time from a message's publication on this node to its first write to a client's connection.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
	}
}

// Collectors returns the push service's metrics, for the server's
// registry (ops.Metrics).
func (s *Server) Collectors() []prometheus.Collector {
	return []prometheus.Collector{s.met.published, s.met.sent, s.met.drops, s.met.delay}
}

func (m *pushMetrics) publishedOn(ch string) { m.published.WithLabelValues(channelFamily(ch)).Inc() }

func (m *pushMetrics) dropped(reason string) { m.drops.WithLabelValues(reason).Inc() }

// delivered counts n messages written on a transport; fresh are the
// queue times of those written for the first time.
func (m *pushMetrics) delivered(transport string, n int, fresh []time.Time) {
	if n == 0 {
		return
	}
	m.sent.WithLabelValues(transport).Add(float64(n))
	now := time.Now()
	for _, at := range fresh {
		m.delay.Observe(now.Sub(at).Seconds())
	}
}

// idNames names the id segments that follow a channel's static segments
// (reference 07's channel parameters).
var idNames = map[string][]string{
	"confs": {"conf_id"}, "cascades": {"cascade_id"}, "mts": {"mt_id"}, "mixs": {"mix_id"}, "vmps": {"vmp_id"},
	"recorders": {"rec_id"}, "mtvmps": {"mt_id"}, "hduvmps": {"hdu_id"}, "hdus": {"hdu_id"},
	"inspections": {"mt_id", "mode"}, "monitor": {"dst_ip", "dst_port"},
}

// channelFamily is a channel under /userdomains/{d} without the domain
// and with each id segment replaced by its name.
func channelFamily(ch string) string {
	rest := ch
	if d := domainOf(ch); d != "" {
		rest = strings.TrimPrefix(ch, domainBase(d))
	}
	segs := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	var names []string
	for i, seg := range segs {
		if len(names) > 0 {
			segs[i], names = "{"+names[0]+"}", names[1:]
			continue
		}
		if _, ok := idNames[seg]; !ok && !staticSegment(seg) {
			segs[i] = "{id}"
			continue
		}
		names = idNames[seg]
	}
	return "/" + strings.Join(segs, "/")
}

// staticSegment tells whether a segment is a fixed channel name (no id).
func staticSegment(seg string) bool {
	switch seg {
	case "chairman", "speaker", "dualstream", "vad", "upload", "poll", "alarm", "playback",
		"applychairman", "applyspeaker", "applymix":
		return true
	}
	return false
}
