package vrs

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/recorder"
	"github.com/confer-platform/confer/internal/system"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// The programs' files (docs/recording.md "Files"): a program recorded
// with media is a file under the recordings folder; it is downloaded with
// HTTP range requests at DownloadPath, deleted with its program, and
// checked against the records at startup (Reconcile).

// DownloadPrefix and DownloadSuffix frame the download path of a
// program's file: GET /api/v1/vrs/programs/{prggid}/file, with the usual
// account_token (query) and SSO_COOKIE_KEY session; a program of another
// user domain is unknown (32).
const (
	DownloadPrefix = "/api/v1/vrs/programs/"
	DownloadSuffix = "/file"
)

// ReportName is the reconciliation report in the recordings folder.
const ReportName = "reconcile-report.json"

// SetRecordings tells the module where the programs' files are ("" none).
func (m *Module) SetRecordings(dir string, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	m.recDir, m.log = dir, log
}

// IsDownload tells whether a request path is a program download.
func IsDownload(path string) bool {
	return strings.HasPrefix(path, DownloadPrefix) && strings.HasSuffix(path, DownloadSuffix)
}

// ServeDownload serves a program's file (GET or HEAD, ranges honoured by
// http.ServeContent). Failures answer the API envelope: 10002 or 10101 (no
// valid token or session), 32 (no such program in the caller's domain),
// 24206 (still recording), 24106 (no file: recorded without media, or
// deleted behind Confer's back).
func (m *Module) ServeDownload(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, DownloadPrefix), DownloadSuffix)
	gid, err := strconv.Atoi(id)
	if err != nil || gid <= 0 {
		wire.WriteError(w, wire.InvalidParam("prggid", "is not a program id"))
		return
	}
	cookie := ""
	if c, err := r.Cookie(system.CookieName); err == nil {
		cookie = c.Value
	}
	p, err := m.auth.Authenticate(r.Context(), r.URL.Query().Get("account_token"), cookie)
	if err != nil {
		wire.WriteError(w, err)
		return
	}
	prg, err := program.Get(r.Context(), m.st, p.DomainMoid, gid)
	switch {
	case errors.Is(err, program.ErrNotFound):
		wire.WriteError(w, wire.Errorf(CodeNoProgram, "program %d does not exist", gid))
		return
	case err != nil:
		wire.WriteError(w, err)
		return
	case prg.Recording():
		wire.WriteError(w, wire.Errorf(CodeBadState, "program %d is being recorded", gid))
		return
	}
	path, err := prg.FilePath(m.recDir)
	if err != nil {
		wire.WriteError(w, wire.Errorf(CodeNoFile, "program %d has no file (recorded without media)", gid))
		return
	}
	f, err := os.Open(path)
	if err != nil {
		m.log.Warn("vrs: a program's file is missing", "prggid", gid, "domain", p.DomainMoid, "err", err)
		wire.WriteError(w, wire.Errorf(CodeNoFile, "the file of program %d is missing", gid))
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		wire.WriteError(w, wire.Errorf(CodeNoFile, "the file of program %d is missing", gid))
		return
	}
	ext := filepath.Ext(path)
	ctype := "video/webm"
	if ext == ".mkv" {
		ctype = "video/x-matroska"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", contentDisposition(downloadName(prg.Alias(), gid, ext)))
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// removeFile deletes a program's file; a file already gone is no error.
func (m *Module) removeFile(p program.Program) error {
	path, err := p.FilePath(m.recDir)
	if err != nil {
		return nil // no file
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Report is what Reconcile found.
type Report struct {
	At                 time.Time     `json:"at"`
	FilesWithoutRecord []string      `json:"files_without_record"` // relative to the recordings folder
	RecordsWithoutFile []MissingFile `json:"records_without_file"`
}

// MissingFile is a program whose file is gone.
type MissingFile struct {
	DomainMoid string `json:"userdomainmoid"`
	GID        int    `json:"prggid"`
	File       string `json:"file"`
}

// Reconcile compares the programs with the files at startup: a program
// whose file is gone and a file that no program names (a recording cut
// by a crash before its program was stored) are logged and written to
// ReportName in the recordings folder; nothing is deleted. Programs
// recorded without media have no file and are not reported.
func (m *Module) Reconcile(ctx context.Context) (Report, error) {
	rep := Report{At: m.clk.Now().UTC(), FilesWithoutRecord: []string{}, RecordsWithoutFile: []MissingFile{}}
	if m.recDir == "" {
		return rep, nil
	}
	ps, err := program.List(ctx, m.st, "")
	if err != nil {
		return rep, err
	}
	known := map[string]bool{}
	for _, p := range ps {
		rel, err := p.Rel()
		if err != nil {
			continue
		}
		known[rel] = true
		if _, err := os.Stat(filepath.Join(m.recDir, filepath.FromSlash(rel))); errors.Is(err, fs.ErrNotExist) {
			rep.RecordsWithoutFile = append(rep.RecordsWithoutFile, MissingFile{DomainMoid: p.Rec.DomainMoid, GID: p.GID(), File: rel})
			m.log.Warn("vrs: a program's file is missing", "prggid", p.GID(), "domain", p.Rec.DomainMoid, "file", rel)
		}
	}
	err = filepath.WalkDir(m.recDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".webm" && ext != ".mkv" {
			return nil
		}
		rel, err := filepath.Rel(m.recDir, path)
		if err != nil || known[filepath.ToSlash(rel)] {
			return err
		}
		rep.FilesWithoutRecord = append(rep.FilesWithoutRecord, filepath.ToSlash(rel))
		h, perr := recorder.ProbeHeader(path)
		m.log.Warn("vrs: a recording file has no program (kept)", "file", filepath.ToSlash(rel), "duration", h.Duration, "probe_err", perr)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, err
	}
	if err := os.MkdirAll(m.recDir, 0o750); err != nil {
		return rep, err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return rep, err
	}
	tmp := filepath.Join(m.recDir, ReportName+".tmp")
	if err := os.WriteFile(tmp, b, 0o640); err != nil {
		return rep, err
	}
	return rep, os.Rename(tmp, filepath.Join(m.recDir, ReportName))
}
