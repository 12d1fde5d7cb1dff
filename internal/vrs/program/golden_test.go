package program

import (
	"bufio"
	"context"
	"encoding/json"
	goflag "flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

var update = goflag.Bool("update", false, "rewrite testdata/golden.txt with the bytes written now")

// golden collects the stored bytes of named steps and compares them with
// testdata/golden.txt (one "name bytes" line a step), or rewrites the
// file with -update.
type golden struct {
	t     *testing.T
	file  string
	names []string
	got   map[string]string
}

func newGolden(t *testing.T, file string) *golden {
	g := &golden{t: t, file: file, got: map[string]string{}}
	t.Cleanup(g.check)
	return g
}

func (g *golden) add(name string, data []byte) {
	g.t.Helper()
	if _, dup := g.got[name]; dup {
		g.t.Fatalf("golden step %s twice", name)
	}
	g.names = append(g.names, name)
	g.got[name] = string(data)
}

func (g *golden) check() {
	if g.t.Failed() {
		return
	}
	if *update {
		var b strings.Builder
		for _, n := range g.names {
			b.WriteString(n + " " + g.got[n] + "\n")
		}
		if err := os.MkdirAll(filepath.Dir(g.file), 0o755); err != nil {
			g.t.Fatal(err)
		}
		if err := os.WriteFile(g.file, []byte(b.String()), 0o644); err != nil {
			g.t.Fatal(err)
		}
		return
	}
	f, err := os.Open(g.file)
	if err != nil {
		g.t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	var order []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, data, _ := strings.Cut(sc.Text(), " ")
		want[name] = data
		order = append(order, name)
	}
	if strings.Join(order, ",") != strings.Join(g.names, ",") {
		g.t.Errorf("steps %v, golden %v", g.names, order)
	}
	for _, n := range g.names {
		if g.got[n] != want[n] {
			g.t.Errorf("%s: stored\n%s\nwant\n%s", n, g.got[n], want[n])
		}
	}
}

// The stored bytes of a program's document through every change the
// recording system makes to it, for the programs of both writers (a
// recording room's, Start; vc's, written when its recording stops) and
// for a document of a form neither writes now (a member of another type,
// a null, a member unknown to this release): each rewrite keeps the
// bytes of what it does not change (testdata/golden.txt, captured from
// the map document before it was typed).
func TestProgramDocumentsKeepTheirBytes(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g := newGolden(t, filepath.Join("testdata", "golden.txt"))
	t0 := time.Date(2026, 12, 6, 10, 0, 0, 123e6, time.FixedZone("", 8*3600))
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	save := func(name string, p *Program, now time.Time) {
		t.Helper()
		if err := Save(ctx, st, now, p); err != nil {
			t.Fatal(err)
		}
		back, err := Get(ctx, st, p.Rec.DomainMoid, p.GID())
		if err != nil {
			t.Fatal(err)
		}
		*p = back
		g.add(name, p.Rec.Data)
		g.add(name+"-reads", reads(t, *p, now))
	}

	// A recording room's program: start, pause, resume, live off, finish
	// (published), withdrawn and published again, folder moves,
	// transcoding, plays.
	room, err := Start(ctx, st, t0, Spec{DomainMoid: "d1", OwnerMoid: "o", Alias: "room<&>", Desc: "d", Bitrate: 1024,
		Watermark: true, Publish: true, Live: true, DualStream: true, VRSMoid: "vrs-1", Source: "recroom",
		Room: &RoomSource{RoomID: 3, ConfID: "1234567", ConfName: "c\u2028é"}})
	if err != nil {
		t.Fatal(err)
	}
	g.add("room-start", room.Rec.Data)
	g.add("room-start-reads", reads(t, room, at(5)))
	Pause(&room, at(10))
	save("room-pause", &room, at(10))
	Pause(&room, at(12))
	save("room-pause-again", &room, at(12))
	Resume(&room, at(20))
	save("room-resume", &room, at(20))
	Resume(&room, at(21))
	save("room-resume-again", &room, at(21))
	SetLive(&room, 0)
	save("room-live-off", &room, at(22))
	Finish(&room, at(35))
	save("room-finish", &room, at(35))
	SetPublished(&room, false, at(40))
	save("room-withdraw", &room, at(40))
	SetPublished(&room, true, at(41))
	save("room-publish", &room, at(41))
	SetFolder(&room, 4)
	save("room-folder", &room, at(42))
	SetFolder(&room, 0)
	save("room-ungroup", &room, at(43))
	transcode := func(p *Program, fileID int) {
		var files []FileEntry
		for _, f := range Files(*p) {
			if f.Prgtype != "mp4" {
				files = append(files, f)
			}
		}
		SetFiles(p, append(files, FileEntry{Prgid: fileID, Prgtype: "mp4", Relativepath: "/mp4file/"})...)
		SetStreamJSONPath(p, "/api/v2/vrs/upstream/"+p.VRSMoid()+"/mp4file/1/Readme.json")
		SetTranscoded(p, 3, 2)
	}
	transcode(&room, 900)
	save("room-transcode", &room, at(44))
	transcode(&room, 901)
	save("room-transcode-again", &room, at(45))
	CountPlay(&room)
	save("room-play", &room, at(46))
	CountPlay(&room)
	save("room-play-again", &room, at(47))

	// A room's program stopped before it was ever paused, unpublished.
	plain, err := Start(ctx, st, t0, Spec{DomainMoid: "d1", Alias: "plain", Source: "vc"})
	if err != nil {
		t.Fatal(err)
	}
	Finish(&plain, at(61))
	save("plain-finish", &plain, at(61))
	// Its file's figures (one part), then several parts with a gap.
	SetParts(&plain, plain.GID(), []FileInfo{{Rel: "d1/p.webm", Bytes: 4096, Duration: 61400 * time.Millisecond,
		Width: 640, Height: 360, VideoCodec: "vp8", AudioCodec: "opus", Container: "webm"}})
	save("plain-file", &plain, at(62))
	SetParts(&plain, plain.GID(), []FileInfo{{Rel: "d1/p-1.mkv", Duration: 2 * time.Second},
		{Rel: "d1/p-2.mkv", Bytes: 100, Duration: 30 * time.Second, Width: 1280, Height: 720, VideoCodec: "h264", AudioCodec: "opus", Container: "matroska"},
		{Rel: "d1/p-3.mkv", Bytes: 50, Duration: 29500 * time.Millisecond, Container: "matroska"}})
	save("plain-parts", &plain, at(63))
	CountPlay(&plain)
	save("plain-play", &plain, at(64))

	// vc's programs as vc writes them when a recording stops (without
	// media; with one file; with parts), then changed by the recording
	// system.
	vcDocs := []struct{ id, data string }{
		{"501", `{"anonymous":0,"bitrate":1024,"conf_id":"1234567","conf_name":"vc<&>","create_time":"2026-12-06T10:05:00+08:00","dual_stream":0,"duration":300,"id":501,"main_stream":1,"members":[],"name":"rec-a","publish_mode":0,"rec_id":"501","recorder_mode":1,"recorder_type":1,"size":38400000,"start_time":"2026-12-06T10:00:00+08:00","vrs_id":"vrs-1","watermark":1}`},
		{"502", `{"anonymous":1,"audio_codec":"opus","bitrate":2048,"conf_id":"1234567","conf_name":"vc","container":"webm","create_time":"2026-12-06T10:05:00+08:00","dual_stream":1,"duration":299,"duration_ms":299400,"file":"d1/502.webm","files":[{"prgid":502,"prgtype":"webm","relativepath":"/recordings/"}],"height":720,"id":502,"main_stream":1,"members":[{"mt_id":"1"},{"mt_id":"2"}],"name":"rec-b","publish_mode":1,"rec_id":"502","recorder_mode":3,"recorder_type":2,"size":123456,"start_time":"2026-12-06T10:00:00+08:00","suffix":"webm","video_codec":"vp8","vrs_id":"vrs-1","watermark":0,"width":1280}`},
		{"503", `{"anonymous":0,"audio_codec":"opus","bitrate":1024,"conf_id":"1234567","conf_name":"vc","container":"webm","create_time":"2026-12-06T10:05:00+08:00","dual_stream":0,"duration":62,"duration_ms":61500,"file":"d1/503-2.webm","files":[{"prgid":503,"prgtype":"webm","relativepath":"/recordings/"}],"height":360,"id":503,"main_stream":1,"members":[],"name":"rec-c","parts":[{"duration_ms":1500,"file":"d1/503.webm","gap":true,"size":0},{"duration_ms":60000,"file":"d1/503-2.webm","gap":false,"size":777}],"publish_mode":0,"rec_id":"503","recorder_mode":1,"recorder_type":1,"size":777,"start_time":"2026-12-06T10:00:00+08:00","suffix":"webm","video_codec":"vp8","vrs_id":"vrs-1","watermark":0,"width":640}`},
		// Of a form no writer writes now: id and vrs_id of other types, a
		// null name, a float, a member unknown to this release, a files
		// element with a member more and one less.
		{"504", `{"conf_name":null,"duration":1.5e1,"files":[{"extra":true,"prgid":504,"prgtype":"asf"},{"prgid":505,"prgtype":"mp4","relativepath":"/mp4file/"}],"id":"504","name":null,"size":"12","vodnum":"3","vrs_id":7,"x_old":{"a":[1,"b",null],"z":{}}}`},
	}
	for _, d := range vcDocs {
		if err := st.CreateRecord(ctx, store.Record{Kind: Kind, ID: d.id, DomainMoid: "d1", State: StateReady,
			Data: []byte(d.data), CreatedAt: t0, UpdatedAt: t0}); err != nil {
			t.Fatal(err)
		}
		p, err := Get(ctx, st, "d1", mustAtoi(t, d.id))
		if err != nil {
			t.Fatal(err)
		}
		save("vc-"+d.id+"-rewrite", &p, at(70))
		SetPublished(&p, true, at(71))
		save("vc-"+d.id+"-publish", &p, at(71))
		SetFolder(&p, 2)
		save("vc-"+d.id+"-folder", &p, at(72))
		CountPlay(&p)
		save("vc-"+d.id+"-play", &p, at(73))
		transcode(&p, 910)
		save("vc-"+d.id+"-transcode", &p, at(74))
		SetPublished(&p, false, at(75))
		save("vc-"+d.id+"-withdraw", &p, at(75))
	}
}

// reads is what the readers of a program make of it at now, as JSON.
func reads(t *testing.T, p Program, now time.Time) []byte {
	t.Helper()
	restype, style, transcoded := Transcoded(p)
	rel, relErr := p.Rel()
	b, err := json.Marshal(map[string]any{
		"view": View(p, now, 7), "paused": p.Paused(), "length_ms": p.LengthMs(now), "size": p.Size(now),
		"files": Files(p), "types": Types(p), "transcoded": []any{restype, style, transcoded}, "rel": rel, "rel_err": relErr != nil,
		"gid": p.GID(), "folder": p.Folder(), "suffix": p.Suffix(), "streamjsonpath": p.StreamJSONPath(), "vrsmoid": p.VRSMoid(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}
