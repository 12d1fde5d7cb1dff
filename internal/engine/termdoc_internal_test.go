package engine

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// goldenTerminals are the terminal documents vc's golden terminal
// replies stored (testdata/mts_replies_golden.txt: calls answered and
// offline, a cascade link, controls written, one rewritten as an older
// release stores it, at three releases).
func goldenTerminals(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "vc", "testdata", "mts_replies_golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	stored := false
	for sc.Scan() {
		if stored {
			out = append(out, sc.Text())
		}
		stored = strings.Contains(sc.Text(), " stored ")
	}
	if err := sc.Err(); err != nil || len(out) < 12 {
		t.Fatalf("%d stored terminals (%v)", len(out), err)
	}
	return out
}

// editedTerminals are terminal documents of other forms than the engine
// writes: members of other types (flags as text or floats, a number for
// a string, nulls), unknown vendor members, channels with members the
// type lacks or of another form, a document not in the map encoder's
// bytes.
var editedTerminals = []string{
	`{"mute":"1","silence":1.0,"online":" 1 ","rcv_volume":7.5,"snd_volume":null,"mix":true,"vmp":{"a":1},"dual":-0,"rec":1e0,"upload":"x"}`,
	`{"account":1001,"alias":12.5,"e164":null,"ip":["10.0.0.1"],"mt_id":4,"type":"7","bitrate":"2048","protocol":1.0,"call_mode":2.0,"account_type":"5"}`,
	`{"mt_id":"1","x_vendor":{"deep":[1,"two",null,{"k":false}]},"zz":"é\u2028<>&","_camera":{"state":0,"type":3,"speed":2},"_caller":5,"_rejoin":null}`,
	`{"mt_id":"2","v_snd_chn":[{"bitrate":"1024","chn_alias":"v1","chn_id":1,"cur_video_idx":2}],"v_rcv_chn":[{"chn_alias":"r","chn_id":"2","chn_label":1.0,"x":1},7,null],"a_snd_chn":{"chn_id":1},"a_rcv_chn":null,"dv_snd_chn":[],"dv_rcv_chn":"none"}`,
	`{ "mt_id" : "3",   "mute": 1, "alias":"\u0041b", "online" :0 }`,
	`{"mt_id":"5","mute":0,"mute":"1"}`,
	`{"_videos":[{"video_alise":"cam","video_idx":1},{"video_idx":"2"}],"mt_id":"6","v_snd_chn":[{"bitrate":1024,"chn_alias":"vsndchn1","chn_id":1,"chn_label":0,"cur_video_idx":1,"format":5,"resolution":35}]}`,
	`null`,
}

// TestTermDocKeepsStoredBytes: every stored terminal document, golden or
// hand-edited, is written back as the map document wrote it (its own
// bytes when they are the map encoder's), and the readers read it as the
// map readers did (record.Int, record.Str, the strict identity reads, the
// channel lists).
func TestTermDocKeepsStoredBytes(t *testing.T) {
	docs := append(append(goldenTerminals(t), storedTerminals...), editedTerminals...)
	canonical := 0 // documents in the map encoder's bytes: written back in their own
	for _, data := range docs {
		tm, err := DecodeTerminal(store.Record{Data: []byte(data)})
		if err != nil {
			t.Fatal(err)
		}
		want := mapRoundTrip(t, data)
		got, err := encodeTerminal(tm)
		if err != nil || string(got) != want {
			t.Fatalf("%s\n written back as %s (%v)\n want %s", data, got, err, want)
		}
		if canonical++; want != data {
			canonical--
		}
		m, _ := shape.Decode([]byte(data))
		sameReads(t, data, tm, m)
	}
	if canonical < len(docs)-len(editedTerminals) {
		t.Fatalf("%d of %d documents in the map encoder's bytes", canonical, len(docs))
	}
}

// sameReads checks tm's readers against the map document m's.
func sameReads(t *testing.T, data string, tm Terminal, m map[string]any) {
	t.Helper()
	ints := map[string]int{"account_type": tm.AccountType(), "type": tm.Type(), "protocol": tm.Protocol(),
		"bitrate": tm.Bitrate(), "call_mode": tm.CallMode(), "online": tm.Online(), "silence": tm.Silence(),
		"mute": tm.Mute(), "poll": tm.Poll(), "dual": tm.Dual(), "mix": tm.Mix(), "vmp": tm.VMP(),
		"inspection": tm.Inspection(), "rec": tm.Recorded(), "upload": tm.Upload(), "rcv_volume": tm.RcvVolume(),
		"snd_volume": tm.SndVolume()}
	for k, got := range ints {
		if want := record.Int(m, k); got != want {
			t.Errorf("%s: %s reads %d, the map %d", data, k, got, want)
		}
	}
	strs := map[string]string{"account": tm.Account(), "alias": tm.Alias(), "e164": tm.E164(), "ip": tm.IP(), "mt_id": tm.MtIDText()}
	for k, got := range strs {
		if want := record.Str(m, k); got != want {
			t.Errorf("%s: %s reads %q, the map %q", data, k, got, want)
		}
	}
	n, ok := tm.MuteOK()
	if wn, wok := record.IntOK(m["mute"]); n != wn || ok != wok {
		t.Errorf("%s: mute reads %d %v, the map %d %v", data, n, ok, wn, wok)
	}
	strict := [...][2]any{{tm.MtID(), str(m["mt_id"])}, {tm.Doc.E164.Value, str(m["e164"])}, {tm.Doc.IP.Value, str(m["ip"])},
		{tm.Doc.Alias.Value, str(m["alias"])}, {tm.Doc.Type.Value, num(m["type"])}, {tm.Doc.AccountType.Value, num(m["account_type"])},
		{tm.Doc.Caller.Value, str(m[DocCaller])}, {tm.Doc.Rejoin.Value, str(m[DocRejoin])}}
	for i, s := range strict {
		if s[0] != s[1] {
			t.Errorf("%s: strict read %d is %v, the map's %v", data, i, s[0], s[1])
		}
	}
	for _, k := range channelKeys {
		l, _ := m[k].([]any)
		want := make([]StoredChannel, len(l))
		for i, e := range l {
			record.Member(e, &want[i])
		}
		if got := tm.Channels(k); len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s reads %+v, the map %+v", data, k, got, want)
		}
		var typed []channel
		if !record.Member(m[k], &typed) {
			typed = nil
		}
		if got := tm.Doc.channelsOf(k); !reflect.DeepEqual(got, typed) {
			t.Errorf("%s: %s as channels %+v, the map %+v", data, k, got, typed)
		}
	}
}

// A field written over a kept member of its name wins, as a map write
// replaced the member; the other kept members stay.
func TestTermDocWriteOverKept(t *testing.T) {
	tm, err := DecodeTerminal(store.Record{Data: []byte(`{"mt_id":"1","mute":"1","v_snd_chn":7,"x":[1]}`)})
	if err != nil {
		t.Fatal(err)
	}
	tm.Doc.Mute = model.Some(0)
	tm.Doc.setChannelList("v_snd_chn", []channel{})
	got, err := encodeTerminal(tm)
	if want := `{"mt_id":"1","mute":0,"v_snd_chn":[],"x":[1]}`; err != nil || string(got) != want {
		t.Fatalf("written as %s (%v), want %s", got, err, want)
	}
	if tm.Mute() != 0 {
		t.Fatalf("mute reads %d after the write", tm.Mute())
	}
}

// TermDoc declares every member of the terminal details reply (the
// catalogue's model.VCConfsMtsGetReply), the list's being among them.
func TestTermDocDeclaresTheReplyMembers(t *testing.T) {
	names := func(ty reflect.Type) []string {
		var out []string
		for i := range ty.NumField() {
			if n, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ","); n != "-" {
				out = append(out, n)
			}
		}
		return out
	}
	have := names(reflect.TypeFor[TermDoc]())
	for _, ty := range []reflect.Type{reflect.TypeFor[model.VCConfsMtsGetReply](), reflect.TypeFor[model.VCConfsMtsListReplyMt]()} {
		for _, n := range names(ty) {
			if !slices.Contains(have, n) {
				t.Errorf("%s: member %s is no field of TermDoc", ty.Name(), n)
			}
		}
	}
}

// BenchmarkTerminalDecode reads an online terminal's stored document (a
// golden one, with its channels) as Get and List do, beside the map
// decode the map document took before its own members were split out.
func BenchmarkTerminalDecode(b *testing.B) {
	data := []byte(`{"_attempts":1,"_chase":false,"_outcome":0,"a_rcv_chn":[{"chn_alias":"arcvchn1","chn_id":1,"chn_label":0}],"a_snd_chn":[{"chn_alias":"asndchn1","chn_id":1,"chn_label":0}],"account":"10.9.0.1","account_type":7,"alias":"10.9.0.1","bitrate":1024,"call_mode":2,"dual":1,"dv_rcv_chn":[{"bitrate":1024,"chn_alias":"dvrcvchn1","chn_id":1,"chn_label":0,"format":5,"resolution":35}],"dv_snd_chn":[{"bitrate":1024,"chn_alias":"dvsndchn1","chn_id":1,"chn_label":0,"format":5,"resolution":35}],"e164":"","inspection":0,"ip":"10.9.0.1","mix":1,"mt_id":"1","mute":1,"online":1,"poll":0,"protocol":0,"rcv_volume":15,"rec":0,"silence":0,"snd_volume":15,"type":1,"upload":0,"v_rcv_chn":[{"bitrate":1024,"chn_alias":"vrcvchn1","chn_id":1,"chn_label":0,"format":5,"resolution":35}],"v_snd_chn":[{"bitrate":1024,"chn_alias":"vsndchn1","chn_id":1,"chn_label":0,"cur_video_idx":0,"format":5,"resolution":35}],"vmp":0}`)
	b.Run("TermDoc", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := DecodeTerminal(store.Record{Data: data}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := shape.Decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
