package program

import (
	"github.com/confer-platform/confer/internal/model"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/record"
)

// Type masks of the program filters (reference 09 prgtypemask): 1 ASF
// (the recording; a wmv file is ASF too), 2 MP4 (after transcoding).
const (
	TypeASF = 1
	TypeMP4 = 2
)

// Types returns the type mask of a program's files.
func Types(p Program) int {
	m := 0
	for _, f := range Files(p) {
		if strings.EqualFold(f.Prgtype, "mp4") {
			m |= TypeMP4
		} else {
			m |= TypeASF
		}
	}
	return m
}

// Alias returns the display name (vc's programs call it name).
func (p Program) Alias() string {
	if s := record.Str(p.Doc, "prgalias"); s != "" {
		return s
	}
	return record.Str(p.Doc, "name")
}

// CreateTime is when the recording began, as UNIX seconds.
func (p Program) CreateTime() int64 {
	if _, ok := p.Doc["createtime"]; ok {
		return i64(p.Doc["createtime"])
	}
	if t, err := record.ParseTime(record.Str(p.Doc, "start_time")); err == nil {
		return t.Unix()
	}
	return p.Rec.CreatedAt.Unix()
}

// Published tells whether the program is published (vc's programs are
// published when their recording's publish_mode said so).
func (p Program) Published() bool {
	if _, ok := p.Doc["prgstate"]; ok {
		return record.Int(p.Doc, "prgstate") == 1
	}
	return record.Int(p.Doc, "publish_mode") == 1
}

// IssueTime is when the program was published (UNIX seconds), 0 if not.
func (p Program) IssueTime() int64 {
	if _, ok := p.Doc["prgstate"]; ok {
		return i64(p.Doc["issuetime"])
	}
	if p.Published() {
		if t, err := record.ParseTime(record.Str(p.Doc, "create_time")); err == nil {
			return t.Unix()
		}
	}
	return 0
}

// VRSMoid is the recording server that recorded the program.
func (p Program) VRSMoid() string {
	if s := record.Str(p.Doc, "vrsmoid"); s != "" {
		return s
	}
	return record.Str(p.Doc, "vrs_id")
}

// View is a program as vrs.program.list shows it at now; ip is the
// recording server's address as an integer.
func View(p Program, now time.Time, ip int64) model.VRSProgramListReplyPrginfoItem {
	length, size := p.Length(now), int(p.Size(now))
	files := Files(p)
	detail := make([]model.VRSProgramListReplyPrginfoItemPrgdetailItem, 0, len(files))
	streams := 1
	if record.Int(p.Doc, "dual_stream") == 1 {
		streams = 2
	}
	for i, f := range files {
		typ, rel := f.Prgtype, f.Relativepath
		detail = append(detail, model.VRSProgramListReplyPrginfoItemPrgdetailItem{
			Prgid: f.Prgid, Prggindex: i, Prgname: p.Alias() + "." + typ, Prgtype: typ,
			IP: int(ip), Relativepath: rel, Prgsize: size, Prgduration: length, Prgvideostreamcount: streams,
			Vodnum: record.Int(p.Doc, "vodnum"), Downloadnum: record.Int(p.Doc, "downloadnum"),
		})
	}
	watermark := record.Int(p.Doc, "prgwatermark")
	if _, ok := p.Doc["prgwatermark"]; !ok {
		watermark = record.Int(p.Doc, "watermark")
	}
	return model.VRSProgramListReplyPrginfoItem{
		Prggid: p.GID(), Prgalias: p.Alias(), Createtime: int(p.CreateTime()), Issuetime: int(p.IssueTime()),
		Prgstate: boolInt(p.Published()), Prgencmode: orInt(p.Doc, "prgencmode", 1), Prgauthmode: orInt(p.Doc, "prgauthmode", 1),
		Prgwatermark: watermark, Prgskid: record.Str(p.Doc, "prgskid"), Prgdesc: record.Str(p.Doc, "prgdesc"),
		Prgallduration: length, Prgallsize: size, Streamjsonpath: record.Str(p.Doc, "streamjsonpath"),
		Vrsmoid: p.VRSMoid(), Userdomainmoid: p.Rec.DomainMoid, Prgdetail: detail,
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func orInt(doc map[string]any, key string, def int) int {
	if n, ok := record.IntOK(doc[key]); ok && n != 0 {
		return n
	}
	return def
}
