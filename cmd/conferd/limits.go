package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/mc"
	"github.com/confer-platform/confer/internal/rtc"
	"github.com/confer-platform/confer/internal/server"
)

// The limits' flags (docs/operations.md "Limits"): what one client, one
// account or one user domain may take from the server.
type limitFlags struct {
	confsPerAccount, confsPerDomain, filesPerDomain *int
	maxConns, maxConnsPerIP, rtcTokensPerConf       *int
	bodyMemoryMB, bodyMemoryPerIPKB                 *int64
	headerTimeout, readTimeout, uploadTimeout       *time.Duration
	writeTimeout, idleTimeout                       *time.Duration
}

func addLimitFlags(fs *flag.FlagSet) *limitFlags {
	d, q := server.DefaultLimits(), engine.DefaultQuota()
	return &limitFlags{
		confsPerAccount:   fs.Int("max-confs-per-account", q.PerAccount, "booked, running and pending conferences one account (not an administrator) may hold; 0: no quota"),
		confsPerDomain:    fs.Int("max-confs-per-domain", q.PerDomain, "booked, running and pending conferences one user domain may hold; 0: no quota"),
		filesPerDomain:    fs.Int("max-files-per-domain", mc.DefaultMaxFilesPerDomain, "meeting files one user domain may keep; 0: no quota"),
		maxConns:          fs.Int("max-conns", 0, "open connections in total (0: 4096, lowered to the open-file limit less 128)"),
		rtcTokensPerConf:  fs.Int("max-rtc-tokens-per-conf", rtc.DefaultPerConf, "media tokens (rtc_tokens) one conference may hold at once; beyond, 90429; 0: no cap"),
		maxConnsPerIP:     fs.Int("max-conns-per-ip", d.MaxConnsPerIP, "open connections from one client address; 0: no cap"),
		bodyMemoryMB:      fs.Int64("body-memory-mb", d.BodyMemory>>20, "MiB of request bodies held in memory at once, the whole server; beyond, 90503"),
		bodyMemoryPerIPKB: fs.Int64("body-memory-per-ip-kb", d.BodyMemoryPerIP>>10, "KiB of that budget the request bodies of one client address may hold at once; beyond, 90503 for that address; 0: no share"),
		headerTimeout:     fs.Duration("header-timeout", d.HeaderTimeout, "time to read a request's line and headers"),
		readTimeout:       fs.Duration("read-timeout", d.ReadTimeout, "time to read a whole request, body included"),
		uploadTimeout:     fs.Duration("upload-timeout", d.UploadTimeout, "time to read the body of an authenticated meeting-file upload"),
		writeTimeout:      fs.Duration("write-timeout", d.WriteTimeout, "time to write a reply"),
		idleTimeout:       fs.Duration("idle-timeout", d.IdleTimeout, "how long a keep-alive connection may wait for its next request"),
	}
}

// check refuses negative values.
func (f *limitFlags) check() error {
	if *f.bodyMemoryPerIPKB < 0 {
		return fmt.Errorf("--body-memory-per-ip-kb must not be negative")
	}
	for _, v := range []int{*f.confsPerAccount, *f.confsPerDomain, *f.filesPerDomain, *f.maxConns, *f.maxConnsPerIP, *f.rtcTokensPerConf} {
		if v < 0 {
			return fmt.Errorf("quotas and connection caps must not be negative")
		}
	}
	for _, d := range []time.Duration{*f.headerTimeout, *f.readTimeout, *f.uploadTimeout, *f.writeTimeout, *f.idleTimeout} {
		if d <= 0 {
			return fmt.Errorf("timeouts must be positive")
		}
	}
	if *f.bodyMemoryMB < 1 {
		return fmt.Errorf("--body-memory-mb must be at least 1")
	}
	return nil
}

// quota returns the conference quotas.
func (f *limitFlags) quota() engine.Quota {
	return engine.Quota{PerAccount: *f.confsPerAccount, PerDomain: *f.confsPerDomain}
}

// filesQuota returns mc's quota (< 0 for none, as mc.Config takes it).
func (f *limitFlags) filesQuota() int {
	if *f.filesPerDomain == 0 {
		return -1
	}
	return *f.filesPerDomain
}

// server returns the server's limits; uploads are streamed to a folder
// beside the meeting files (same disk, no tmpfs in memory).
func (f *limitFlags) server(filesDir string, log *slog.Logger) (server.Limits, error) {
	upload := filepath.Join(filesDir, ".incoming")
	if err := os.MkdirAll(upload, 0o750); err != nil {
		return server.Limits{}, err
	}
	// Uploads in flight when a node stopped hard: no request runs longer
	// than an hour (another node may share the folder).
	if es, err := os.ReadDir(upload); err == nil {
		for _, e := range es {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.Remove(filepath.Join(upload, e.Name()))
			}
		}
	}
	l := server.Limits{
		BodyMemory: *f.bodyMemoryMB << 20, BodyMemoryPerIP: *f.bodyMemoryPerIPKB << 10, UploadDir: upload,
		HeaderTimeout: *f.headerTimeout, ReadTimeout: *f.readTimeout, UploadTimeout: *f.uploadTimeout,
		WriteTimeout: *f.writeTimeout, IdleTimeout: *f.idleTimeout,
		MaxConns: *f.maxConns, MaxConnsPerIP: *f.maxConnsPerIP, RTCTokensPerConf: *f.rtcTokensPerConf,
	}
	if l.RTCTokensPerConf == 0 {
		l.RTCTokensPerConf = -1
	}
	if l.BodyMemoryPerIP == 0 {
		l.BodyMemoryPerIP = -1
	}
	if l.MaxConnsPerIP == 0 {
		l.MaxConnsPerIP = -1
	}
	files := raiseFileLimit(log)
	if l.MaxConns == 0 {
		l.MaxConns = server.DefaultLimits().MaxConns
		if files > 0 {
			l.MaxConns = int(min(uint64(l.MaxConns), max(files, 256)-128))
		}
	}
	return l, nil
}
