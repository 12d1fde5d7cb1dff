package mc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// The content of meeting files: FilesDir/<domain moid>/<32 random hex
// digits>.<extension>. Every element of that path is made by the server
// (the extension is one of fileTypes), never taken from the client, so no
// file name a client sends can reach outside FilesDir. A file is written to
// a temporary name, synced and renamed, so a stored name always holds the
// whole content. Modification times are set from the module's clock, which
// the orphan sweep compares with.

// fileOrphanGrace is how old a file without a record must be before
// SweepOrphanFiles removes it: longer than any upload takes between
// writing the content and storing the record.
const fileOrphanGrace = time.Hour

// fileTempPrefix starts the names of files being written.
const fileTempPrefix = ".upload-"

// fileDomainDir returns the folder of a domain's files.
func (m *Module) fileDomainDir(domain string) (string, error) {
	if m.cfg.FilesDir == "" {
		return "", errors.New("mc: no folder for meeting files is configured")
	}
	if !safeElem(domain) {
		return "", fmt.Errorf("mc: user domain moid %q cannot name a folder", domain)
	}
	return filepath.Join(m.cfg.FilesDir, domain), nil
}

// safeElem tells whether s is a plain path element: letters, digits, - and
// _ only (moids, generated names).
func safeElem(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// fileWrite stores the content of src durably under a new generated name
// with the extension ext (one of fileTypes) and returns the name.
func (m *Module) fileWrite(domain, ext string, src io.Reader, now time.Time) (string, error) {
	dir, err := m.fileDomainDir(domain)
	if err != nil {
		return "", err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	name := hex.EncodeToString(b[:]) + "." + ext
	if !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("mc: generated file name %q is not local", name)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, fileTempPrefix+"*")
	if err != nil {
		return "", err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, src); err != nil {
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chtimes(tmp.Name(), now, now); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return "", err
	}
	done = true
	syncDir(dir)
	return name, nil
}

// syncDir makes a rename or removal in dir durable (best effort: not every
// system can sync a folder).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// fileRemove deletes the content of a file whose record is gone; a file
// already missing is fine. Names that are not plain elements are ignored.
func (m *Module) fileRemove(domain, stored string) {
	dir, err := m.fileDomainDir(domain)
	if err != nil || !filepath.IsLocal(stored) || strings.ContainsAny(stored, `/\`) {
		return
	}
	if err := os.Remove(filepath.Join(dir, stored)); err == nil {
		syncDir(dir)
	}
}

// SweepOrphanFiles removes content that no file record names any more and
// that is older than fileOrphanGrace: left by a crash between writing the
// content and storing its record, or by a deletion that ran on another
// node when the nodes keep separate folders. It walks the whole folder, so
// it belongs in a slow periodic job (minutes), not in every tick.
func (m *Module) SweepOrphanFiles(ctx context.Context) error {
	if m.cfg.FilesDir == "" {
		return nil
	}
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindFile})
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, rec := range recs {
		d, err := decodeFile(rec)
		if err != nil {
			return err
		}
		known[rec.DomainMoid+"/"+d.StoredName] = true
	}
	domains, err := os.ReadDir(m.cfg.FilesDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	cutoff := m.clk.Now().Add(-fileOrphanGrace)
	for _, dd := range domains {
		if !dd.IsDir() || !safeElem(dd.Name()) {
			continue
		}
		dir := filepath.Join(m.cfg.FilesDir, dd.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, f := range files {
			if !f.Type().IsRegular() || known[dd.Name()+"/"+f.Name()] {
				continue
			}
			info, err := f.Info()
			if err != nil || !info.ModTime().Before(cutoff) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, f.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
