package vc

import (
	"encoding/json"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// The monitors' rules (monitor.go), plain functions over the request and
// the stored monitors (issue 40): a start's source and formats, the
// monitor it stores, a heartbeat's change. monitor_rules_test.go checks
// them without HTTP or store.

// monitorSourceOf reads a start's source: a terminal's mt_id (required)
// and channel (reference 05 "监控操作": default 1); other sources have
// neither.
func monitorSourceOf(q model.VCConfsMonitorsCreateRequest) (mtID string, chn int, err error) {
	if q.Src.Type != monSrcTerminal {
		return "", 0, nil
	}
	mtID = q.Src.MtID.Or("")
	if mtID == "" {
		return "", 0, wire.InvalidParam("src.mt_id", "is required to monitor a terminal")
	}
	return mtID, q.Src.MtChnIdx.Or(1), nil
}

// monitorFormats are a started monitor's media_formats: audio at 48000
// Hz (sampling 9) in the channels asked (1 unless asked); video at the
// bitrate asked, else the monitored terminal's, else the conference's,
// and the frame rate asked (30 unless asked).
func monitorFormats(q model.VCConfsMonitorsCreateRequest, confBitrate, termBitrate int) model.VCConfsMonitorsListReplyMonitorSrcMediaFormats {
	var f model.VCConfsMonitorsListReplyMonitorSrcMediaFormats
	if q.Mode == monModeAudio {
		f.Sampling, f.ChnNum = 9, 1
		if q.AudioFormat != nil && q.AudioFormat.ChnNum > 0 {
			f.ChnNum = q.AudioFormat.ChnNum
		}
		return f
	}
	bitrate := confBitrate
	if termBitrate > 0 {
		bitrate = termBitrate
	}
	if q.VideoFormat != nil && q.VideoFormat.Bitrate > 0 {
		bitrate = q.VideoFormat.Bitrate
	}
	f.Bitrate, f.MaxFrame = bitrate, 30
	if q.VideoFormat != nil && q.VideoFormat.Frame > 0 {
		f.MaxFrame = q.VideoFormat.Frame
	}
	return f
}

// monitorOf is the monitor a start stores: its source, formats and
// destination, its first heartbeat (now), its link's key and the formats
// as the request sent them.
func monitorOf(q model.VCConfsMonitorsCreateRequest, ip string, port int, mtID string, chn int,
	formats model.VCConfsMonitorsListReplyMonitorSrcMediaFormats, now time.Time, key string, videoSent, audioSent json.RawMessage) monitor {
	payloads := monitorPayloads(q.Mode)
	return monitor{
		Mode: q.Mode,
		Src: model.VCConfsMonitorsListReplyMonitorSrc{Type: q.Src.Type, MtID: mtID, MtChnIdx: chn,
			Encrypt:        &model.VCConfsMonitorsListReplyMonitorSrcEncrypt{},
			PayloadFormats: &payloads,
			MediaFormats:   &formats,
			Rtcp:           &model.VCConfsMonitorsListReplyMonitorSrcRtcp{IP: "127.0.0.1", Port: port + 1}},
		Dst:         model.VCConfsMonitorsListReplyMonitorDst{IP: ip, Port: port},
		HeartbeatAt: tlMs(now),
		Key:         key,
		VideoFormat: videoSent,
		AudioFormat: audioSent,
	}
}

// monitorBeat is a heartbeat on the live monitors: those sending to a
// destination in want live on from now; 22008 when none of them does.
func monitorBeat(confID string, live []monitor, want map[string]bool, now time.Time) error {
	kept := 0
	for i := range live {
		if want[monitorDstOf(live[i])] {
			live[i].HeartbeatAt = tlMs(now)
			kept++
		}
	}
	if kept == 0 {
		return wire.Errorf(CodeMonitorUnknown, "conference %s has no live monitor to the listed destinations", confID)
	}
	return nil
}
