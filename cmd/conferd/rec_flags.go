package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/server"
)

// Recording flags (docs/recording.md "Configuration").
type recFlags struct {
	dir      *string
	maxBytes *int64
	minFree  *int64
	running  *int
	domain   *int64
}

// defaultRecMinFree is the free disk space under which recordings stop.
const defaultRecMinFree = 256 << 20

// defaultRecDomainQuota is what one user domain's recording files may
// hold while the platform has several (50 GiB).
const defaultRecDomainQuota = 50 << 30

func addRecFlags(fs *flag.FlagSet) recFlags {
	return recFlags{
		dir: fs.String("rec-dir", envOr("CONFER_REC_DIR", ""),
			"folder of recording files, the vrs programs (env CONFER_REC_DIR; default: recordings/ beside the files folder)"),
		maxBytes: fs.Int64("rec-max-bytes", envInt64("CONFER_REC_MAX_BYTES", 0),
			"the most bytes of one recording file; it stops with error 24014 when reached (env CONFER_REC_MAX_BYTES; 0: no quota)"),
		minFree: fs.Int64("rec-min-free", envInt64("CONFER_REC_MIN_FREE", defaultRecMinFree),
			"recordings stop with error 24014 when the disk has fewer free bytes (env CONFER_REC_MIN_FREE)"),
		running: fs.Int("rec-max-running", envInt("CONFER_REC_MAX_RUNNING", rtc.DefaultMaxRunning),
			"recordings writing files on this node at once; one more is refused with 24102 (env CONFER_REC_MAX_RUNNING)"),
		domain: fs.Int64("rec-domain-quota", envInt64("CONFER_REC_DOMAIN_QUOTA", defaultRecDomainQuota),
			"bytes the recording files of one user domain may hold while the platform has several; beyond, a recording is refused or stops with 24014 (env CONFER_REC_DOMAIN_QUOTA; 0: none)"),
	}
}

func (f recFlags) config(filesDir string) server.RecordingConfig {
	dir := *f.dir
	if dir == "" {
		dir = filepath.Join(filepath.Dir(filepath.Clean(filesDir)), "recordings")
	}
	return server.RecordingConfig{Dir: dir, MaxBytes: *f.maxBytes, MinFree: *f.minFree, MaxRunning: *f.running, DomainQuota: *f.domain}
}

func envInt64(name string, def int64) int64 {
	if v, ok := os.LookupEnv(name); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	}
	return def
}

// recMinStart is the least a recording of a domain starts with
// (vc/rec_quota.go).
const recMinStart = 1 << 20

// check refuses a quota too small for a file's header.
func (f recFlags) check() error {
	if *f.maxBytes != 0 && *f.maxBytes < recorder.MinQuota {
		return fmt.Errorf("--rec-max-bytes must be 0 or at least %d", recorder.MinQuota)
	}
	if *f.running < 1 {
		return errors.New("--rec-max-running must be at least 1")
	}
	if *f.domain != 0 && *f.domain < recMinStart {
		return fmt.Errorf("--rec-domain-quota must be 0 or at least %d", recMinStart)
	}
	if *f.minFree < 0 {
		return errors.New("--rec-min-free must not be negative")
	}
	return nil
}
