package push

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// KindNotify is the record kind of a notification waiting to be
// published.
const KindNotify = "push_notify"

// Notify publishes a notification (reference 07 "推送通知信息": method
// notify) on a channel of a conference, e.g.
//
//	push.Notify(ctx, st, now, domain, confID, "/applychairman", map[string]any{"mt_id": "3"})
//	push.Notify(ctx, st, now, domain, confID, "/mixs/1", map[string]any{"error_code": 20001, "mode": 1})
//
// path is the channel under /confs/{conf_id} (alarm, mts, mixs/{mix_id},
// vmps/{vmp_id}, hdus/{hdu_id}, recorders/{rec_id}, playback,
// inspections/{mt_id}/{mode}, monitor/{dst_ip}/{dst_port},
// applychairman, applyspeaker, applymix); fields are the message's fields
// besides method. The notification is a record written like every other
// change, so it is published once committed, in order with the changes
// around it, to the clients of every node. Call it after the change that
// it reports has been committed, outside any retry loop.
func Notify(ctx context.Context, st store.Store, now time.Time, domain, confID, path string, fields map[string]any) error {
	if domain == "" || confID == "" || !strings.HasPrefix(path, "/") || strings.Contains(path, "*") {
		return fmt.Errorf("push: notification on %q of conference %q: bad channel", path, confID)
	}
	data, err := shape.Encode(map[string]any{"path": path, "data": fields})
	if err != nil {
		return err
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	return st.CreateRecord(ctx, store.Record{Kind: KindNotify, ID: hex.EncodeToString(b[:]), DomainMoid: domain,
		OwnerMoid: confID, State: "new", Data: data, CreatedAt: now, UpdatedAt: now})
}

// pruneNotifications deletes the notifications written before a time.
func pruneNotifications(ctx context.Context, st store.Store, before time.Time) error {
	recs, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: KindNotify})
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.CreatedAt.Before(before) {
			if err := st.DeleteRecord(ctx, KindNotify, r.DomainMoid, r.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
	}
	return nil
}
