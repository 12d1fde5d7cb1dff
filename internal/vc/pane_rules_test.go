package vc

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// paneTestState is a conference whose terminal 1 is online with two send
// channels and one receive channel, 2 online with none, 3 offline, and
// the subordinate's 4.1 online with one send channel.
func paneTestState(now time.Time) paneState {
	return paneState{ConfID: "c1", Now: now, Terms: map[string]paneTerm{
		"1": {Online: true, Send: 2, Recv: 1}, "2": {Online: true}, "3": {}, "4.1": {Online: true, Send: 1},
	}}
}

// codeOf is the platform code of a rule's error (0 for none).
func codeOf(err error) int {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

// A feature's terminal must be in the conference (12104) and online
// (20401); its channel 0 (automatic) to the number it has (20054).
func TestPaneMemberAndChannel(t *testing.T) {
	s := paneTestState(time.Unix(0, 0))
	for _, tc := range []struct {
		id         string
		member     int
		idx        int
		kind       string
		channelErr int
	}{
		{"1", 0, 2, "v_snd_chn", 0},
		{"1", 0, 3, "v_snd_chn", CodeMtChannel},
		{"1", 0, 1, "v_rcv_chn", 0},
		{"1", 0, 2, "v_rcv_chn", CodeMtChannel},
		{"1", 0, -1, "v_snd_chn", CodeMtChannel},
		{"2", 0, 0, "v_snd_chn", 0},
		{"2", 0, 1, "v_snd_chn", CodeMtChannel},
		{"3", CodeMtUnreachable, 0, "v_snd_chn", 0},
		{"9", wire.CodeMTNotFound, 1, "v_snd_chn", CodeMtChannel},
		{"4.1", 0, 1, "v_snd_chn", 0},
	} {
		if got := codeOf(s.member("mt_id", tc.id)); got != tc.member {
			t.Errorf("member %s: code %d, want %d", tc.id, got, tc.member)
		}
		if got := codeOf(s.channel("mt_chn_idx", tc.id, tc.idx, tc.kind)); got != tc.channelErr {
			t.Errorf("channel %s %d of %s: code %d, want %d", tc.kind, tc.idx, tc.id, got, tc.channelErr)
		}
	}
}

// A list of terminals names each once, online; an empty mt_id is 90400.
func TestPaneIDList(t *testing.T) {
	s := paneTestState(time.Unix(0, 0))
	for _, tc := range []struct {
		ids  []string
		want []string
		code int
	}{
		{ids: nil},
		{ids: []string{"1", "2", "1", "4.1"}, want: []string{"1", "2", "4.1"}},
		{ids: []string{"1", ""}, code: wire.CodeInvalidParam},
		{ids: []string{"1", "3"}, code: CodeMtUnreachable},
		{ids: []string{"8"}, code: wire.CodeMTNotFound},
	} {
		got, err := s.idList(tc.ids, "members")
		if codeOf(err) != tc.code || (err == nil && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%v: %v, %v; want %v, code %d", tc.ids, got, err, tc.want, tc.code)
		}
	}
}

// A single-channel poll's rounds, interval and first terminal: poll_index
// 1-based, 0 carrying on from the terminal the old poll shows now.
func TestPaneSinglePoll(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := paneTestState(now)
	// The old poll over 2, 1 every 10 s, started 15 s ago: it shows 1.
	old := &engine.SinglePoll{KeepTime: 10, MtIDs: []string{"2", "1"},
		Rot: mdRot{Keep: 10 * time.Second, Since: now.Add(-15 * time.Second)}.stored()}
	req := func(num, keep, idx model.Opt[int], ids ...string) pollRequest {
		return pollRequest{Num: num, KeepTime: keep, PollIndex: idx, MtIDs: ids}
	}
	none, k5 := model.Opt[int]{}, model.Some(5)
	for _, tc := range []struct {
		name   string
		po     pollRequest
		old    *engine.SinglePoll
		origin int
		code   int
	}{
		{name: "first", po: req(none, k5, none, "1", "2")},
		{name: "from the second", po: req(model.Some(2), k5, model.Some(2), "1", "2"), origin: 1},
		{name: "carries on", po: req(none, k5, model.Some(0), "2", "1"), old: old, origin: 1},
		{name: "index beyond", po: req(none, k5, model.Some(3), "1", "2"), code: wire.CodeInvalidParam},
		{name: "no interval", po: req(none, none, none, "1"), code: wire.CodeInvalidParam},
		{name: "interval 0", po: req(none, model.Some(0), none, "1"), code: wire.CodeInvalidParam},
		{name: "negative rounds", po: req(model.Some(-1), k5, none, "1"), code: wire.CodeInvalidParam},
		{name: "no terminal", po: req(none, k5, none), code: wire.CodeInvalidParam},
		{name: "offline terminal", po: req(none, k5, none, "1", "3"), code: CodeMtUnreachable},
	} {
		sp, err := s.singlePoll(tc.po, "poll", tc.old)
		if got := codeOf(err); got != tc.code {
			t.Errorf("%s: code %d (%v), want %d", tc.name, got, err, tc.code)
			continue
		}
		if err != nil {
			continue
		}
		want := &engine.SinglePoll{Num: tc.po.Num.Or(0), KeepTime: 5, MtIDs: tc.po.MtIDs,
			Rot: mdRot{Origin: tc.origin, Num: tc.po.Num.Or(0), Keep: 5 * time.Second, Since: now}.stored()}
		if !reflect.DeepEqual(sp, want) {
			t.Errorf("%s: %+v, want %+v", tc.name, sp, want)
		}
	}
}

// The panes of the conference composition (reference 05 "开启会议画面合成"):
// members within the layout (20546), a channel once (90400), one
// speaker, poll and dual-stream channel each (20827, 20828, 20837), a
// terminal in one chosen channel (20826), the batch poll required in
// modes 3 and 4 and given a pane in mode 4.
func TestVMPConfigPaneRules(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := paneTestState(now)
	typ := func(n int) model.Opt[int] { return model.Some(n) }
	chosen := func(chn int, id string, mtChn int) vmpMemberRequest {
		return vmpMemberRequest{ChnIdx: chn, MemberType: typ(mtypeChosen), MtID: id, MtChnIdx: mtChn}
	}
	follow := func(chn, t int) vmpMemberRequest { return vmpMemberRequest{ChnIdx: chn, MemberType: typ(t)} }
	batch := &pollRequest{Num: typ(0), KeepTime: typ(5), MtIDs: []string{"2"}}
	for _, tc := range []struct {
		name    string
		q       vmpRequest
		code    int
		members int
	}{
		{name: "automatic", q: vmpRequest{ModeSent: true, Mode: 2, Layout: 5}},
		{name: "custom", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			chosen(0, "1", 2), follow(1, mtypeSpeaker), follow(2, mtypePoll), follow(3, mtypeDual)}}, members: 4},
		{name: "members typed as members_type", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 1, Members: []vmpMemberRequest{
			{ChnIdx: 0, MembersType: typ(mtypeChairman)}}}, members: 1},
		{name: "no mode: members make it custom", q: vmpRequest{Layout: 2, Members: []vmpMemberRequest{chosen(1, "4.1", 1)}}, members: 1},
		{name: "unknown layout", q: vmpRequest{ModeSent: true, Mode: 2, Layout: 99}, code: wire.CodeInvalidParam},
		{name: "more members than panes", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 1, Members: []vmpMemberRequest{
			follow(0, mtypeSpeaker), follow(0, mtypeVoice)}}, code: CodeVMPMembersRefused},
		{name: "channel outside the layout", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 2, Members: []vmpMemberRequest{
			follow(2, mtypeSpeaker)}}, code: CodeVMPMembersRefused},
		{name: "channel twice", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(1, mtypeVoice), follow(1, mtypeChairman)}}, code: wire.CodeInvalidParam},
		{name: "two speakers", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(0, mtypeSpeaker), follow(1, mtypeSpeaker)}}, code: CodeVMPTwoSpeaker},
		{name: "two polls", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(0, mtypePoll), follow(1, mtypePoll)}}, code: CodeVMPTwoPoll},
		{name: "two dual streams", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(0, mtypeDual), follow(1, mtypeDual)}}, code: CodeVMPTwoDual},
		{name: "a terminal twice", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			chosen(0, "1", 0), chosen(1, "1", 1)}}, code: CodeVMPSameMt},
		{name: "chosen without terminal", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			chosen(0, "", 0)}}, code: wire.CodeInvalidParam},
		{name: "chosen offline", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			chosen(0, "3", 0)}}, code: CodeMtUnreachable},
		{name: "chosen channel lacking", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			chosen(0, "2", 1)}}, code: CodeMtChannel},
		{name: "member type 8", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(0, 8)}}, code: wire.CodeInvalidParam},
		{name: "single poll without poll", q: vmpRequest{ModeSent: true, Mode: 1, Layout: 5, Members: []vmpMemberRequest{
			follow(0, mtypeSingle)}}, code: wire.CodeInvalidParam},
		{name: "batch poll missing", q: vmpRequest{ModeSent: true, Mode: 3, Layout: 5}, code: wire.CodeInvalidParam},
		{name: "batch poll", q: vmpRequest{ModeSent: true, Mode: 3, Layout: 5, Poll: batch}},
		{name: "mode 4 without terminals", q: vmpRequest{ModeSent: true, Mode: 4, Layout: 5, Poll: &pollRequest{Num: typ(0), KeepTime: typ(5)}},
			code: wire.CodeInvalidParam},
		{name: "mode 4: the channels take every pane", q: vmpRequest{ModeSent: true, Mode: 4, Layout: 2, Poll: batch,
			Members: []vmpMemberRequest{follow(0, mtypeSpeaker), follow(1, mtypeVoice)}}, code: CodeVMPMembersRefused},
		{name: "mode 4", q: vmpRequest{ModeSent: true, Mode: 4, Layout: 2, Poll: batch,
			Members: []vmpMemberRequest{follow(0, mtypeSpeaker)}}, members: 1},
	} {
		cfg, err := vmpConfig(tc.q, nil, s)
		if got := codeOf(err); got != tc.code {
			t.Errorf("%s: code %d (%v), want %d", tc.name, got, err, tc.code)
			continue
		}
		if err != nil {
			continue
		}
		if len(cfg.Members) != tc.members {
			t.Errorf("%s: %d members, want %d", tc.name, len(cfg.Members), tc.members)
		}
		if wantPoll := tc.q.Mode == 3 || tc.q.Mode == 4; (cfg.Poll != nil) != wantPoll {
			t.Errorf("%s: batch poll %+v", tc.name, cfg.Poll)
		}
	}
	// A change sent without mode keeps the running composition's.
	cfg, err := vmpConfig(vmpRequest{Layout: 5}, &engine.VMP{Mode: 3}, s)
	if codeOf(err) != wire.CodeInvalidParam || cfg != nil {
		t.Errorf("a change of a batch-polling composition without its poll: %+v, %v", cfg, err)
	}
}
