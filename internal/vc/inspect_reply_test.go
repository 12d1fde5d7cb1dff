package vc

import (
	"encoding/json"
	"testing"

	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// TestInspectionRepliesKeepTheirBytes: the typed replies of the two
// viewing lists write what the projection of the stored viewings onto
// the endpoints' reply schemas wrote before they were typed.
func TestInspectionRepliesKeepTheirBytes(t *testing.T) {
	view := func(mode, srcType int, src, dst string, srcChn, dstChn int) viewing {
		return viewing{Mode: mode,
			Src: model.VCConfsInspectionChannelsListReplyInspectionSrc{Type: srcType, MtID: src, MtChnIdx: srcChn},
			Dst: model.VCConfsInspectionChannelsListReplyInspectionDst{MtID: dst, MtChnIdx: dstChn}}
	}
	for name, vs := range map[string][]viewing{
		"none":    nil,
		"empty":   {},
		"several": {view(1, 1, "2", "1", 0, 0), view(2, 2, "1", "3", 0, 1), view(1, 1, "<4&>", "\u2028", 3, 2)},
	} {
		var stored any // as the map document held the member
		if vs != nil {
			stored = record.Stored(vs)
		}
		for ep, reply := range map[string]interface{ Wire() wire.Object }{
			"vc.confs.inspections.list":         inspectionsReply(vs),
			"vc.confs.inspection_channels.list": inspectionChannelsReply(vs),
		} {
			e, ok := catalog.Lookup(ep)
			if !ok {
				t.Fatalf("%s: not in the catalogue", ep)
			}
			want, err := json.Marshal(shape.Project(wire.Object{"inspections": stored}, e.Reply))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(reply.Wire())
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s, %s:\n got %s\nwant %s", name, ep, got, want)
			}
		}
	}
}
