package mc

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/confer-platform/confer/internal/model"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Meeting files (seed 001: from 5.2.0.4.0; reference 04 sections 32-34):
// files uploaded to a meeting (the meeting_id of a booked or running
// conference of the caller's domain, else 12103), one per request as the multipart/form-data
// part "file", at most 20 MB each and 10 per meeting, removed 7 days after
// the upload. Everyone of the domain lists a meeting's files; the uploader
// or an administrator deletes one (20005 otherwise). The content lives under
// Config.FilesDir with generated names (files_disk.go); the metadata is a
// record of kind record.KindFile whose due time is the removal time.

// Limits of reference 04 ("每个文件不超过20MB，一个会议最多保存10个文件";
// "文件7天后自动删除").
const (
	FileMaxBytes      = 20 << 20 // 20 MB, read as MiB
	FileMaxPerMeeting = 10
	FileKeep          = 7 * 24 * time.Hour
)

// fileState is the state of every file record; its due time is the time
// of removal.
const fileState = "stored"

// fileTypes are the accepted extensions, the file_type values of reference
// 04 ("1-txt; 2-doc; ... 13-bmp"), sent as the extension as its example
// does ("file_type": "jpg").
var fileTypes = []string{"txt", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "pdf", "rar", "zip", "jpg", "png", "bmp"}

// UploadFile checks the file part of an upload request: exactly one, of
// an accepted type, not empty and at most 20 MB (reference 04). It returns
// the file with its base name and extension, or the error the upload is
// answered with; debug mode reports the same error (the server's
// fileProblems), so debug=1 sees every problem the real request would.
func UploadFile(args *wire.Args) (*wire.File, string, string, *wire.Error) {
	fhs := args.Files["file"]
	switch {
	case len(fhs) == 0:
		return nil, "", "", wire.InvalidParam("file", "required parameter is missing: send the file as the multipart/form-data part named file")
	case len(fhs) > 1:
		return nil, "", "", wire.InvalidParam("file", "one file per upload")
	}
	for name, other := range args.Files {
		if name != "file" && len(other) > 0 { // issue 38 item 13: one file part in all
			return nil, "", "", wire.InvalidParam("file", fmt.Sprintf("one file per upload: the body also has a file part named %q", name))
		}
	}
	fh := fhs[0]
	name := fileBaseName(fh.Filename)
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	switch {
	case !slices.Contains(fileTypes, ext):
		return nil, "", "", wire.InvalidParam("file", fmt.Sprintf("file type %q is not accepted (accepted: %s)", ext, strings.Join(fileTypes, ", ")))
	case fh.Size > FileMaxBytes:
		return nil, "", "", wire.Errorf(wire.CodeBodyTooLarge, "file %s has %d bytes, more than the 20 MB a meeting file may have", name, fh.Size)
	case fh.Size == 0:
		return nil, "", "", wire.Errorf(CodeFileEmpty, "file %s is empty", name)
	}
	return fh, name, ext, nil
}

func (m *Module) fileUpload(ctx context.Context, r *api.Request) (*model.MCMeetingFilesUploadReply, error) {
	meetingID := r.Path("meeting_id")
	if err := m.meetingExists(ctx, r.Principal.DomainMoid, meetingID); err != nil {
		return nil, err
	}
	fh, name, ext, werr := UploadFile(r.Args)
	if werr != nil {
		return nil, werr
	}
	now := m.clk.Now()
	live, err := m.meetingFiles(ctx, r.Principal.DomainMoid, meetingID, now)
	if err != nil {
		return nil, err
	}
	if len(live) >= FileMaxPerMeeting {
		return nil, fileLimit(meetingID)
	}

	src, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer src.Close()
	stored, err := m.fileWrite(r.Principal.DomainMoid, ext, src, now)
	if err != nil {
		return nil, err
	}
	doc := fileDoc{MCMeetingFilesUploadReplyMeetingFile: model.MCMeetingFilesUploadReplyMeetingFile{
		MeetingID: meetingID, FileName: name, FileType: ext, ExtensionName: ext,
		FileURL: "/file/" + r.Principal.DomainMoid + "/" + stored, FileSize: fmt.Sprintf("%.2f", float64(fh.Size)/(1<<20)),
		CreatorMoid: r.Principal.AccountMoid, CreatorName: r.Principal.Username, CreateTime: now.Format(time.RFC3339),
	}, StoredName: stored, Bytes: fh.Size}
	rec := store.Record{Kind: record.KindFile, DomainMoid: r.Principal.DomainMoid, OwnerMoid: r.Principal.AccountMoid,
		State: fileState, DueAt: now.Add(FileKeep), CreatedAt: now, UpdatedAt: now}
	if _, err = m.fileAdmit(ctx, rec, &doc, meetingID, now); err != nil { // files_quota.go
		m.fileRemove(rec.DomainMoid, stored)
		return nil, err
	}
	return &model.MCMeetingFilesUploadReply{Description: tplDescOK, MeetingFile: &doc.MCMeetingFilesUploadReplyMeetingFile}, nil
}

func fileLimit(meetingID string) error {
	return wire.Errorf(CodeFileLimit, "meeting %s already keeps %d files, the most a meeting may keep", meetingID, FileMaxPerMeeting)
}

// fileList lists the files of a meeting that are not due for removal, in
// upload order. The files of a conference that has ended (and so is no
// longer a record) stay listed for their 7 days; a meeting id with no
// files and no conference of the domain answers 12103.
func (m *Module) fileList(ctx context.Context, r *api.Request) (*model.MCMeetingFilesListReply, error) {
	meetingID := r.Path("meeting_id")
	docs, err := m.meetingFiles(ctx, r.Principal.DomainMoid, meetingID, m.clk.Now())
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		if err := m.meetingExists(ctx, r.Principal.DomainMoid, meetingID); err != nil {
			return nil, err
		}
	}
	reply := &model.MCMeetingFilesListReply{Total: len(docs), MeetingFiles: make([]model.MCMeetingFilesListReplyMeetingFile, len(docs))}
	for i, d := range docs {
		reply.MeetingFiles[i] = d.MCMeetingFilesUploadReplyMeetingFile
	}
	return reply, nil
}

// fileDelete deletes a file and its content. A file of another domain, or
// one due for removal, does not exist (24018).
func (m *Module) fileDelete(ctx context.Context, r *api.Request) (*model.MCMeetingFilesDeleteReply, error) {
	id := r.Path("file_id")
	rec, err := m.st.GetRecord(ctx, record.KindFile, r.Principal.DomainMoid, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !rec.DueAt.After(m.clk.Now())) {
		return nil, wire.Errorf(CodeFileNotFound, "meeting file %s does not exist", id)
	}
	if err != nil {
		return nil, err
	}
	if rec.OwnerMoid != r.Principal.AccountMoid && !r.Principal.Admin {
		return nil, wire.Errorf(wire.CodeNoPermission, "only the uploader or an administrator may delete meeting file %s", id)
	}
	doc, err := decodeFile(rec)
	if err != nil {
		return nil, err
	}
	if err := m.st.DeleteRecord(ctx, rec.Kind, rec.DomainMoid, rec.ID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, wire.Errorf(CodeFileNotFound, "meeting file %s does not exist", id)
		}
		return nil, err
	}
	m.fileRemove(rec.DomainMoid, doc.StoredName)
	return &model.MCMeetingFilesDeleteReply{Description: tplDescOK}, nil
}

// ExpireFiles removes the meeting files whose 7 days have passed at the
// clock's now: record first, then content, so no listed file lacks its
// content. The server's tick calls it; several nodes may run it at once.
func (m *Module) ExpireFiles(ctx context.Context) error {
	recs, err := m.st.DueRecords(ctx, record.KindFile, fileState, m.clk.Now())
	if err != nil {
		return err
	}
	var errs []error
	for _, rec := range recs {
		err := m.st.DeleteRecord(ctx, rec.Kind, rec.DomainMoid, rec.ID)
		if errors.Is(err, store.ErrNotFound) {
			continue // removed meanwhile by a delete or another node
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if doc, err := decodeFile(rec); err == nil {
			m.fileRemove(rec.DomainMoid, doc.StoredName)
		}
	}
	return errors.Join(errs...)
}

// meetingExists answers 12103 unless a conference of the domain, booked or
// running, has the meeting id (conferences are records of kind
// record.KindConf whose document holds meeting_id; an ended conference
// is deleted).
func (m *Module) meetingExists(ctx context.Context, domain, meetingID string) error {
	if meetingID != "" {
		recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindConf, DomainMoid: domain})
		if err != nil {
			return err
		}
		for _, rec := range recs {
			d, err := shape.Decode(rec.Data)
			if err != nil {
				return err
			}
			if fmt.Sprint(d["meeting_id"]) == meetingID {
				return nil
			}
		}
	}
	return wire.Errorf(wire.CodeConfNotFound, "meeting %s does not exist", meetingID)
}

// meetingFiles returns the documents of a meeting's files that are not due
// for removal at now, in upload order.
func (m *Module) meetingFiles(ctx context.Context, domain, meetingID string, now time.Time) ([]fileDoc, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: record.KindFile, DomainMoid: domain, States: []string{fileState}})
	if err != nil {
		return nil, err
	}
	// Upload order: creation time, then the id's number.
	slices.SortStableFunc(recs, func(a, b store.Record) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		x, _ := strconv.ParseInt(a.ID, 10, 64)
		y, _ := strconv.ParseInt(b.ID, 10, 64)
		return cmp.Compare(x, y)
	})
	var out []fileDoc
	for _, rec := range recs {
		if !rec.DueAt.After(now) {
			continue
		}
		d, err := decodeFile(rec)
		if err != nil {
			return nil, err
		}
		if d.MeetingID == meetingID {
			out = append(out, d)
		}
	}
	return out, nil
}

// fileBaseName keeps of a client's file name only its last element (after
// any / or \), without control characters and surrounding blanks, and at
// most 255 bytes (the extension kept). It is metadata only: no path is ever built from it.
func fileBaseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || c == utf8.RuneError {
			return -1
		}
		return c
	}, name)
	name = strings.TrimSpace(name)
	if name == "." || name == ".." {
		return ""
	}
	if len(name) > 255 { // shorten the stem, keep the extension
		ext := path.Ext(name)
		if len(ext) > 16 {
			ext = ""
		}
		stem := name[:len(name)-len(ext)]
		for len(stem)+len(ext) > 255 {
			_, size := utf8.DecodeLastRuneInString(stem)
			stem = stem[:len(stem)-size]
		}
		name = stem + ext
	}
	return name
}

// fileDoc is a meeting file's stored document (JSON): the file as the
// replies show it, the name of its content on disk and its size.
type fileDoc struct {
	model.MCMeetingFilesUploadReplyMeetingFile
	StoredName string `json:"stored_name"`
	Bytes      int64  `json:"bytes"`
}

// decodeFile reads a meeting file's record.
func decodeFile(rec store.Record) (fileDoc, error) {
	var d fileDoc
	return d, json.Unmarshal(rec.Data, &d)
}
