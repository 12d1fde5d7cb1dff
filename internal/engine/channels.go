package engine

// setChannels gives an online terminal its media channels (reference 05
// "获取与会终端信息": v_snd_chn, v_rcv_chn, dv_snd_chn, dv_rcv_chn,
// a_snd_chn, a_rcv_chn; seed 001 5.2.0.2.0: bitrate, resolution, format,
// cur_video_idx). The simulation uses H.264 (format 5) at 1080p
// (resolution 13, reference A4) for video and the call bitrate.
func setChannels(doc map[string]any, bitrate int) {
	video := func(alias string, snd bool) []any {
		ch := map[string]any{"chn_id": 1, "chn_alias": alias, "bitrate": bitrate, "resolution": 13, "format": 5, "chn_label": 0}
		if snd {
			ch["cur_video_idx"] = 0
		}
		return []any{ch}
	}
	audio := func(alias string) []any {
		return []any{map[string]any{"chn_id": 1, "chn_alias": alias, "chn_label": 0}}
	}
	doc["v_snd_chn"] = video("vsndchn1", true)
	doc["v_rcv_chn"] = video("vrcvchn1", false)
	doc["dv_snd_chn"] = video("dvsndchn1", false)
	doc["dv_rcv_chn"] = video("dvrcvchn1", false)
	doc["a_snd_chn"] = audio("asndchn1")
	doc["a_rcv_chn"] = audio("arcvchn1")
}

// clearChannels removes the channels of a terminal that left the call.
func clearChannels(doc map[string]any) {
	for _, k := range []string{"v_snd_chn", "v_rcv_chn", "dv_snd_chn", "dv_rcv_chn", "a_snd_chn", "a_rcv_chn"} {
		doc[k] = []any{}
	}
}
