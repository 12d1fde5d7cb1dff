package vc

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Recordings that a stop of the node interrupted (issue 35 item 4). A
// node that stops (SIGTERM finalises the files, kill -9 leaves them cut
// short) leaves its recordings listed as running with nothing recording.
// At its next start, before it serves, RecoverRecordings ends each
// recording of a running conference that has a file in this node's
// recordings folder and runs nowhere here (a node that just started runs
// none): its program is stored with the file's real figures, read from
// the file (a file cut short has no duration in its header: its frames
// are read for it), and it leaves the list as a recording that stopped
// by itself. A recording whose last part another node records (it took
// the conference's media over, rec_parts.go) is left alone.

// RecoverRecordings ends the recordings interrupted by the node's stop;
// it returns how many became programs.
func (m *Module) RecoverRecordings(ctx context.Context) (int, error) {
	if !m.recOn() || m.rec.cfg.Dir == "" {
		return 0, nil
	}
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, States: []string{engine.StateRunning}})
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, rec := range recs {
		c, err := m.confs.Get(ctx, rec.DomainMoid, rec.ID, engine.StateRunning)
		if err != nil {
			continue // ended meanwhile
		}
		for _, rc := range c.Recorders {
			recID := rc.RecID
			if rc.RecorderMode == recLive || m.recHere(recID) != nil {
				continue
			}
			// The part this node recorded last; a recording that another
			// node continued (it took the conference's media over) is
			// that node's (rec_parts.go).
			file := filepath.Join(c.Rec.DomainMoid, recID)
			if parts := rc.Parts; len(parts) > 0 {
				last := parts[len(parts)-1]
				if last.Node != m.recNode() {
					continue
				}
				file = strings.TrimSuffix(last.File, ".webm")
			}
			info, ok := m.recFileInfo(file)
			if !ok {
				continue
			}
			if _, err := m.recEndedByMedia(ctx, c.Rec.DomainMoid, c.ID(), recID, &info, 0); err != nil {
				errs = append(errs, err)
				continue
			}
			m.rec.cfg.Log.Info("recording: interrupted by the node's stop, stored as a program", "conf_id", c.ID(), "rec_id", recID,
				"file", info.Path, "duration", info.Duration, "bytes", info.Bytes)
			n++
		}
	}
	return n, errors.Join(errs...)
}

// recFileInfo reads the figures of a recording's file in this node's
// folder through the recording runtime (Recordings.ReadFile): base is its
// path relative to the folder without the suffix (.webm or .mkv), as is
// the answer's Path; ok is false when there is none, or it holds no
// playable media.
func (m *Module) recFileInfo(base string) (media.RecordInfo, bool) {
	info, ok := m.rec.cfg.Media.ReadFile(filepath.Join(m.rec.cfg.Dir, filepath.FromSlash(base)))
	if ok {
		info.Path = relTo(m.rec.cfg.Dir, info.Path)
	}
	return info, ok
}
