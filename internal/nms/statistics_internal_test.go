package nms

import (
	"reflect"
	"slices"
	"testing"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store"
)

// callOf reads a terminal's account and protocol as terminalOf does from
// the whole decoded document.
func TestCallOfReadsAsTerminalOf(t *testing.T) {
	for _, doc := range []string{
		`{"mt_id":"1","account":"10.77.0.1","account_type":7,"protocol":0,"alias":"10.77.0.1","online":1}`,
		`{"account":"0512110000001","protocol":1}`,
		`{"account":5551234,"protocol":"1"}`,
		`{"account":12.5,"protocol":1.0}`,
		`{"account":null,"protocol":2.5}`,
		`{"protocol":1,"nested":{"account":"x","protocol":0},"account":"last"}`,
		`{}`,
	} {
		acct, protocol, err := callOf([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		m, err := engine.DecodeTerminal(store.Record{Data: []byte(doc)})
		if err != nil {
			t.Fatal(err)
		}
		want := terminalOf("d", m)
		if acct != want.account || protocol != want.protocol {
			t.Errorf("%s: callOf = %q, %d; terminalOf = %q, %d", doc, acct, protocol, want.account, want.protocol)
		}
	}
	if _, _, err := callOf([]byte(`{"account":`)); err == nil {
		t.Error("a truncated document was read")
	}
}

// channels reads a stored channel's numbers as record.Int reads them from
// the element, and an element of another form as zeros.
func TestChannelsReadAsRecordInt(t *testing.T) {
	tm, err := engine.DecodeTerminal(store.Record{Data: []byte(`{"v_snd_chn":[{"bitrate":1024,"chn_id":1,"format":5},` +
		`{"bitrate":"512","chn_id":2.0,"format":null},7,null,{"bitrate":{"x":1},"chn_id":" 3 ","format":1.5}],"v_rcv_chn":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	got := channels(tm, "v")
	want := []videoChannel{{ChanID: 1, UpOrDown: 1, VideoFormat: videoFormats[5], VideoUpBitrate: 1024},
		{ChanID: 2, UpOrDown: 1, VideoFormat: videoFormats[0], VideoUpBitrate: 512},
		{UpOrDown: 1, VideoFormat: videoFormats[0]}, {UpOrDown: 1, VideoFormat: videoFormats[0]},
		{ChanID: 3, UpOrDown: 1, VideoFormat: videoFormats[0]}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %+v, want %+v", got, want)
	}
}

// TestHeartbeatsOfTheMonitors: the heartbeats are those of the
// conference's monitors (engine.Monitor, read from the stored document by
// the engine), in order; none without monitors.
func TestHeartbeatsOfTheMonitors(t *testing.T) {
	c := engine.Conference{VCState: engine.VCState{Monitors: []engine.Monitor{{HeartbeatAt: 1780000000123}, {}, {HeartbeatAt: 42}}}}
	if got, want := heartbeats(c), []int64{1780000000123, 0, 42}; !slices.Equal(got, want) {
		t.Fatalf("heartbeats = %v, want %v", got, want)
	}
	if got := heartbeats(engine.Conference{}); len(got) != 0 {
		t.Fatalf("no monitors: %v", got)
	}
}
