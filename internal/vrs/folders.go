package vrs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// Program folders (reference 09 "获取文件夹列表" to "删除文件夹"). Every user
// domain has the two folders of the reference's example: 1 "ALL" (every
// program) and 2 "UnGroup" (programs in no folder); they cannot be
// renamed or deleted. A domain's own folders are records of kind
// "vrs_folder" numbered from 3 by the counter "vrs_folder"; a program
// names its folder in folderid (0 for none).

const (
	kindFolder    = "vrs_folder"
	folderAll     = 1
	folderUngroup = 2
	folderNameMax = 64
)

var builtinFolders = map[int]string{folderAll: "ALL", folderUngroup: "UnGroup"}

// folderDoc is a folder's stored document.
type folderDoc struct {
	Folderid       int64  `json:"folderid"`
	Foldername     string `json:"foldername"`
	Userdomainmoid string `json:"userdomainmoid"`
}

type folder struct {
	rec store.Record
	id  int
	doc folderDoc
}

// decodeFolder reads a folder record.
func decodeFolder(rec store.Record) (folder, error) {
	f := folder{rec: rec}
	f.id, _ = strconv.Atoi(rec.ID)
	return f, json.Unmarshal(rec.Data, &f.doc)
}

func (m *Module) folders(ctx context.Context, domain string) ([]folder, error) {
	recs, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: kindFolder, DomainMoid: domain})
	if err != nil {
		return nil, err
	}
	out := make([]folder, 0, len(recs))
	for _, rec := range recs {
		f, err := decodeFolder(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	for i := 1; i < len(out); i++ { // by id
		for j := i; j > 0 && out[j].id < out[j-1].id; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// folderOf reads a custom folder of the caller's domain: A5 8 for a
// built-in folder (which cannot change) or an unknown one.
func (m *Module) folderOf(ctx context.Context, r *api.Request) (folder, error) {
	id, err := strconv.Atoi(r.Path("id"))
	if _, builtin := builtinFolders[id]; builtin {
		return folder{}, wire.Errorf(CodeBadInput, "folder %d (%s) is built in and cannot change", id, builtinFolders[id])
	}
	if err != nil {
		return folder{}, wire.Errorf(CodeBadInput, "folder %q does not exist", r.Path("id"))
	}
	rec, err := m.st.GetRecord(ctx, kindFolder, r.Principal.DomainMoid, strconv.Itoa(id))
	if errors.Is(err, store.ErrNotFound) {
		return folder{}, wire.Errorf(CodeBadInput, "folder %d does not exist", id)
	}
	if err != nil {
		return folder{}, err
	}
	return decodeFolder(rec)
}

// folderName checks a folder name: not blank, at most 64 bytes, not the
// name of another folder of the domain (built-in ones included; A5 30).
func (m *Module) folderName(ctx context.Context, r *api.Request, sent string, self int) (string, error) {
	name := strings.TrimSpace(sent)
	switch {
	case name == "":
		return "", wire.InvalidParam("foldername", "must not be blank")
	case len(name) > folderNameMax || !utf8.ValidString(name):
		return "", wire.InvalidParam("foldername", fmt.Sprintf("must be at most %d bytes of UTF-8", folderNameMax))
	}
	fs, err := m.folders(ctx, r.Principal.DomainMoid)
	if err != nil {
		return "", err
	}
	for _, n := range builtinFolders {
		if strings.EqualFold(n, name) {
			return "", wire.Errorf(CodeFolderExists, "folder %q exists", name)
		}
	}
	for _, f := range fs {
		if f.id != self && f.doc.Foldername == name {
			return "", wire.Errorf(CodeFolderExists, "folder %q exists", name)
		}
	}
	return name, nil
}

// folderList lists the domain's folders, each with the number of its
// programs that pass the program filters.
func (m *Module) folderList(ctx context.Context, r *api.Request) (*model.VRSProgramFolderListReply, error) {
	var q model.VRSProgramFolderListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	fs, err := m.folders(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	ps, err := m.filteredPrograms(ctx, r.Principal.DomainMoid, q)
	if err != nil {
		return nil, err
	}
	count := map[int]int{}
	for _, p := range ps {
		count[p.Folder()]++
	}
	domain := r.Principal.DomainMoid
	type item = model.VRSProgramFolderListReplyFolderinfoItem
	reply := model.VRSProgramFolderListReply{Folderinfo: []item{
		{Folderid: folderAll, Foldername: builtinFolders[folderAll], Prgcount: len(ps), Userdomainmoid: domain},
		{Folderid: folderUngroup, Foldername: builtinFolders[folderUngroup], Prgcount: count[0], Userdomainmoid: domain},
	}}
	for _, f := range fs {
		reply.Folderinfo = append(reply.Folderinfo, item{Folderid: f.id, Foldername: f.doc.Foldername, Prgcount: count[f.id], Userdomainmoid: domain})
	}
	if !domainSelected(q.Userdomainmoid.Value, domain) {
		reply.Folderinfo = nil
	}
	return &reply, nil
}

func (m *Module) folderCreate(ctx context.Context, r *api.Request) (*model.VRSProgramFolderCreateReply, error) {
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	var q model.VRSProgramFolderCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	name, err := m.folderName(ctx, r, q.Foldername, 0)
	if err != nil {
		return nil, err
	}
	fs, err := m.folders(ctx, r.Principal.DomainMoid)
	if err != nil {
		return nil, err
	}
	if len(fs) >= MaxFolders {
		return nil, wire.Errorf(CodeFolderLimit, "the user domain has %d folders, the most it may have", MaxFolders)
	}
	id, err := m.st.NextNumber(ctx, kindFolder, 3, 1<<31-1)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	data, _ := json.Marshal(folderDoc{Folderid: id, Foldername: name, Userdomainmoid: r.Principal.DomainMoid})
	if err := m.st.CreateRecord(ctx, store.Record{Kind: kindFolder, ID: strconv.FormatInt(id, 10), DomainMoid: r.Principal.DomainMoid,
		Data: data, CreatedAt: now, UpdatedAt: now}); err != nil {
		return nil, err
	}
	return &model.VRSProgramFolderCreateReply{Folderid: int(id)}, nil
}

func (m *Module) folderUpdate(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r); err != nil {
		return err
	}
	f, err := m.folderOf(ctx, r)
	if err != nil {
		return err
	}
	var q model.VRSProgramFolderUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	name, err := m.folderName(ctx, r, q.Foldername, f.id)
	if err != nil {
		return err
	}
	f.doc.Foldername = name
	f.rec.Data, _ = json.Marshal(f.doc)
	f.rec.UpdatedAt = m.clk.Now()
	if err := m.st.SwapRecord(ctx, f.rec); err != nil {
		return err
	}
	return nil
}

// folderDelete deletes a folder; its programs are deleted with it
// (isdelprogram 1; a program still recording or being played cannot be,
// A5 24206, and then nothing is deleted) or go back to UnGroup.
func (m *Module) folderDelete(ctx context.Context, r *api.Request) error {
	if err := adminOnly(r); err != nil {
		return err
	}
	f, err := m.folderOf(ctx, r)
	if err != nil {
		return err
	}
	domain := r.Principal.DomainMoid
	ps, err := program.List(ctx, m.st, domain)
	if err != nil {
		return err
	}
	var q model.VRSProgramFolderDeleteRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	del := q.Isdelprogram == 1
	var in []program.Program
	for _, p := range ps {
		if p.Folder() != f.id {
			continue
		}
		if del {
			if err := m.deletable(ctx, domain, p, true); err != nil {
				return err
			}
		}
		in = append(in, p)
	}
	now := m.clk.Now()
	for _, p := range in {
		if del {
			err = m.deleteProgram(ctx, domain, p.GID())
		} else {
			_, err = program.Update(ctx, m.st, now, domain, p.GID(), func(p *program.Program) error {
				program.SetFolder(p, 0)
				return nil
			})
		}
		if err != nil && !errors.Is(err, program.ErrNotFound) {
			return err
		}
	}
	if err := m.st.DeleteRecord(ctx, kindFolder, domain, f.rec.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}
