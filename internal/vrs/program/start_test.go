package program

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// Start writes the bytes the map document it replaced wrote (the map is
// kept here as the reference), with and without a recording room.
func TestStartWritesTheStoredBytes(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 6, 10, 0, 0, 123e6, time.FixedZone("", 8*3600))
	for _, sp := range []Spec{
		{DomainMoid: "d1", OwnerMoid: "o", Alias: "a<&>", Desc: "x", Watermark: true, Publish: true, VRSMoid: "v", Source: "vc"},
		{DomainMoid: "d1", Alias: "room", Bitrate: 1024, Suffix: "wmv", Live: true, DualStream: true, Source: "recroom",
			Room: &RoomSource{RoomID: 3, ConfID: "1234567", ConfName: "c"}},
	} {
		p, err := Start(ctx, st, now, sp)
		if err != nil {
			t.Fatal(err)
		}
		gid := int64(p.GID())
		bitrate, suffix := sp.Bitrate, sp.Suffix
		if bitrate == 0 {
			bitrate = DefaultBitrate
		}
		if suffix == "" {
			suffix = "asf"
		}
		doc := map[string]any{
			"id": gid, "name": sp.Alias, "vrs_id": sp.VRSMoid, "start_time": record.FormatTime(now),
			"prggid": gid, "prgalias": sp.Alias, "prgdesc": sp.Desc, "createtime": now.Unix(), "issuetime": 0,
			"prgstate": 0, "prgencmode": 1, "prgauthmode": 1, "prgwatermark": flag(sp.Watermark), "prgskid": "",
			"streamjsonpath": "", "vrsmoid": sp.VRSMoid, "userdomainmoid": sp.DomainMoid, "folderid": 0,
			"bitrate": bitrate, "suffix": suffix, "recorded_ms": 0, "segment_ms": now.UnixMilli(),
			"publish": flag(sp.Publish), "live": flag(sp.Live), "dual_stream": flag(sp.DualStream), "source": sp.Source,
			"files":  []any{FileEntry{Prgid: int(gid), Prgtype: suffix, Relativepath: "/uploadmedia/"}},
			"vodnum": 0, "downloadnum": 0,
		}
		if r := sp.Room; r != nil {
			doc["roomid"], doc["conf_id"], doc["conf_name"] = r.RoomID, r.ConfID, r.ConfName
		}
		want, err := shape.Encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		if string(p.Rec.Data) != string(want) {
			t.Fatalf("stored\n%s\nwant\n%s", p.Rec.Data, want)
		}
	}
}
