package vc

import (
	"reflect"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The per-kind queries' plain functions: a poll's reply (pollReply) and
// the self compositions' lists (selfSorted, mtvmpsList, channelVMPList).

func TestPollReply(t *testing.T) {
	t0 := time.UnixMilli(1_765_000_000_000)
	online := engine.Terminal{Rec: store.Record{State: engine.StateOnline}}
	ts := map[string]engine.Terminal{"1": online, "2": online}
	members := []engine.PollMember{{MtID: "1", Account: "a"}, {MtID: "2", Account: "b"}, {MtID: "9", Account: "gone"}}
	wantMembers := []model.VCConfsPollGetReplyMember{{MtID: "1", Account: "a"}, {MtID: "2", Account: "b"}, {MtID: "", Account: "gone"}}

	none := pollReply(nil, ts, t0)
	if none.CurPollMt == nil || none.Members == nil || len(none.Members) != 0 || none.State != 0 || none.Mode != 0 {
		t.Errorf("no poll: %+v", none)
	}
	stopped := pollReply(&engine.Poll{Num: 2, KeepTime: 5, Members: members, State: pollStateStopped, Mode: model.Some(1)}, ts, t0)
	if !reflect.DeepEqual(stopped.Members, wantMembers) || stopped.Num != 2 || stopped.KeepTime != 5 || stopped.State != 0 || stopped.Mode != 0 || stopped.PollIndex != 0 {
		t.Errorf("a stopped poll keeps its settings, mode 0: %+v", stopped)
	}
	running := pollReply(&engine.Poll{KeepTime: 5, Members: members, State: pollStatePolling, TurnAt: t0.UnixMilli(), Mode: model.Some(1)}, ts, t0.Add(6*time.Second))
	if running.State != pollStatePolling || running.Mode != 1 || running.PollIndex != 2 || running.CurPollMt.MtID != "2" {
		t.Errorf("a running poll at its second member: %+v, %+v", running, running.CurPollMt)
	}
}

func TestSelfLists(t *testing.T) {
	selfs := []engine.SelfVMP{{MtID: "10", MtChnIdx: 1, Mode: 1}, {MtID: "2", MtChnIdx: 2, Layout: 3}, {MtID: "2", MtChnIdx: 1, VoiceHint: 1}}
	sorted := selfSorted(selfs)
	var keys []string
	for _, s := range sorted {
		keys = append(keys, s.MtID+"/"+string(rune('0'+s.MtChnIdx)))
	}
	if want := []string{"2/1", "2/2", "10/1"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("selfSorted = %v, want %v", keys, want)
	}
	if selfs[0].MtID != "10" {
		t.Errorf("the stored list was sorted in place: %+v", selfs)
	}
	if got := mtvmpsList(sorted); len(got.Mts) != 3 || got.Mts[0].MtID != "2" || got.Mts[0].VoiceHint != 1 || got.Mts[1].Layout != 3 {
		t.Errorf("mtvmpsList = %+v", got.Mts)
	}
	if got := channelVMPList(sorted); len(got.Mts) != 3 || got.Mts[1].MtChnIdx != 2 || got.Mts[2].MtID != "10" {
		t.Errorf("channelVMPList = %+v", got.Mts)
	}
	if got := channelVMPList(nil); got.Mts != nil {
		t.Errorf("no self composition: %+v", got.Mts)
	}
	cfg := engine.SelfVMP{MtID: "2", MtChnIdx: 2, Mode: 1, Layout: 3, VoiceHint: 1, ShowMtName: 1}
	members := []model.VCConfsMtvmpsGetReplyMember{{MtID: "4"}}
	if got := mtvmpsReply(cfg, members); got.Layout != 3 || got.ShowMtName != 1 || len(got.Members) != 1 {
		t.Errorf("mtvmpsReply = %+v", got)
	}
	if got := channelVMPReply(cfg, members); got.MtID != "2" || got.MtChnIdx != 2 || got.VoiceHint != 1 || len(got.Members) != 1 {
		t.Errorf("channelVMPReply = %+v", got)
	}
}

func TestInspectOf(t *testing.T) {
	type src = model.VCConfsInspectionChannelsCreateRequestSrc
	type dst = model.VCConfsInspectionChannelsCreateRequestDst
	for _, tc := range []struct {
		name           string
		q              model.VCConfsInspectionChannelsCreateRequest
		srcChn, dstChn int
		code           int
	}{
		{"a terminal", model.VCConfsInspectionChannelsCreateRequest{Mode: 1, Src: src{Type: 1, MtID: "2", MtChnIdx: model.Some(2)}, Dst: dst{MtID: "3", MtChnIdx: model.Some(1)}}, 2, 1, 0},
		{"automatic channels", model.VCConfsInspectionChannelsCreateRequest{Mode: 1, Src: src{Type: 1, MtID: "2"}, Dst: dst{MtID: "3"}}, 0, 0, 0},
		{"the composition", model.VCConfsInspectionChannelsCreateRequest{Mode: 1, Src: src{Type: inspSrcComposition, MtChnIdx: model.Some(3)}, Dst: dst{MtID: "3"}}, 0, 0, 0},
		{"itself", model.VCConfsInspectionChannelsCreateRequest{Mode: 1, Src: src{Type: 1, MtID: "3"}, Dst: dst{MtID: "3"}}, 0, 0, wire.CodeInvalidParam},
		{"a negative channel", model.VCConfsInspectionChannelsCreateRequest{Mode: 1, Src: src{Type: 1, MtID: "2"}, Dst: dst{MtID: "3", MtChnIdx: model.Some(-1)}}, 0, 0, wire.CodeInvalidParam},
	} {
		v, err := inspectOf(tc.q)
		if code(t, err) != tc.code {
			t.Errorf("%s: inspectOf error %v, want %d", tc.name, err, tc.code)
			continue
		}
		if err == nil && (v.Src.MtChnIdx != tc.srcChn || v.Dst.MtChnIdx != tc.dstChn || v.Mode != tc.q.Mode || v.Src.Type != tc.q.Src.Type ||
			v.Src.MtID != tc.q.Src.MtID || v.Dst.MtID != tc.q.Dst.MtID) {
			t.Errorf("%s: inspectOf = %+v", tc.name, v)
		}
	}
}
