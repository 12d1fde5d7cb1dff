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
	if s := strOf(p.Doc, p.Doc.Prgalias, "prgalias"); s != "" {
		return s
	}
	return strOf(p.Doc, p.Doc.Name, "name")
}

// CreateTime is when the recording began, as UNIX seconds.
func (p Program) CreateTime() int64 {
	if p.Doc.has(p.Doc.Createtime.Set, "createtime") {
		return i64Of(p.Doc, p.Doc.Createtime, "createtime")
	}
	if t, err := record.ParseTime(strOf(p.Doc, p.Doc.StartTime, "start_time")); err == nil {
		return t.Unix()
	}
	return p.Rec.CreatedAt.Unix()
}

// Published tells whether the program is published (vc's programs are
// published when their recording's publish_mode said so).
func (p Program) Published() bool {
	if p.Doc.has(p.Doc.Prgstate.Set, "prgstate") {
		return intOf(p.Doc, p.Doc.Prgstate, "prgstate") == 1
	}
	return intOf(p.Doc, p.Doc.PublishMode, "publish_mode") == 1
}

// IssueTime is when the program was published (UNIX seconds), 0 if not.
func (p Program) IssueTime() int64 {
	if p.Doc.has(p.Doc.Prgstate.Set, "prgstate") {
		return i64Of(p.Doc, p.Doc.Issuetime, "issuetime")
	}
	if p.Published() {
		if t, err := record.ParseTime(strOf(p.Doc, p.Doc.CreateTime, "create_time")); err == nil {
			return t.Unix()
		}
	}
	return 0
}

// VRSMoid is the recording server that recorded the program.
func (p Program) VRSMoid() string {
	if s := strOf(p.Doc, p.Doc.Vrsmoid, "vrsmoid"); s != "" {
		return s
	}
	return strOf(p.Doc, p.Doc.VrsID, "vrs_id")
}

// View is a program as vrs.program.list shows it at now; ip is the
// recording server's address as an integer.
func View(p Program, now time.Time, ip int64) model.VRSProgramListReplyPrginfoItem {
	length, size := p.Length(now), int(p.Size(now))
	files := Files(p)
	detail := make([]model.VRSProgramListReplyPrginfoItemPrgdetailItem, 0, len(files))
	streams := 1
	d := p.Doc
	if intOf(d, d.DualStream, "dual_stream") == 1 {
		streams = 2
	}
	for i, f := range files {
		typ, rel := f.Prgtype, f.Relativepath
		detail = append(detail, model.VRSProgramListReplyPrginfoItemPrgdetailItem{
			Prgid: f.Prgid, Prggindex: i, Prgname: p.Alias() + "." + typ, Prgtype: typ,
			IP: int(ip), Relativepath: rel, Prgsize: size, Prgduration: length, Prgvideostreamcount: streams,
			Vodnum: intOf(d, d.Vodnum, "vodnum"), Downloadnum: intOf(d, d.Downloadnum, "downloadnum"),
		})
	}
	watermark := intOf(d, d.Prgwatermark, "prgwatermark")
	if !d.has(d.Prgwatermark.Set, "prgwatermark") {
		watermark = intOf(d, d.Watermark, "watermark")
	}
	return model.VRSProgramListReplyPrginfoItem{
		Prggid: p.GID(), Prgalias: p.Alias(), Createtime: int(p.CreateTime()), Issuetime: int(p.IssueTime()),
		Prgstate: boolInt(p.Published()), Prgencmode: orOne(d, d.Prgencmode, "prgencmode"), Prgauthmode: orOne(d, d.Prgauthmode, "prgauthmode"),
		Prgwatermark: watermark, Prgskid: strOf(d, d.Prgskid, "prgskid"), Prgdesc: strOf(d, d.Prgdesc, "prgdesc"),
		Prgallduration: length, Prgallsize: size, Streamjsonpath: p.StreamJSONPath(),
		Vrsmoid: p.VRSMoid(), Userdomainmoid: p.Rec.DomainMoid, Prgdetail: detail,
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// orOne reads an integer member, 1 when it is absent, 0 or not a number.
func orOne(d Doc, o model.Opt[int], name string) int {
	if n := intOf(d, o, name); n != 0 {
		return n
	}
	return 1
}
