package mc

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Admitting an upload (issue 20 items 3 and 4): the meeting's 10 files
// (reference 04) and the domain's quota (Config.MaxFilesPerDomain) are
// counted in the transaction that stores the record, after taking a
// per-domain lock (a store counter row, held to the commit on PostgreSQL;
// SQLite has one writer), so uploads at once are neither refused below the
// limits nor admitted above them.

// DefaultMaxFilesPerDomain is the default quota of meeting files a user
// domain keeps (docs/operations.md "Limits"): 100 meetings' worth.
const DefaultMaxFilesPerDomain = 1000

// fileAdmit stores rec (with doc) under a new file id when the meeting
// and the domain have room at now.
func (m *Module) fileAdmit(ctx context.Context, rec store.Record, doc *fileDoc, meetingID string, now time.Time) (store.Record, error) {
	quota := m.cfg.MaxFilesPerDomain
	if quota == 0 {
		quota = DefaultMaxFilesPerDomain
	}
	for try := 0; try < 100; try++ {
		err := m.st.Atomic(ctx, func(tx store.Tx) error {
			if _, err := tx.NextNumber("meeting_files_lock/"+rec.DomainMoid, 1, 1<<62); err != nil {
				return err
			}
			recs, err := tx.ListRecords(store.RecordQuery{Kind: record.KindFile, DomainMoid: rec.DomainMoid, States: []string{fileState}})
			if err != nil {
				return err
			}
			inDomain, inMeeting := 0, 0
			for _, r := range recs {
				if !r.DueAt.After(now) {
					continue
				}
				inDomain++
				d, err := decodeFile(r)
				if err != nil {
					return err
				}
				if d.MeetingID == meetingID {
					inMeeting++
				}
			}
			if inMeeting >= FileMaxPerMeeting {
				return fileLimit(meetingID)
			}
			if quota > 0 && inDomain >= quota {
				return wire.Errorf(CodeQuota, "the user domain keeps %d meeting files, its quota (--max-files-per-domain)", quota)
			}
			n, err := tx.NextNumber("meeting_file", 1, 999999999)
			if err != nil {
				return err
			}
			rec.ID = strconv.FormatInt(n, 10)
			doc.FileID = rec.ID
			if rec.Data, err = json.Marshal(doc); err != nil {
				return err
			}
			return tx.CreateRecord(rec)
		})
		if errors.Is(err, store.ErrDuplicate) {
			continue // an id taken by hand; the counter moves on
		}
		return rec, err
	}
	return rec, errors.New("mc: no free meeting file id")
}
