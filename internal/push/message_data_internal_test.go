package push

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The data of a message is {"method": ...} and the members of its
// content, whatever their types; a notice's payload types write the
// members (and their absence) of reference 07.
func TestMessageData(t *testing.T) {
	same := func(what string, got []byte, want string) {
		t.Helper()
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%s: %s: %v", what, got, err)
		}
		if err := json.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s, want %s", what, got, want)
		}
	}
	same("empty update", updateData(nil), `{"method":"update"}`)
	same("update", updateData(wire.Object{"mt_id": "1", "n": 2, "l": []any{}}), `{"method":"update","mt_id":"1","n":2,"l":[]}`)
	same("update with a method", updateData(wire.Object{"method": "x", "a": 1}), `{"method":"update","a":1}`)
	same("delete", deleteMessage, `{"method":"delete"}`)
	for _, c := range []struct {
		fields any
		want   string
	}{
		{nil, `{"method":"notify"}`},
		{Failure{ErrorCode: 24106}, `{"method":"notify","error_code":24106}`},
		{HDUFailure{ErrorCode: 20401, Mode: 1}, `{"method":"notify","error_code":20401,"mode":1}`},
		{SourceFailure{ErrorCode: 20401, Src: NoticeSource{Type: 1, MtID: "1"}}, `{"method":"notify","error_code":20401,"src":{"type":1,"mt_id":"1"}}`},
		{Apply{MtID: "3"}, `{"method":"notify","mt_id":"3"}`},
	} {
		n, err := store.NewNotice("d", "1", "/x", c.fields, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		data, ok := withMethod("notify", n.Data)
		if !ok {
			t.Fatalf("%+v: refused", c.fields)
		}
		same(c.want, data, c.want)
	}
	for _, bad := range []string{`[]`, `"x"`, `{"method":"update"}`, `{`} {
		if _, ok := withMethod("notify", []byte(bad)); ok {
			t.Errorf("%s taken", bad)
		}
	}
	// 添加终端失败通知: account and account_type null when the document
	// lacks them, occupy_confname only when set.
	b, _ := json.Marshal(callFailure{ErrorCode: 20401, Method: "notify"})
	same("call failure", b, `{"method":"notify","error_code":20401,"mt":{"account":null,"account_type":null}}`)
	b, _ = json.Marshal(callFailure{ErrorCode: 20423, Method: "notify", OccupyConfName: model.Some(""),
		Mt: callFailureMt{Account: model.Some("5550001"), AccountType: model.Some(5)}})
	same("busy here", b, `{"method":"notify","error_code":20423,"mt":{"account":"5550001","account_type":5},"occupy_confname":""}`)
}
