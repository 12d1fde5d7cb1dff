package vc

import (
	"context"
	"io/fs"
	"path/filepath"

	"github.com/confer-platform/confer/internal/store"
)

// Recording bytes per user domain (issue 38 item 11: a non-admin filled
// the disk with 200 recordings in 21 s). With RecordingConfig.DomainQuota
// (conferd --rec-domain-quota) the files of one user domain in the
// recordings folder (Dir/<domain moid>/, the running ones included) hold
// at most that many bytes: a recording that would start with less than
// recMinStart left is refused with 24014 (磁盘满), and a running one stops
// with 24014, as at a full disk, once its file reaches its part of what
// was left when it started (shared with the domain's recordings running
// then on this node). Deleting programs (vrs; an account deletes its
// own) frees the domain's bytes. The count is of this node's folder: on
// a shared folder it is the platform's. As the shares of capacity
// (engine/share.go), the quota applies only on a platform of more than
// one user domain.

// recMinStart is the least a recording starts with: a file's header and
// a few seconds (above recorder.MinQuota).
const recMinStart = 1 << 20

// domainRecBytes sums the sizes of the files under the domain's folder.
func (m *Module) domainRecBytes(domain string) int64 {
	var n int64
	_ = filepath.WalkDir(filepath.Join(m.rec.cfg.Dir, domain), func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// recAllowance is the most bytes a new recording of domain may write
// (0: no quota); ok is false when the domain's quota leaves too little.
func (m *Module) recAllowance(ctx context.Context, domain string) (allow, used int64, ok bool, err error) {
	q := m.rec.cfg.DomainQuota
	if q <= 0 {
		return 0, 0, true, nil
	}
	if dc, isDC := m.st.(store.DomainCounter); isDC {
		n, err := dc.CountDomains(ctx)
		if err != nil || n <= 1 {
			return 0, 0, true, err
		}
	}
	used = m.domainRecBytes(domain)
	left := (q - used) / int64(m.rec.cfg.Media.DomainRunning(domain)+1) // the runtime's count (rtc.Recordings)
	if left < recMinStart {
		return 0, used, false, nil
	}
	return left, used, true, nil
}
