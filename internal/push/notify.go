package push

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
)

// Notify publishes a notification (reference 07 "推送通知信息": method
// notify) on a channel of a conference that comes with no record change,
// e.g.
//
//	push.Notify(ctx, st, now, domain, confID, "/applychairman", push.Apply{MtID: "3"})
//
// path is the channel under /confs/{conf_id} (alarm, mts, mixs/{mix_id},
// vmps/{vmp_id}, hdus/{hdu_id}, recorders/{rec_id}, playback,
// inspections/{mt_id}/{mode}, monitor/{dst_ip}/{dst_port},
// applychairman, applyspeaker, applymix); fields are the message's fields
// besides method, one of the payloads below. The notification is appended to the store's event log
// (store.Notice), so it is published once committed, in order with the
// changes around it, to the clients of every node. A notification that
// reports a change is better written with the change: store.WithNotices.
func Notify(ctx context.Context, st store.Store, now time.Time, domain, confID, path string, fields any) error {
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
	data, ok := withMethod("notify", ev.Data)
	if !ok {
		return
	}
	t.s.publish(ch, func(int) any { return data })
}

// The payloads of reference 07's notifications ("推送通知信息"), the
// message's members besides method: what Notify and store.NewNotice take.
// Members are declared in name order, so that a notice's stored bytes are
// those the map of the same members wrote before these types.

// Failure is a failure with nothing more to say: "开启画面合成失败通知"
// (/vmps/{vmp_id}), "录像异常通知" (/recorders/{rec_id}), "放像异常通知"
// (/playback), and the alarms (/alarm).
type Failure struct {
	ErrorCode int `json:"error_code"`
}

// HDUFailure is "HDU选看失败通知" (/hdus/{hdu_id}): the wall's mode.
type HDUFailure struct {
	ErrorCode int `json:"error_code"`
	Mode      int `json:"mode"`
}

// SourceFailure is "终端选看失败通知" (/inspections/{mt_id}/{mode}) and
// "开启监控失败通知" (/monitor/{dst_ip}/{dst_port}): the source.
type SourceFailure struct {
	ErrorCode int          `json:"error_code"`
	Src       NoticeSource `json:"src"`
}

// NoticeSource is the source of a viewing or a monitor: type 1 a
// terminal (mt_id), 2 the composition, 3 the mixer.
type NoticeSource struct {
	MtID string `json:"mt_id"`
	Type int    `json:"type"`
}

// Apply is "终端申请主席通知", "终端申请发言人通知" and "终端申请加入混音通知"
// (/applychairman, /applyspeaker, /applymix): the applying terminal.
type Apply struct {
	MtID string `json:"mt_id"`
}

// callFailure is "添加终端失败通知" (/mts), which the tailer publishes
// itself: occupy_confname only with error_code 20423; the terminal's
// account and account_type as its document holds them (null when absent).
type callFailure struct {
	ErrorCode      int               `json:"error_code"`
	Method         string            `json:"method"`
	Mt             callFailureMt     `json:"mt"`
	OccupyConfName model.Opt[string] `json:"occupy_confname,omitzero"`
}

type callFailureMt struct {
	Account     model.Opt[string] `json:"account"`
	AccountType model.Opt[int]    `json:"account_type"`
}

// withMethod is a message's data: {"method": method} followed by the
// members of fields, a JSON object (none when empty) that has no method
// of its own; false for anything else.
func withMethod(method string, fields []byte) (json.RawMessage, bool) {
	head := `{"method":` + string(mustJSON(method))
	var probe struct {
		Method json.RawMessage `json:"method"`
	}
	if len(bytes.TrimSpace(fields)) == 0 {
		return json.RawMessage(head + "}"), true
	}
	fields = bytes.TrimSpace(fields)
	if fields[0] != '{' || json.Unmarshal(fields, &probe) != nil || probe.Method != nil {
		return nil, false
	}
	rest := bytes.TrimSpace(fields[1:])
	if rest[0] == '}' {
		return json.RawMessage(head + "}"), true
	}
	return json.RawMessage(head + "," + string(rest)), true
}
