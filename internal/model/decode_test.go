package model_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// A request is read from the structured parameters as the pipeline left
// them: numbers as json.Number, absent and null members left nil.
func TestDecodeParams(t *testing.T) {
	var q model.VCConfsSpeakerUpdateRequest
	if err := q.Decode(&wire.Args{Params: map[string]any{"mt_id": "3", "force_broadcast": json.Number("1")}}); err != nil {
		t.Fatal(err)
	}
	if q.MtID != "3" || !q.ForceBroadcast.Set || q.ForceBroadcast.Value != 1 {
		t.Errorf("decoded %+v", q)
	}
	q = model.VCConfsSpeakerUpdateRequest{}
	if err := q.Decode(&wire.Args{Params: map[string]any{"mt_id": "", "force_broadcast": nil}}); err != nil {
		t.Fatal(err)
	}
	if q.MtID != "" || q.ForceBroadcast.Set {
		t.Errorf("null force_broadcast: decoded %+v", q)
	}
}

// Nested objects and lists of objects become the nested types.
func TestDecodeNested(t *testing.T) {
	var q model.MCConfsCreateRequest
	params := map[string]any{"name": "weekly", "duration": json.Number("60"),
		"invite_members": []any{map[string]any{"name": "Room A", "account": "10.1.0.1", "account_type": json.Number("7")}}}
	if err := q.Decode(&wire.Args{Params: params}); err != nil {
		t.Fatal(err)
	}
	if q.Name.Or("") != "weekly" || q.Duration.Or(0) != 60 {
		t.Errorf("decoded %+v", q)
	}
	if len(q.InviteMembers) != 1 || q.InviteMembers[0].Account != "10.1.0.1" || q.InviteMembers[0].AccountType != 7 {
		t.Errorf("invite_members decoded %+v", q.InviteMembers)
	}
}

// Query parameters are text: integers are read from it; an empty one is
// absent, as validation takes it.
func TestDecodeQuery(t *testing.T) {
	var q model.VCConfsListRequest
	if err := q.Decode(&wire.Args{Query: url.Values{"start": {"5"}, "count": {"20"}, "own_conf": {""}}}); err != nil {
		t.Fatal(err)
	}
	if q.Start.Or(0) != 5 || q.Count.Or(10) != 20 || q.OwnConf.Set {
		t.Errorf("decoded %+v", q)
	}
}

// A member of the wrong type is 90400 naming it.
func TestDecodeWrongType(t *testing.T) {
	var q model.VCConfsSpeakerUpdateRequest
	err := q.Decode(&wire.Args{Params: map[string]any{"mt_id": true}})
	var we *wire.Error
	if !errors.As(err, &we) || we.Code != wire.CodeInvalidParam {
		t.Fatalf("Decode: %v, want 90400", err)
	}
}

// A reply is the wire's object of the newest model: every member, lists
// as []any, nested objects as objects.
func TestReplyWire(t *testing.T) {
	r := model.VCConfsListReply{Total: 1, Confs: []model.VCConfsListReplyConf{{ConfID: "1110001", Name: "weekly"}}}
	o := r.Wire()
	if o["total"] != 1 {
		t.Errorf("total = %v", o["total"])
	}
	confs, ok := o["confs"].([]any)
	if !ok || len(confs) != 1 {
		t.Fatalf("confs = %#v", o["confs"])
	}
	c := confs[0].(wire.Object)
	if c["conf_id"] != "1110001" || c["name"] != "weekly" {
		t.Errorf("conf = %v", c)
	}
	if got := (&model.VCConfsListReply{}).Wire()["confs"]; got == nil || len(got.([]any)) != 0 {
		t.Errorf("a nil list is written as %#v, want an empty array", got)
	}
}

// An absent optional member is left out of JSON and read back absent; a
// present one, even 0, is written and read back present.
func TestOptJSON(t *testing.T) {
	b, err := json.Marshal(model.VCConfsListRequest{Count: model.Some(0)})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"count":0}` {
		t.Errorf("encoded %s", b)
	}
	var q model.VCConfsListRequest
	if err := json.Unmarshal([]byte(`{"count":0,"start":null}`), &q); err != nil {
		t.Fatal(err)
	}
	if !q.Count.Set || q.Count.Value != 0 || q.Start.Set {
		t.Errorf("decoded %+v", q)
	}
}
