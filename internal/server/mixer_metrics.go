package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/confer-platform/confer/internal/mixer"
)

// mixerCollectors are the audio mixers' figures at /metrics
// (docs/operations.md "Metrics", docs/mixing.md): every
// mixer of the node's rooms, summed.
func mixerCollectors() []prometheus.Collector {
	counter := func(name, help string, f func(mixer.Stats) float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return f(mixer.Totals()) })
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "confer_mixer_running", Help: "Audio mixes running on this node (rooms with a mixed endpoint)."},
			func() float64 { return float64(mixer.Totals().Running) }),
		counter("confer_mixer_frames_total", "20 ms frames mixed.", func(s mixer.Stats) float64 { return float64(s.Frames) }),
		counter("confer_mixer_underruns_total", "Frames a playing input had no audio for (a packet later than the mixer's slack, or the end of a talk spurt).",
			func(s mixer.Stats) float64 { return float64(s.Underruns) }),
		counter("confer_mixer_concealed_frames_total", "Input frames decoded by concealment (a lost or malformed packet).",
			func(s mixer.Stats) float64 { return float64(s.Concealed) }),
		counter("confer_mixer_silent_packets_skipped_total", "Participants' packets not decoded because their RFC 6464 level said silence.",
			func(s mixer.Stats) float64 { return float64(s.Skipped) }),
		counter("confer_mixer_decode_seconds_total", "Wall time spent decoding the mixers' inputs (waiting for a core included).", func(s mixer.Stats) float64 { return s.Decode.Seconds() }),
		counter("confer_mixer_encode_seconds_total", "Wall time spent encoding the mixers' outputs (waiting for a core included).", func(s mixer.Stats) float64 { return s.Encode.Seconds() }),
	}
}
