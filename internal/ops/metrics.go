package ops

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Gauges are read when /metrics is scraped; any may be nil.
type Gauges struct {
	RunningConferences func(ctx context.Context) (int, error)
	OnlineTerminals    func(ctx context.Context) (int, error)
	PushClients        func() int
	CallsAttempted     *atomic.Int64 // dials started by the engine
	CallsFailed        *atomic.Int64 // dials that were not answered
}

// Metrics is one node's Prometheus registry: request counts and latencies
// by module, endpoint and result code, the platform's gauges and the Go
// runtime. Labels never hold user data: the endpoint is the catalogue name.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics builds the registry.
func NewMetrics(g Gauges) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "confer_http_requests_total",
		Help: "API requests by catalogue module, endpoint name and result code (error_code, 0 on success).",
	}, []string{"module", "endpoint", "code"})
	m.duration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "confer_http_request_duration_seconds",
		Help:    "API request latency by catalogue module and endpoint name.",
		Buckets: prometheus.DefBuckets,
	}, []string{"module", "endpoint"})
	m.reg.MustRegister(m.requests, m.duration,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	count := func(name, help string, f func(ctx context.Context) (int, error)) {
		if f == nil {
			return
		}
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			n, err := f(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		}))
	}
	count("confer_conferences_running", "Conferences running on the platform (read from the store; -1 when the store fails).", g.RunningConferences)
	count("confer_terminals_online", "Terminals online in running conferences (read from the store; -1 when the store fails).", g.OnlineTerminals)
	if g.PushClients != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "confer_push_clients", Help: "Push (CometD) clients connected to this node.",
		}, func() float64 { return float64(g.PushClients()) }))
	}
	if g.CallsAttempted != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "confer_calls_attempted_total", Help: "Calls to terminals dialled by this node, retries included.",
		}, func() float64 { return float64(g.CallsAttempted.Load()) }))
	}
	if g.CallsFailed != nil {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "confer_calls_failed_total", Help: "Calls dialled by this node that were not answered (offline, busy, no answer).",
		}, func() float64 { return float64(g.CallsFailed.Load()) }))
	}
	return m
}

// Registry returns the registry, for further collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

func (m *Metrics) observe(module, endpoint string, code int, d time.Duration) {
	m.requests.WithLabelValues(module, endpoint, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues(module, endpoint).Observe(d.Seconds())
}
