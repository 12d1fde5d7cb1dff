package program

import (
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
		if strings.EqualFold(record.Str(f, "prgtype"), "mp4") {
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
func View(p Program, now time.Time, ip int64) map[string]any {
	length, size := p.Length(now), p.Size(now)
	files := Files(p)
	detail := make([]any, 0, len(files))
	streams := 1
	if record.Int(p.Doc, "dual_stream") == 1 {
		streams = 2
	}
	for i, f := range files {
		typ := record.Str(f, "prgtype")
		rel := record.Str(f, "relativepath")
		detail = append(detail, map[string]any{
			"prgid": record.Int(f, "prgid"), "prggindex": i, "prgname": p.Alias() + "." + typ, "prgtype": typ,
			"ip": ip, "relativepath": rel, "prgsize": size, "prgduration": length, "prgvideostreamcount": streams,
			"presenter": "", "vodnum": record.Int(p.Doc, "vodnum"), "coverpath": "", "prgtab": []any{},
			"covername": "", "downloadnum": record.Int(p.Doc, "downloadnum"),
		})
	}
	watermark := record.Int(p.Doc, "prgwatermark")
	if _, ok := p.Doc["prgwatermark"]; !ok {
		watermark = record.Int(p.Doc, "watermark")
	}
	return map[string]any{
		"prggid": p.GID(), "prgalias": p.Alias(), "createtime": p.CreateTime(), "issuetime": p.IssueTime(),
		"prgstate": boolInt(p.Published()), "prgencmode": orInt(p.Doc, "prgencmode", 1), "prgauthmode": orInt(p.Doc, "prgauthmode", 1),
		"prgwatermark": watermark, "prgskid": record.Str(p.Doc, "prgskid"), "prgdesc": record.Str(p.Doc, "prgdesc"),
		"prgallduration": length, "prgallsize": size, "streamjsonpath": record.Str(p.Doc, "streamjsonpath"),
		"vrsmoid": p.VRSMoid(), "userdomainmoid": p.Rec.DomainMoid, "prgdetail": detail,
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
