package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// storedTerminals are terminal documents as the engine stores them (a
// new terminal, a called one, a cascade link and uplink, a participant
// that joined on its own, one with channels and camera inputs) and of
// other forms (own members of another type, unknown members, escapes):
// each is written back as it was read.
var storedTerminals = []string{
	`{}`,
	`{"mt_id":"7"}`,
	`{"_attempts":0,"_chase":false,"account":"1001","account_type":1,"alias":"1001","bitrate":2048,"call_mode":2,"dual":0,"e164":"","inspection":0,"ip":"","mix":0,"mt_id":"1","mute":0,"online":0,"poll":0,"protocol":1,"rcv_volume":15,"rec":0,"silence":0,"snd_volume":15,"type":1,"upload":0,"vmp":0}`,
	`{"_attempts":3,"_chase":false,"_occupy_code":20426,"_occupy_confname":"conf \u003c3002\u003e \u0026 é","_outcome":2,"_redial":true,"account":"a","alias":"b","mt_id":"2","online":0}`,
	`{"_attempts":1,"_cascade_conf":"1110001","_chase":false,"_outcome":0,"e164":"1110001","mt_id":"3","type":7}`,
	`{"_attempts":0,"_chase":false,"_uplink":"1110000","alias":"sup","e164":"1110000","mt_id":"4","type":8}`,
	`{"_lost":true,"_participant":"whip","_rejoin":"k1","_self_mute":true,"mt_id":"5","mute":1,"x_future":{"a":[1,2.5,null],"b":"é\u2028"}}`,
	`{"_attempts":1.0,"_cascade_conf":7,"_chase":0,"_lost":"yes","_occupy_code":"20426","_outcome":-0,"_participant":null,"_redial":"true","_self_mute":1,"_uplink":false,"mt_id":"6"}`,
	`{"_attempts":12345678901234567890,"_outcome":1e2,"mt_id":"8"}`,
	`{"_caller":"sip:x@y","_participant":"","_self_mute":false,"mt_id":"10"}`,
	`{"_camera":{"state":0,"type":3},"_videos":[{"video_alise":"cam","video_idx":1}],"mt_id":"9","v_rcv_chn":[],"v_snd_chn":[{"bitrate":1024,"chn_id":1,"cur_video_idx":0,"format":5}]}`,
}

// TestTerminalKeepsTheStoredBytes: a terminal document decoded into its
// own members (Own) and the others (Doc) and written back unchanged gives
// the bytes it was read from; an own member of the engine's type is a
// field, not in Doc; own members set are written and read back as fields,
// and unset ones are no members.
func TestTerminalKeepsTheStoredBytes(t *testing.T) {
	for _, data := range storedTerminals {
		tm, err := DecodeTerminal(store.Record{Data: []byte(data)})
		if err != nil {
			t.Fatal(err)
		}
		for k, raw := range tm.Doc.Extra { // kept: of another form than its field's
			if _, own, _ := decodeTermDoc([]byte(`{"` + k + `":` + string(raw) + `}`)); own != (TerminalOwn{}) {
				t.Fatalf("%s: own member %s kept in Doc: %+v", data, k, own)
			}
		}
		got, err := encodeTerminal(tm)
		if err != nil || string(got) != data {
			t.Fatalf("%s written back as %s (%v)", data, got, err)
		}
		if again, _ := encodeTerminal(tm); string(again) != data {
			t.Fatalf("%s: a second write gives %s", data, again)
		}
		set := TerminalOwn{Attempts: model.Some(4), CascadeConf: model.Some("1110009"), Chase: model.Some(false),
			Lost: model.Some(true), OccupyCode: model.Some(20426), OccupyConfName: model.Some("c \u003c"), Outcome: model.Some(0),
			Participant: model.Some("join"), Redial: model.Some(true), SelfMute: model.Some(false), Uplink: model.Some("")}
		for _, own := range []TerminalOwn{set, {}} {
			tm.Own = own
			got, err := encodeTerminal(tm)
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeTerminal(store.Record{Data: got})
			if err != nil || !reflect.DeepEqual(back.Own, own) {
				t.Fatalf("%s: %+v written as %s, read back %+v (%v)", data, own, got, back.Own, err)
			}
			want := tm.Doc.clone() // an own member set wins over a kept one of its name
			if own == set {
				for _, k := range ownNames() {
					delete(want.Extra, k)
				}
			}
			if len(want.Extra) == 0 {
				want.Extra = nil
			}
			if !reflect.DeepEqual(back.Doc, want) {
				t.Fatalf("%s: the other members written as %s, read back %+v, want %+v", data, got, back.Doc, want)
			}
		}
	}
}

// TestArrivalKeepsTheStoredBytes: a terminal in the call from the start
// (a participant, a caller, a subordinate's uplink) is stored as the
// members map the engine built before arrival was typed.
func TestArrivalKeepsTheStoredBytes(t *testing.T) {
	e := &Engine{clk: clock.NewFake(time.Date(2026, 12, 6, 13, 0, 0, 0, time.UTC))}
	c := Conf{DomainMoid: "d", ConfID: "1110000", Bitrate: 2048}
	for _, tc := range []struct {
		a      arrival
		fields map[string]any
	}{
		{arrival{Account: "ann", AccountType: 5, Protocol: 1, Type: 1, Alias: "Ann", E164: "123", IP: "10.0.0.1", Participant: model.Some("join")},
			map[string]any{"account": "ann", "account_type": 5, "protocol": 1, "type": 1, "alias": "Ann", "e164": "123", "ip": "10.0.0.1", DocParticipant: "join"}},
		{arrival{Account: "x", Type: 1, Alias: "x", Participant: model.Some(""), KeyField: DocRejoin, Key: "k1"},
			map[string]any{"account": "x", "account_type": 0, "protocol": 0, "type": 1, "alias": "x", "e164": "", "ip": "", DocParticipant: "", DocRejoin: "k1"}},
		{arrival{Account: "sip:b", Protocol: 1, Type: 1, Alias: "b", Participant: model.Some("sip"), KeyField: DocCaller, Key: "sip:b@h"},
			map[string]any{"account": "sip:b", "account_type": 0, "protocol": 1, "type": 1, "alias": "b", "e164": "", "ip": "", DocParticipant: "sip", DocCaller: "sip:b@h"}},
		{arrival{Account: "1110001", Type: TypeSuperior, Alias: "sup", E164: "1110001", Uplink: model.Some("1110001")},
			map[string]any{"account": "1110001", "account_type": 0, "protocol": 0, "type": TypeSuperior, "alias": "sup", "e164": "1110001", DocUplink: "1110001"}},
	} {
		doc := map[string]any{
			"mt_id": "3", "bitrate": c.Bitrate, "call_mode": CallManual, "online": 1, "ip": "",
			"silence": 0, "mute": 0, "dual": 0, "mix": 0, "vmp": 0, "rec": 0, "poll": 0, "upload": 0, "inspection": 0,
			"rcv_volume": 15, "snd_volume": 15, "_attempts": 0, "_chase": false,
		}
		for k, v := range tc.fields {
			doc[k] = v
		}
		mapChannels(doc, c.Bitrate)
		want, _ := shape.Encode(doc)
		tm, err := e.onlineTerminal(c, "3", tc.a)
		if err != nil || string(tm.Rec.Data) != string(want) {
			t.Fatalf("%+v stored as %s, want %s (%v)", tc.a, tm.Rec.Data, want, err)
		}
		back := Terminal{Doc: TermDoc{MtID: model.Some("3")}}
		tc.a.apply(&back)
		data, _ := encodeTerminal(back)
		got, _ := shape.Decode(data)
		for k, v := range tc.fields {
			if fmt.Sprint(got[k]) != fmt.Sprint(v) {
				t.Fatalf("%+v applied %s as %v, want %v", tc.a, k, got[k], v)
			}
		}
	}
}

// An invitee's new terminal is stored with the bytes of the map document
// it was built as before it was typed (newTerminalOf).
func TestNewTerminalKeepsTheStoredBytes(t *testing.T) {
	now := time.Date(2026, 12, 6, 13, 0, 0, 0, time.UTC)
	c := Conf{DomainMoid: "d", ConfID: "1110000", Bitrate: 2048, CallMode: CallAutomatic}
	for _, m := range []Member{
		{Callee: media.Callee{Account: "ann<&>", AccountType: 5, Protocol: 1, Bitrate: 1024}, CallMode: CallManual, Chase: true},
		{Callee: media.Callee{Account: "bob"}, CallMode: -1},
	} {
		mode, bitrate := m.CallMode, m.Callee.Bitrate
		if mode < 0 {
			mode = c.CallMode
		}
		if bitrate == 0 {
			bitrate = c.Bitrate
		}
		want, _ := shape.Encode(map[string]any{
			"mt_id": "4", "account": m.Callee.Account, "account_type": m.Callee.AccountType,
			"protocol": m.Callee.Protocol, "bitrate": bitrate, "call_mode": mode, "online": 0,
			"type": 1, "alias": m.Callee.Account, "e164": "", "ip": "",
			"silence": 0, "mute": 0, "dual": 0, "mix": 0, "vmp": 0, "rec": 0, "poll": 0, "upload": 0, "inspection": 0,
			"rcv_volume": 15, "snd_volume": 15, "_attempts": 0, "_chase": m.Chase,
		})
		tm, err := newTerminal(c, m, "4", now)
		if err != nil || string(tm.Rec.Data) != string(want) {
			t.Fatalf("%+v stored as %s, want %s (%v)", m, tm.Rec.Data, want, err)
		}
		if tm.Account() != m.Callee.Account || tm.Own.Chase.Value != m.Chase || tm.Rec.State != StateIdle {
			t.Fatalf("%+v read back as %+v", m, tm)
		}
	}
}

// mapChannels is the simulation's channels as the map document held them
// before the document was typed (the bytes a typed one must keep).
func mapChannels(doc map[string]any, bitrate int) {
	s := simChannels(bitrate)
	doc["v_snd_chn"] = record.Stored(s.vSnd)
	doc["v_rcv_chn"] = record.Stored(s.vRcv)
	doc["dv_snd_chn"] = record.Stored(s.dvSnd)
	doc["dv_rcv_chn"] = record.Stored(s.dvRcv)
	doc["a_snd_chn"] = record.Stored(s.aSnd)
	doc["a_rcv_chn"] = record.Stored(s.aRcv)
}

// ownNames are the member names of TerminalOwn's fields.
func ownNames() []string {
	var out []string
	ty := reflect.TypeFor[TerminalOwn]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}
