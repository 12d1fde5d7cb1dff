package engine

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
)

// TestListAsReadsAsTheMapRead: ListAs (mc's booked list) reads a stored document
// into its item as the map document read it (record.Member of the decoded
// document): the golden creations' documents, and hand-edited ones with
// members of other forms.
func TestListAsReadsAsTheMapRead(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "mc", "testdata", "conf_stored.golden"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if _, doc, ok := strings.Cut(sc.Text(), " stored: "); ok {
			docs = append(docs, doc)
		}
	}
	docs = append(docs,
		`{"name":"n","bitrate":"2048","duration":1.5,"max_join_mt":8,"creator":{"account":"a","x":1},"start_time":20260301,"end_time":"2026-03-01T10:00:00+00:00"}`,
		`{"name":null,"mute":true,"creator":"x","password":"p\u00e9","conf_id":"1","chairman_mt_id":"2","vc_mix":{"mode":1}}`,
		`{"name":"a","name":"b","invited_mt_num":-0}`,
	)
	for _, data := range docs {
		m, err := shape.Decode([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		var want model.MCBookedConfsListReplyBookedConf
		record.Member(m, &want)
		b, err := readAs(store.Record{ID: "1", Data: []byte(data)}, bookedStart)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(b.Doc, want) {
			t.Errorf("%s\nread %+v\nwant %+v", data, b.Doc, want)
		}
	}
	if _, err := readAs(store.Record{Data: []byte(`{"name":`)}, bookedStart); err == nil {
		t.Error("a document that is not JSON read")
	}
}

// BenchmarkListAsItem compares reading one stored booked conference into
// the list's item through the map document (shape.Decode, record.Member:
// what the list did, the engine's own members' split aside) and straight
// from its bytes (readAs).
func BenchmarkListAsItem(b *testing.B) {
	data := []byte(`{"auto_end":0,"bitrate":2048,"call_interval":20,"call_mode":2,"call_times":0,"closed_conf":0,"conf_id":"1110000","conf_type":0,"create_type":1,"creator":{"account":"a","account_type":1,"mobile":"","name":"admin","telephone":""},"dual_mode":0,"duration":60,"encrypted_type":0,"end_time":"2026-03-01T11:00:00+00:00","invite_members":[{"account":"1000001","account_type":5,"bitrate":2048,"name":"a","protocol":0}],"invited_mt_num":1,"max_join_mt":8,"meeting_id":"m","meeting_room_name":"","mix_enable":0,"mute":0,"name":"booked","need_password":0,"one_reforming":0,"platform_id":"p","poll_enable":0,"preoccupy_resource":0,"public_conf":0,"safe_conf":0,"silence":0,"start_time":"2026-03-01T10:00:00+00:00","user_domain_moid":"d","user_domain_name":"default","video_formats":[{"bitrate":2048,"format":4,"frame":30,"resolution":12}],"video_quality":0,"vmp_enable":0,"voice_activity_detection":0}`)
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			m, err := shape.Decode(data)
			if err != nil {
				b.Fatal(err)
			}
			var it model.MCBookedConfsListReplyBookedConf
			record.Member(m, &it)
		}
	})
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := readAs(store.Record{ID: "1", Data: data}, bookedStart); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func bookedStart(it *model.MCBookedConfsListReplyBookedConf) string { return it.StartTime }
