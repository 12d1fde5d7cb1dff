package engine

import (
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// BenchmarkConferenceAccessors reads the members a conference list and a
// speaker change read of every conference (name, times, bitrate, type,
// flags, call settings) from a decoded conference.
func BenchmarkConferenceAccessors(b *testing.B) {
	c, err := decode(store.Record{Data: []byte(`{"auto_end":1,"bitrate":2048,"call_interval":20,"call_mode":2,"call_times":3,` +
		`"closed_conf":1,"conf_id":"1110002","conf_type":0,"duration":90,"end_time":"2026-03-01T10:30:00+00:00","max_join_mt":8,` +
		`"meeting_id":"m","mix_enable":1,"mute":0,"name":"full","password":"","start_time":"2026-03-01T09:00:00+00:00",` +
		`"user_domain_name":"default","vmp_enable":0}`)})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for i := 0; i < b.N; i++ {
		n += len(c.Name()) + len(c.MeetingID()) + len(c.Password()) + len(c.StartTimeText()) + len(c.EndTimeText()) +
			len(c.UserDomainName()) + c.Bitrate() + c.ConfType() + c.ClosedConf() + c.MixEnable() + c.VMPEnable() +
			c.Duration() + c.AutoEnd() + c.Mute() + c.Ports() + ConfOf(c).CallMode
	}
	if n == 0 {
		b.Fatal("nothing read")
	}
}
