package vc

import (
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

func TestMonitorSourceOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  model.VCConfsMonitorsCreateRequestSrc
		mtID string
		chn  int
		code int
	}{
		{"a terminal", model.VCConfsMonitorsCreateRequestSrc{Type: monSrcTerminal, MtID: model.Some("3")}, "3", 1, 0},
		{"its channel", model.VCConfsMonitorsCreateRequestSrc{Type: monSrcTerminal, MtID: model.Some("3"), MtChnIdx: model.Some(2)}, "3", 2, 0},
		{"no mt_id", model.VCConfsMonitorsCreateRequestSrc{Type: monSrcTerminal}, "", 0, wire.CodeInvalidParam},
		{"the content", model.VCConfsMonitorsCreateRequestSrc{Type: monSrcContent, MtID: model.Some("3"), MtChnIdx: model.Some(2)}, "", 0, 0},
		{"the composition", model.VCConfsMonitorsCreateRequestSrc{Type: 2}, "", 0, 0},
	} {
		mtID, chn, err := monitorSourceOf(model.VCConfsMonitorsCreateRequest{Src: tc.src})
		if mtID != tc.mtID || chn != tc.chn || code(t, err) != tc.code {
			t.Errorf("%s: monitorSourceOf = %q, %d, %v; want %q, %d, %d", tc.name, mtID, chn, err, tc.mtID, tc.chn, tc.code)
		}
	}
}

func TestMonitorFormats(t *testing.T) {
	type f = model.VCConfsMonitorsListReplyMonitorSrcMediaFormats
	for _, tc := range []struct {
		name       string
		q          model.VCConfsMonitorsCreateRequest
		conf, term int
		want       f
	}{
		{"audio", model.VCConfsMonitorsCreateRequest{Mode: monModeAudio}, 2048, 0, f{Sampling: 9, ChnNum: 1}},
		{"audio in stereo", model.VCConfsMonitorsCreateRequest{Mode: monModeAudio, AudioFormat: &model.VCConfsMonitorsCreateRequestAudioFormat{ChnNum: 2}}, 2048, 0, f{Sampling: 9, ChnNum: 2}},
		{"video at the conference's bitrate", model.VCConfsMonitorsCreateRequest{}, 2048, 0, f{Bitrate: 2048, MaxFrame: 30}},
		{"video at the terminal's", model.VCConfsMonitorsCreateRequest{}, 2048, 1024, f{Bitrate: 1024, MaxFrame: 30}},
		{"video as asked", model.VCConfsMonitorsCreateRequest{VideoFormat: &model.VCConfsMonitorsCreateRequestVideoFormat{Bitrate: 512, Frame: 25}}, 2048, 1024, f{Bitrate: 512, MaxFrame: 25}},
	} {
		if got := monitorFormats(tc.q, tc.conf, tc.term); got != tc.want {
			t.Errorf("%s: monitorFormats = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestMonitorOf(t *testing.T) {
	now := time.UnixMilli(1_765_000_000_000)
	q := model.VCConfsMonitorsCreateRequest{Mode: monModeAudio, Src: model.VCConfsMonitorsCreateRequestSrc{Type: monSrcTerminal}}
	mon := monitorOf(q, "10.0.0.5", 7000, "3", 1, model.VCConfsMonitorsListReplyMonitorSrcMediaFormats{Sampling: 9, ChnNum: 1}, now, "k", nil, []byte(`{"chn_num":1}`))
	if monitorDstOf(mon) != monitorDst("10.0.0.5", 7000) || mon.Src.Rtcp.Port != 7001 || mon.Src.MtID != "3" || mon.HeartbeatAt != now.UnixMilli() ||
		mon.Key != "k" || mon.Src.PayloadFormats.ActivePayload != "111" || string(mon.AudioFormat) != `{"chn_num":1}` || mon.VideoFormat != nil {
		t.Errorf("monitorOf = %+v", mon)
	}
}

func TestMonitorBeat(t *testing.T) {
	now := time.UnixMilli(1_765_000_000_000)
	live := []monitor{{Dst: model.VCConfsMonitorsListReplyMonitorDst{IP: "10.0.0.5", Port: 7000}, HeartbeatAt: 1},
		{Dst: model.VCConfsMonitorsListReplyMonitorDst{IP: "10.0.0.5", Port: 7002}, HeartbeatAt: 1}}
	if err := monitorBeat("c", live, map[string]bool{monitorDst("10.0.0.5", 7002): true}, now); err != nil {
		t.Fatal(err)
	}
	if live[0].HeartbeatAt != 1 || live[1].HeartbeatAt != now.UnixMilli() {
		t.Errorf("heartbeats %d, %d", live[0].HeartbeatAt, live[1].HeartbeatAt)
	}
	if got := code(t, monitorBeat("c", live, map[string]bool{monitorDst("10.0.0.6", 7000): true}, now)); got != CodeMonitorUnknown {
		t.Errorf("no live monitor listed: %d, want %d", got, CodeMonitorUnknown)
	}
}

func TestMonitorAllowed(t *testing.T) {
	for _, tc := range []struct {
		ip   string
		code int
	}{
		{"127.0.0.1", 0},
		{"10.1.2.3", 0},
		{"::ffff:192.168.1.5", 0},
		{"8.8.8.8", wire.CodeInvalidParam},
		{"not-an-ip", wire.CodeInvalidParam},
	} {
		if got := code(t, monitorAllowed(DefaultMonitorNets, tc.ip)); got != tc.code {
			t.Errorf("monitorAllowed(%s) = %d, want %d", tc.ip, got, tc.code)
		}
	}
	if got := code(t, monitorAllowed(nil, "127.0.0.1")); got != wire.CodeInvalidParam {
		t.Errorf("no network allowed: %d", got)
	}
}

func TestRTMPParam(t *testing.T) {
	for _, tc := range []struct {
		name    string
		u       string
		mode    int
		canPush bool
		code    int
	}{
		{"none", "", 1, false, 0},
		{"live", "rtmp://example.net/app/key", 2, true, 0},
		{"record and live", "rtmps://example.net/app/key", 3, true, 0},
		{"a recording only", "rtmp://example.net/app/key", 1, true, wire.CodeInvalidParam},
		{"not rtmp", "http://example.net/app", 2, true, wire.CodeInvalidParam},
		{"the node cannot push", "rtmp://example.net/app/key", 2, false, wire.CodeInvalidParam},
	} {
		u, err := rtmpParam(tc.u, tc.mode, tc.canPush)
		if code(t, err) != tc.code || (err == nil && u != tc.u) {
			t.Errorf("%s: rtmpParam = %q, %v; want %d", tc.name, u, err, tc.code)
		}
	}
}
