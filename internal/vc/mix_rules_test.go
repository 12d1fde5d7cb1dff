package vc

import (
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestMixReply(t *testing.T) {
	got := mixReply(&engine.Mix{Mode: 2, MtIDs: []string{"1", "3"}}, func(id string) string { return "acc" + id })
	want := &model.VCConfsMixsGetReply{Mode: 2, Members: []model.VCConfsMixsGetReplyMember{{MtID: "1", Account: "acc1"}, {MtID: "3", Account: "acc3"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mixReply = %+v, want %+v", got, want)
	}
	if got := mixReply(&engine.Mix{}, nil); got.Members == nil {
		t.Errorf("no member: nil list, want an empty one")
	}
}

func TestMixAdded(t *testing.T) {
	have := []string{"1", "2"}
	if got, want := mixAdded(have, []string{"3", "1", "3", "4"}), []string{"1", "2", "3", "4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mixAdded = %v, want %v", got, want)
	}
	if len(have) != 2 {
		t.Errorf("the running mix's members changed: %v", have)
	}
}

func TestMixRemoved(t *testing.T) {
	known := func(id string) bool { return id != "9" }
	for _, tc := range []struct {
		name        string
		ids         []string
		kept, order []string
		code        int
	}{
		{"two", []string{"3", "1"}, []string{"2"}, []string{"3", "1"}, 0},
		{"all", []string{"1", "2", "3"}, []string{}, []string{"1", "2", "3"}, 0},
		{"no mt_id", []string{"1", ""}, nil, nil, wire.CodeInvalidParam},
		{"not of the conference", []string{"9"}, nil, nil, wire.CodeMTNotFound},
		{"not mixed", []string{"1", "4"}, nil, nil, CodeMixNotMember},
	} {
		kept, order, err := mixRemoved("c", []string{"1", "2", "3"}, tc.ids, known)
		if code(t, err) != tc.code || (err == nil && (len(kept) != len(tc.kept) || (len(kept) > 0 && !reflect.DeepEqual(kept, tc.kept)) || !reflect.DeepEqual(order, tc.order))) {
			t.Errorf("%s: mixRemoved = %v, %v, %v; want %v, %v, %d", tc.name, kept, order, err, tc.kept, tc.order, tc.code)
		}
	}
}

func TestMtVideosReply(t *testing.T) {
	got := mtVideosReply([]engine.VideoSource{{Idx: 1, Alias: "main"}, {Idx: 2, Alias: "doc"}}, 2)
	if got.CurVideoIdx != 2 || len(got.MtVideos) != 2 || got.MtVideos[1].VideoIdx != 2 || got.MtVideos[1].VideoAlise != "doc" {
		t.Errorf("mtVideosReply = %+v", got)
	}
}
