package vc

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/golden"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

var updateProgramGolden = flag.Bool("update-program-golden", false, "rewrite testdata/program_golden.txt with the bytes written now")

// The program a stopped recording leaves (programSave) has the bytes of
// testdata/program_golden.txt, captured from the map document before it
// was typed: without media, with one file, with parts (a gap among
// them, and all gaps), of a terminal recording, of a conference without
// a name or bit rate; a live broadcast leaves none, and a second save of
// the same recording keeps the first.
func TestProgramSaveKeepsItsBytes(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := &Module{st: st}
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 0, time.FixedZone("", 8*3600))
	conf := engine.Conference{Rec: store.Record{Kind: "conf", ID: "1234567", DomainMoid: "d1"},
		Doc: confOfDoc(t, map[string]any{"name": "vc<&>\u2028", "bitrate": 1024}).Doc}
	bare := engine.Conference{Rec: store.Record{Kind: "conf", ID: "7654321", DomainMoid: "d1"}}
	rec := func(id string, mode int, members ...string) engine.Recording {
		return engine.Recording{RecID: id, VideoName: "rec-" + id, RecorderType: 1 + min(len(members), 1), VrsID: "vrs-1",
			Members: members, State: 1, StartedAt: t0.UnixMilli(), PausedMs: 20000, PublishMode: 1, Watermark: 1,
			Anonymous: 0, RecorderMode: mode, MainStream: 1, DualStream: 1}
	}
	part := func(path string, bytes int64, ms int) media.RecordInfo {
		info := media.RecordInfo{Path: path, Bytes: bytes, Duration: time.Duration(ms) * time.Millisecond}
		if bytes > 0 {
			info.Width, info.Height, info.VideoCodec, info.AudioCodec, info.Container = 1280, 720, "vp8", "opus", "webm"
		}
		return info
	}
	end := t0.Add(5 * time.Minute)
	for _, tc := range []struct {
		id    string
		c     engine.Conference
		rc    engine.Recording
		parts []media.RecordInfo
	}{
		{"601", conf, rec("601", 1), nil},
		{"602", conf, rec("602", 3, "1", "2"), []media.RecordInfo{part("d1/602.webm", 123456, 279400)}},
		{"603", conf, rec("603", 1), []media.RecordInfo{part("d1/603.webm", 0, 1500), part("d1/603-2.webm", 777, 60000), part("d1/603-3.webm", 5, 1000)}},
		{"604", conf, rec("604", 1), []media.RecordInfo{part("d1/604.webm", 0, 1500), part("d1/604-2.webm", 0, 2500)}},
		{"605", bare, rec("605", 1, "9"), nil},
		{"606", conf, rec("606", recLive), []media.RecordInfo{part("d1/606.webm", 10, 1000)}},
	} {
		if err := m.programSave(ctx, tc.c, tc.rc, end, tc.parts); err != nil {
			t.Fatal(err)
		}
	}
	// A second save (a stop retried, or another node) changes nothing.
	if err := m.programSave(ctx, conf, rec("601", 1, "5"), end.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, id := range []string{"601", "602", "603", "604", "605", "606"} {
		r, err := st.GetRecord(ctx, KindProgram, "d1", id)
		if id == "606" {
			if err == nil {
				t.Errorf("a live broadcast left a program: %s", r.Data)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got.WriteString(id + " " + r.State + " " + string(r.Data) + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "program_golden.txt"), got.String(), *updateProgramGolden)
}
