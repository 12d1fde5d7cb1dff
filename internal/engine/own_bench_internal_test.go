package engine

import (
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// BenchmarkDecodeOwnMembers reads a stored running conference with the
// server's own members (roles, VIP list, mix, composition, poll, a
// recording) into a Conference: the document decoded and its own members
// split out, as on a doc cache miss.
func BenchmarkDecodeOwnMembers(b *testing.B) {
	data := []byte(`{"bitrate":2048,"chairman_mt_id":"1","conf_id":"1110002","duration":90,"name":"full","speaker_mt_id":"2",` +
		`"vc_mix":{"mode":1,"mt_ids":["1","2"]},` +
		`"vc_poll":{"index":0,"keep_time":5,"members":[{"account":"a","mt_id":"2"},{"account":null,"mt_id":"3"}],"mode":1,"num":0,"origin":0,"paused_at":0,"rounds":0,"state":1,"turn_at":1796540400000},` +
		`"vc_recorders":[{"anonymous":0,"dual_stream":0,"main_stream":1,"members":[],"paused_at":0,"paused_ms":0,"publish_mode":0,"rec_id":"1","recorder_mode":1,"recorder_type":1,"started_at":1765000000000,"state":1,"video_name":"v","vrs_id":"vrs1","watermark":0}],` +
		`"vc_vmp":{"broadcast":1,"except_self":0,"layout":4,"members":[{"chn_idx":0,"member_type":1,"mt_chn_idx":0,"mt_id":"1"}],"mode":1,"mt_name_style":{"font_color":"#FFFFFF","font_size":0,"position":1},"show_mt_name":1,"voice_hint":0},` +
		`"viplist":[{"cascade_id":"0","mt_id":"1"}]}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c, err := decode(store.Record{Data: data})
		if err != nil || c.VMP == nil || c.Recorders == nil || c.Poll == nil {
			b.Fatal(err, c.VMP, c.Recorders, c.Poll)
		}
	}
}
