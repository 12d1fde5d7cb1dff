package vc

import (
	"reflect"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// A terminal's self composition (reference 05 "开启/修改/停止终端自主画面合成")
// is started on a receive channel of an online terminal, once per
// channel; changed and stopped where one runs, on the terminal's lowest
// channel when none is named (paneTestState: 1 has one receive channel).
func TestSelfVMPRules(t *testing.T) {
	s := paneTestState(time.Unix(0, 0))
	auto := selfRequest{Layout: 5}
	custom := selfRequest{Layout: 2, Members: []selfMemberRequest{
		{ChnIdx: 0, MemberType: model.Some(mtypeChosen), MtID: "2"}, {ChnIdx: 1, MembersType: model.Some(mtypeSpeaker)}}}
	running := []engine.SelfVMP{{MtID: "1", MtChnIdx: 1, Mode: 2, Layout: 5, Members: []engine.VMPMember{}}}
	for _, tc := range []struct {
		name  string
		selfs []engine.SelfVMP
		owner string
		chn   int
		q     selfRequest
		mode  int
		want  []engine.SelfVMP
		named []string
		code  int
	}{
		{name: "automatic", owner: "1", q: auto, mode: 2,
			want: []engine.SelfVMP{{MtID: "1", Mode: 2, Layout: 5, Members: []engine.VMPMember{}}}},
		{name: "custom on channel 1", owner: "1", chn: 1, q: custom, mode: 1, named: []string{"2"},
			want: []engine.SelfVMP{{MtID: "1", MtChnIdx: 1, Mode: 1, Layout: 2, Members: []engine.VMPMember{
				{ChnIdx: 0, MemberType: mtypeChosen, MtID: "2"}, {ChnIdx: 1, MemberType: mtypeSpeaker}}}}},
		{name: "another channel of the terminal", selfs: running, owner: "1", q: auto, mode: 2,
			want: append(running[:1:1], engine.SelfVMP{MtID: "1", Mode: 2, Layout: 5, Members: []engine.VMPMember{}})},
		{name: "started already", selfs: running, owner: "1", chn: 1, q: auto, mode: 2, code: CodeVMPStarted},
		{name: "no such receive channel", owner: "1", chn: 2, q: auto, mode: 2, code: CodeMtChannel},
		{name: "offline owner", owner: "3", q: auto, mode: 2, code: CodeMtUnreachable},
		{name: "unknown owner", owner: "9", q: auto, mode: 2, code: wire.CodeMTNotFound},
		{name: "single-channel poll refused", owner: "1", mode: 1,
			q: selfRequest{Layout: 1, Members: []selfMemberRequest{{MemberType: model.Some(mtypeSingle)}}}, code: wire.CodeInvalidParam},
		{name: "a terminal twice", owner: "1", mode: 1, q: selfRequest{Layout: 2, Members: []selfMemberRequest{
			{ChnIdx: 0, MemberType: model.Some(mtypeChosen), MtID: "2"}, {ChnIdx: 1, MemberType: model.Some(mtypeChosen), MtID: "2"}}},
			code: CodeVMPSameMt},
		{name: "too many members", owner: "1", mode: 1, q: selfRequest{Layout: 1, Members: []selfMemberRequest{
			{ChnIdx: 0, MemberType: model.Some(mtypeSpeaker)}, {ChnIdx: 1, MemberType: model.Some(mtypeVoice)}}},
			code: CodeVMPMembersRefused},
	} {
		got, named, err := selfStart(s, tc.selfs, tc.owner, tc.chn, tc.q, tc.mode)
		if codeOf(err) != tc.code || (err == nil && (!reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(named, tc.named))) {
			t.Errorf("start, %s: %+v %v %v; want %+v %v, code %d", tc.name, got, named, err, tc.want, tc.named, tc.code)
		}
	}

	// A change keeps the channel the composition runs on.
	got, named, err := selfModify(s, cloneSelfs(running), "1", -1, custom, 1)
	if err != nil || len(got) != 1 || got[0].MtChnIdx != 1 || got[0].Mode != 1 || !reflect.DeepEqual(named, []string{"2"}) {
		t.Errorf("modify on the lowest channel: %+v %v %v", got, named, err)
	}
	for _, tc := range []struct {
		owner string
		chn   int
		code  int
	}{{"1", 0, CodeVMPNotStarted}, {"2", -1, CodeVMPNotStarted}, {"9", -1, wire.CodeMTNotFound}, {"1", 1, 0}, {"1", -1, 0}} {
		if _, _, err := selfModify(s, cloneSelfs(running), tc.owner, tc.chn, auto, 2); codeOf(err) != tc.code {
			t.Errorf("modify %s channel %d: %v, want code %d", tc.owner, tc.chn, err, tc.code)
		}
		kept, err := selfStop(s, cloneSelfs(running), tc.owner, tc.chn)
		if codeOf(err) != tc.code || (err == nil && len(kept) != 0) {
			t.Errorf("stop %s channel %d: %+v %v, want code %d", tc.owner, tc.chn, kept, err, tc.code)
		}
	}
}

func cloneSelfs(s []engine.SelfVMP) []engine.SelfVMP { return append([]engine.SelfVMP(nil), s...) }
