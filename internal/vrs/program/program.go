// Package program keeps the programs of Confer's one recording system
// (reference 09 "获取节目列表"): every recording, whether a recording room
// of the vrs module or a conference recorder of vc made it, is a record of
// kind "vrs_program" in the user domain of the recording. Its length and
// size follow the clock while it records, so nothing has to be written
// every second (DESIGN principle 4).
//
// The record (store.Record):
//
//	Kind       "vrs_program"
//	ID         the program gid (prggid) in decimal, from the store counter
//	           "vc_recorder" that also numbers vc's rec_ids (a vc program's
//	           id is its rec_id), so the two sources never collide
//	DomainMoid the user domain of the recording (of the conference, for vc)
//	OwnerMoid  the account that started the recording ("" when unknown)
//	State      "recording" while it records (also while paused), "ready" once stopped
//
// The document holds the reply fields of vrs.program.list (prggid,
// prgalias, prgdesc, createtime, issuetime, prgstate, prgencmode,
// prgauthmode, prgwatermark, prgskid, streamjsonpath, vrsmoid,
// userdomainmoid; times are UNIX seconds) and these fields of Confer's:
//
//	folderid     folder of the program, 0 for none ("UnGroup")
//	bitrate      recording bit rate in kbit/s; the size is bitrate × length
//	suffix       file suffix of the recording: "asf" (default) or "wmv"
//	recorded_ms  milliseconds recorded before the running segment
//	segment_ms   UNIX milliseconds when the running segment began; 0 while paused or stopped
//	publish      1: publish the program when the recording stops
//	live         1: the recording is also broadcast live (liveroom lists it)
//	dual_stream  1: the content stream is recorded too (two video streams)
//	source       "recroom" or "vc"; conf_id, conf_name, rec_id (vc) or roomid (recroom)
//	files        [{prgid, prgtype, relativepath}]: the asf file (prgid = prggid) and,
//	             once transcoded, an mp4 file with a prgid of the same counter
//	transcoded   {restype, picmergerstyle} of the mp4 file
//	vodnum, downloadnum  plays and downloads
//
// vc writes a program when its recording stops (internal/vc/rec_program.go)
// with its own field names: id, name, duration (s), size (bytes), bitrate,
// start_time and create_time (ISO 8601), conf_id, conf_name, vrs_id,
// rec_id, publish_mode, watermark, dual_stream, ... View reads both shapes,
// and programs of this package also carry id, name, duration, size and
// vrs_id, so that vc's playback plays them (file_id = prggid). Both
// shapes are one type, Doc (doc.go), each member present or absent as
// stored.
package program

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Kind is the record kind of a program; Counter hands out program gids
// and the ids of their files.
const (
	Kind    = "vrs_program"
	Counter = "vc_recorder"
)

// Program states.
const (
	StateRecording = "recording"
	StateReady     = "ready"
)

// DefaultBitrate is the recording bit rate when neither the room nor the
// conference states one (kbit/s).
const DefaultBitrate = 2048

// ErrNotFound is returned for an unknown program (or one of another domain).
var ErrNotFound = errors.New("program: not found")

// Program is a program record with its document.
type Program struct {
	Rec store.Record
	Doc Doc
}

// GID returns the program gid.
func (p Program) GID() int {
	if n := intOf(p.Doc, p.Doc.Prggid, "prggid"); n > 0 {
		return int(n)
	}
	n, _ := strconv.Atoi(p.Rec.ID)
	return n
}

// Recording tells whether the program is still being recorded.
func (p Program) Recording() bool { return p.Rec.State == StateRecording }

// Paused tells whether a recording is paused.
func (p Program) Paused() bool {
	return p.Recording() && i64Of(p.Doc, p.Doc.SegmentMs, "segment_ms") == 0
}

// LengthMs is the recorded length in milliseconds at now.
func (p Program) LengthMs(now time.Time) int64 {
	d := p.Doc
	if !p.Recording() {
		if d.has(d.DurationMs.Set, "duration_ms") { // the file's (file.go)
			return i64Of(d, d.DurationMs, "duration_ms")
		}
		if !d.has(d.RecordedMs.Set, "recorded_ms") { // written by vc with the final figures
			return int64(intOf(d, d.Duration, "duration")) * 1000
		}
	}
	ms := i64Of(d, d.RecordedMs, "recorded_ms")
	if seg := i64Of(d, d.SegmentMs, "segment_ms"); seg > 0 && p.Recording() {
		if d := now.UnixMilli() - seg; d > 0 {
			ms += d
		}
	}
	return ms
}

// Length is the recorded length in whole seconds at now.
func (p Program) Length(now time.Time) int { return int(p.LengthMs(now) / 1000) }

// Size is the recorded size in bytes at now: the bit rate times the length.
func (p Program) Size(now time.Time) int64 {
	if !p.Doc.has(p.Doc.RecordedMs.Set, "recorded_ms") && !p.Recording() {
		return intOf(p.Doc, p.Doc.Size, "size")
	}
	return p.LengthMs(now) * int64(bitrate(p.Doc)) / 8 // kbit/s × ms / 8 = bytes
}

func bitrate(doc Doc) int {
	if b := intOf(doc, doc.Bitrate, "bitrate"); b > 0 {
		return b
	}
	return DefaultBitrate
}

// Spec describes a recording that starts.
type Spec struct {
	DomainMoid string
	OwnerMoid  string
	Alias      string // prgalias, the display name
	Desc       string
	Bitrate    int // kbit/s; DefaultBitrate when 0
	Suffix     string
	Watermark  bool
	Publish    bool // publish when stopped
	Live       bool
	DualStream bool
	VRSMoid    string // the recording server: vrsmoid, and vrs_id for vc's playback
	Source     string // "recroom" or "vc"
	// Room is the recording room that records, with the conference it
	// has online (roomid, conf_id and conf_name of the document).
	Room *RoomSource
}

// RoomSource is what a recording room's program records: the room and
// the conference that has it online ("" when none).
type RoomSource struct {
	RoomID           int
	ConfID, ConfName string
}

// Start creates a program that records from now on.
func Start(ctx context.Context, st store.Store, now time.Time, sp Spec) (Program, error) {
	gid, err := st.NextNumber(ctx, Counter, 1, 1<<31-1)
	if err != nil {
		return Program{}, err
	}
	if sp.Bitrate <= 0 {
		sp.Bitrate = DefaultBitrate
	}
	if sp.Suffix == "" {
		sp.Suffix = "asf"
	}
	some, someS := model.Some[int], model.Some[string]
	doc := Doc{
		ID: model.Some(gid), Name: someS(sp.Alias), VrsID: someS(sp.VRSMoid), StartTime: someS(record.FormatTime(now)),
		Prggid: model.Some(gid), Prgalias: someS(sp.Alias), Prgdesc: someS(sp.Desc), Createtime: model.Some(now.Unix()),
		Issuetime: model.Some[int64](0), Prgstate: some(0), Prgencmode: some(1), Prgauthmode: some(1),
		Prgwatermark: some(flag(sp.Watermark)), Prgskid: someS(""), Streamjsonpath: someS(""),
		Vrsmoid: someS(sp.VRSMoid), Userdomainmoid: someS(sp.DomainMoid), Folderid: some(0),
		Bitrate: some(sp.Bitrate), Suffix: someS(sp.Suffix), RecordedMs: model.Some[int64](0), SegmentMs: model.Some(now.UnixMilli()),
		Publish: some(flag(sp.Publish)), Live: some(flag(sp.Live)), DualStream: some(flag(sp.DualStream)), Source: someS(sp.Source),
		Files:  []FileEntry{{Prgid: int(gid), Prgtype: sp.Suffix, Relativepath: "/uploadmedia/"}},
		Vodnum: some(0), Downloadnum: some(0),
	}
	if r := sp.Room; r != nil {
		doc.Roomid, doc.ConfID, doc.ConfName = some(r.RoomID), someS(r.ConfID), someS(r.ConfName)
	}
	data, err := Encode(doc)
	if err != nil {
		return Program{}, err
	}
	rec := store.Record{Kind: Kind, ID: strconv.FormatInt(gid, 10), DomainMoid: sp.DomainMoid, OwnerMoid: sp.OwnerMoid,
		State: StateRecording, Data: data, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateRecord(ctx, rec); err != nil {
		return Program{}, err
	}
	return decode(rec)
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Pause stops the running segment; the length stays where it is.
func Pause(p *Program, now time.Time) {
	if seg := i64Of(p.Doc, p.Doc.SegmentMs, "segment_ms"); seg > 0 {
		p.Doc.RecordedMs = model.Some(p.LengthMs(now))
		p.Doc.SegmentMs = model.Some[int64](0)
		p.Doc.forget("recorded_ms", "segment_ms")
	}
}

// Resume starts a new segment.
func Resume(p *Program, now time.Time) {
	if i64Of(p.Doc, p.Doc.SegmentMs, "segment_ms") == 0 {
		p.Doc.SegmentMs = model.Some(now.UnixMilli())
		p.Doc.forget("segment_ms")
	}
}

// Finish ends the recording: the length and size are fixed, and the
// program is published when its recording said so.
func Finish(p *Program, now time.Time) {
	Pause(p, now)
	p.Rec.State = StateReady
	SetLive(p, 0)
	length := p.Length(now)
	p.Doc.Prgallduration, p.Doc.Duration = model.Some(length), model.Some(length)
	p.Doc.forget("prgallduration", "duration")
	size := p.Size(now)
	p.Doc.Prgallsize, p.Doc.Size = model.Some(size), model.Some(size)
	p.Doc.CreateTime = model.Some(record.FormatTime(now))
	p.Doc.forget("prgallsize", "size", "create_time")
	if intOf(p.Doc, p.Doc.Publish, "publish") == 1 {
		SetPublished(p, true, now)
	}
}

// SetPublished publishes or withdraws a program.
func SetPublished(p *Program, on bool, now time.Time) {
	p.Doc.forget("prgstate", "issuetime")
	if on {
		p.Doc.Prgstate, p.Doc.Issuetime = model.Some(1), model.Some(now.Unix())
		return
	}
	p.Doc.Prgstate, p.Doc.Issuetime = model.Some(0), model.Some[int64](0)
}

// SetFolder puts a program into a folder (0: none, "UnGroup").
func SetFolder(p *Program, folder int) {
	p.Doc.Folderid = model.Some(folder)
	p.Doc.forget("folderid")
}

// Folder is the folder of the program, 0 for none.
func (p Program) Folder() int { return intOf(p.Doc, p.Doc.Folderid, "folderid") }

// Suffix is the suffix of the program's recording file.
func (p Program) Suffix() string { return strOf(p.Doc, p.Doc.Suffix, "suffix") }

// StreamJSONPath is where the stream description of the program's mp4
// file is served ("" before it is transcoded).
func (p Program) StreamJSONPath() string { return strOf(p.Doc, p.Doc.Streamjsonpath, "streamjsonpath") }

// CountPlay counts a play of the program (vodnum).
func CountPlay(p *Program) {
	p.Doc.Vodnum = model.Some(intOf(p.Doc, p.Doc.Vodnum, "vodnum") + 1)
	p.Doc.forget("vodnum")
}

// SetLive marks the program as broadcast live (1) or not (0).
func SetLive(p *Program, on int) {
	p.Doc.Live = model.Some(on)
	p.Doc.forget("live")
}

// SetStreamJSONPath sets where the stream description of the program's
// mp4 file is served (streamjsonpath).
func SetStreamJSONPath(p *Program, path string) {
	p.Doc.Streamjsonpath = model.Some(path)
	p.Doc.forget("streamjsonpath")
}

// Get reads a program of a domain by its gid.
func Get(ctx context.Context, st store.Store, domainMoid string, gid int) (Program, error) {
	rec, err := st.GetRecord(ctx, Kind, domainMoid, strconv.Itoa(gid))
	if errors.Is(err, store.ErrNotFound) {
		return Program{}, ErrNotFound
	}
	if err != nil {
		return Program{}, err
	}
	return decode(rec)
}

// List returns the programs of a domain ("" for every domain), oldest first.
func List(ctx context.Context, st store.Store, domainMoid string, states ...string) ([]Program, error) {
	recs, _, err := st.ListRecords(ctx, store.RecordQuery{Kind: Kind, DomainMoid: domainMoid, States: states})
	if err != nil {
		return nil, err
	}
	out := make([]Program, 0, len(recs))
	for _, rec := range recs {
		p, err := decode(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// FindFile finds the program that holds the file id (a prgid; the asf file
// of a program has the program's gid, so a prggid finds it too).
func FindFile(ctx context.Context, st store.Store, domainMoid string, id int) (Program, FileEntry, error) {
	if p, err := Get(ctx, st, domainMoid, id); err == nil {
		return p, File(p, id), nil
	} else if !errors.Is(err, ErrNotFound) {
		return Program{}, FileEntry{}, err
	}
	ps, err := List(ctx, st, domainMoid)
	if err != nil {
		return Program{}, FileEntry{}, err
	}
	for _, p := range ps {
		if f := File(p, id); f.Prgid == id {
			return p, f, nil
		}
	}
	return Program{}, FileEntry{}, ErrNotFound
}

// FileEntry is a file of a program as its document's files list holds
// it (JSON; the members in name order, as a stored object's keys are).
type FileEntry struct {
	Prgid        int    `json:"prgid"`
	Prgtype      string `json:"prgtype"`
	Relativepath string `json:"relativepath"`
}

// Files returns the files of a program (the asf recording first).
func Files(p Program) []FileEntry {
	out := slices.Clone(p.Doc.Files)
	var l []json.RawMessage
	if p.Doc.Files == nil && p.Doc.extra("files", &l) { // of another form: read as the map document read it
		for _, raw := range l {
			var f struct {
				Prgid        record.Integer `json:"prgid"`
				Prgtype      record.Text    `json:"prgtype"`
				Relativepath record.Text    `json:"relativepath"`
			}
			if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &f) == nil {
				out = append(out, FileEntry{Prgid: int(f.Prgid), Prgtype: string(f.Prgtype), Relativepath: string(f.Relativepath)})
			}
		}
	}
	if len(out) == 0 { // a record written with the final figures only
		suffix := p.Suffix()
		if suffix == "" {
			suffix = "asf"
		}
		out = append(out, FileEntry{Prgid: p.GID(), Prgtype: suffix, Relativepath: "/uploadmedia/"})
	}
	return out
}

// SetFiles replaces the files of a program.
func SetFiles(p *Program, files ...FileEntry) {
	p.Doc.Files = append([]FileEntry{}, files...) // present even when empty
	p.Doc.forget("files")
}

// File returns the file with the id, or the first file when no file has it.
func File(p Program, id int) FileEntry {
	fs := Files(p)
	for _, f := range fs {
		if f.Prgid == id {
			return f
		}
	}
	return fs[0]
}

// Update reads a program, applies change and writes it over the version
// read, retrying when another writer got there first.
func Update(ctx context.Context, st store.Store, now time.Time, domainMoid string, gid int, change func(p *Program) error) (Program, error) {
	for {
		p, err := Get(ctx, st, domainMoid, gid)
		if err != nil {
			return p, err
		}
		if err := change(&p); err != nil {
			return p, err
		}
		err = Save(ctx, st, now, &p)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return p, err
	}
}

// Save writes a program over the version it was read at (store.ErrConflict
// when it changed meanwhile).
func Save(ctx context.Context, st store.Store, now time.Time, p *Program) error {
	data, err := Encode(p.Doc)
	if err != nil {
		return err
	}
	p.Rec.Data, p.Rec.UpdatedAt = data, now
	if err := st.SwapRecord(ctx, p.Rec); err != nil {
		return err
	}
	p.Rec.Version++
	return nil
}

// Delete removes a program.
func Delete(ctx context.Context, st store.Store, domainMoid string, gid int) error {
	err := st.DeleteRecord(ctx, Kind, domainMoid, strconv.Itoa(gid))
	if errors.Is(err, store.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// Alias makes a program's display name from a prefix and the start time,
// as the platform names recordings: prefix-yyyymmddhhmmssmmm.
func Alias(prefix string, t time.Time) string {
	return fmt.Sprintf("%s-%s%03d", prefix, t.Format("20060102150405"), t.Nanosecond()/1e6)
}

func decode(rec store.Record) (Program, error) {
	doc, err := decodeDoc(rec.Data)
	if err != nil {
		return Program{}, err
	}
	return Program{Rec: rec, Doc: doc}, nil
}

func i64(v any) int64 {
	switch x := v.(type) {
	case interface{ Int64() (int64, error) }:
		n, _ := x.Int64()
		return n
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}
