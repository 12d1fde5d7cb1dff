package push

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/store"
)

// Notify publishes a notification (reference 07 "推送通知信息": method
// notify) on a channel of a conference that comes with no record change,
// e.g.
//
//	push.Notify(ctx, st, now, domain, confID, "/applychairman", map[string]any{"mt_id": "3"})
//
// path is the channel under /confs/{conf_id} (alarm, mts, mixs/{mix_id},
// vmps/{vmp_id}, hdus/{hdu_id}, recorders/{rec_id}, playback,
// inspections/{mt_id}/{mode}, monitor/{dst_ip}/{dst_port},
// applychairman, applyspeaker, applymix); fields are the message's fields
// besides method. The notification is appended to the store's event log
// (store.Notice), so it is published once committed, in order with the
// changes around it, to the clients of every node. A notification that
// reports a change is better written with the change: store.WithNotices.
func Notify(ctx context.Context, st store.Store, now time.Time, domain, confID, path string, fields map[string]any) error {
	if domain == "" || confID == "" || !strings.HasPrefix(path, "/") || strings.Contains(path, "*") {
		return fmt.Errorf("push: notification on %q of conference %q: bad channel", path, confID)
	}
	n, err := store.NewNotice(domain, confID, path, fields, now)
	if err != nil {
		return err
	}
	return st.AppendNotice(ctx, n)
}

// notification publishes a notice of the event log.
func (t *tailer) notification(ev store.Event) {
	if ev.Op != store.OpNotify || ev.OwnerMoid == "" || !strings.HasPrefix(ev.ID, "/") {
		return
	}
	ch := domainBase(ev.DomainMoid) + expand(pathConf, map[string]string{"conf_id": ev.OwnerMoid}) + ev.ID
	if !validPattern(ch) || strings.Contains(ch, "*") {
		return
	}
	var fields map[string]any
	if len(ev.Data) > 0 && json.Unmarshal(ev.Data, &fields) != nil {
		return
	}
	t.s.publish(ch, func(int) any {
		data := map[string]any{}
		for k, v := range fields {
			data[k] = deepCopy(v)
		}
		data["method"] = "notify"
		return data
	})
}
