package server

import (
	"context"

	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/vc"
	"github.com/confer-platform/confer/internal/vrs"
	"github.com/prometheus/client_golang/prometheus"
)

// Recording (docs/recording.md): vc decides and stores recordings; the
// running ones are the media side's runtime (rtc.Recordings, its watchers
// in the server's group), writing files through the SFU (rtc.Recorder)
// into Recording.Dir; vrs serves, deletes and reconciles them. Without the SFU (NoRTC) there is no media: recordings
// are bookkeeping only and their programs have no file.

// RecordingConfig is where recordings go and how large they may grow.
type RecordingConfig struct {
	Dir      string // the recordings folder; "" keeps no files
	MaxBytes int64  // the most bytes of one recording file (0: no quota)
	MinFree  int64  // recordings stop when the disk has less free space (0: only a failed write stops them)
	// DomainQuota bounds the bytes of one user domain's recording files
	// (0: none; vc/rec_quota.go).
	DomainQuota int64
	// MaxRunning bounds the recordings writing files on the node at once
	// (rtc.DefaultMaxRunning when 0).
	MaxRunning int
}

// setupRecording gives vc the recording runtime and vrs the files, and
// registers the recording metrics.
func (s *Server) setupRecording(cfg RecordingConfig) {
	rc := vc.RecordingConfig{Dir: cfg.Dir, MaxBytes: cfg.MaxBytes, MinFree: cfg.MinFree, DomainQuota: cfg.DomainQuota, Log: s.log}
	if s.sfu != nil && cfg.Dir != "" {
		s.recRun = rtc.NewRecordings(&rtc.Recorder{SFU: s.sfu}, s.group, cfg.MaxRunning, s.log)
		rc.Media = s.recRun
	}
	if s.owners != nil {
		// Recordings and playbacks follow the conference's media owner
		// (docs/recording.md "Several nodes", docs/live.md "Playback").
		rc.Node = s.owners.Self
		rc.Pass = func(ctx context.Context, confID string, h vc.Hosted) (bool, []byte, error) {
			return s.owners.PassHosted(ctx, confID, rtc.Hosted{Kind: h.Kind, Domain: h.Domain, ID: h.ID, Action: h.Action,
				Value: h.Value, SeekMs: h.SeekMs})
		}
		s.owners.SetHostedHook(func(ctx context.Context, confID string, h rtc.Hosted) ([]byte, error) {
			return s.vc.HostedHere(ctx, confID, vc.Hosted{Kind: h.Kind, Domain: h.Domain, ID: h.ID, Action: h.Action,
				Value: h.Value, SeekMs: h.SeekMs})
		})
	}
	s.vc.SetRecording(rc)
	s.vrs.SetRecordings(cfg.Dir, s.log)
	s.metrics.Registry().MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "confer_recording_bytes_written_total",
			Help: "Bytes the node's recordings wrote to their files."}, func() float64 { return float64(s.recordingBytes()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "confer_recordings_running",
			Help: "Recordings writing a file on this node."}, func() float64 { return float64(s.recordingsRunning()) }),
	)
}

// Recordings is the node's running recordings (nil without media or a
// recordings folder).
func (s *Server) Recordings() *rtc.Recordings { return s.recRun }

// recordingBytes is how many bytes the node's recordings wrote.
func (s *Server) recordingBytes() int64 {
	if s.recRun == nil {
		return 0
	}
	return s.recRun.Bytes()
}

// recordingsRunning is how many recordings write a file on this node.
func (s *Server) recordingsRunning() int {
	if s.recRun == nil {
		return 0
	}
	return s.recRun.Running()
}

// closeRecordings finalises the files of the node's running recordings.
func (s *Server) closeRecordings() {
	if s.recRun != nil {
		s.recRun.CloseRecordings()
	}
}

// ReconcileRecordings compares the programs with the recordings' files
// (vrs.Module.Reconcile): Start runs it once.
func (s *Server) ReconcileRecordings(ctx context.Context) (vrs.Report, error) {
	return s.vrs.Reconcile(ctx)
}
