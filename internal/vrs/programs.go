package vrs

import (
	"cmp"
	"context"
	"errors"
	"github.com/confer-platform/confer/internal/model"
	"slices"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// Programs (reference 09 "获取节目列表", "批量删除节目", "批量发布节目",
// "节目批量移动"; seed 001: the program and folder filters prgtypemask,
// remoteprgtypemask, localvrs, prgencmask, prgauthmask, userdomainmoid,
// prgskid and vrsmoid).

// mask tells whether a program's bits pass a filter mask (0 passes all).
func mask(filter, bits int) bool { return filter == 0 || filter&bits != 0 }

// programFilter is the program filters common to the folder and program
// lists: the folder list's request carries all of them.
type programFilter = model.VRSProgramFolderListRequest

// filteredPrograms returns the programs of the caller's domain that pass
// the filters f. A program is local when this recording server recorded
// it (vrsmoid is the domain's server id, or unknown); localvrs 1 keeps
// only those. prgtypemask filters the local programs, remoteprgtypemask
// the others.
func (m *Module) filteredPrograms(ctx context.Context, domain string, f programFilter) ([]program.Program, error) {
	if !domainSelected(f.Userdomainmoid.Value, domain) {
		return nil, nil
	}
	ps, err := program.List(ctx, m.st, domain)
	if err != nil {
		return nil, err
	}
	local := ServerID(domain)
	skid, vrsmoid := f.Prgskid.Value, f.Vrsmoid.Value
	out := ps[:0]
	for _, p := range ps {
		isLocal := p.VRSMoid() == "" || p.VRSMoid() == local
		typeMask := f.Prgtypemask.Value
		if !isLocal {
			if f.Localvrs.Value == 1 {
				continue
			}
			typeMask = f.Remoteprgtypemask.Value
		}
		view := program.View(p, m.clk.Now(), 0)
		switch {
		case !mask(typeMask, program.Types(p)),
			!mask(f.Prgencmask.Value, view.Prgencmode),
			!mask(f.Prgauthmask.Value, view.Prgauthmode),
			skid != "" && view.Prgskid != skid,
			vrsmoid != "" && p.VRSMoid() != vrsmoid:
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// programList pages through the programs of a folder (1 all, 2 those in
// no folder), searched by name and creation time and sorted by
// orderindex (default: unpublished first, newest first).
func (m *Module) programList(ctx context.Context, r *api.Request) (*model.VRSProgramListReply, error) {
	var q model.VRSProgramListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	fid := q.Folderid
	if _, builtin := builtinFolders[fid]; !builtin {
		r.PathParams = map[string]string{"id": strconv.Itoa(fid)}
		if _, err := m.folderOf(ctx, r); err != nil {
			return nil, err
		}
	}
	ps, err := m.filteredPrograms(ctx, r.Principal.DomainMoid, programFilter{
		Userdomainmoid: q.Userdomainmoid, Prgtypemask: q.Prgtypemask, Remoteprgtypemask: q.Remoteprgtypemask,
		Localvrs: q.Localvrs, Prgencmask: q.Prgencmask, Prgauthmask: q.Prgauthmask,
		// Seed 001 names prgskid and vrsmoid among the program and folder
		// queries; the reference documents them for this list as reply
		// members only, so the catalogue (and VRSProgramListRequest) has
		// them for the folder list alone. Confer keeps reading them here
		// as an extension, by name, as before.
		Prgskid: optQuery(r, "prgskid"), Vrsmoid: optQuery(r, "vrsmoid"),
	})
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	from, to := int64(q.Starttime.Value), int64(q.Endtime.Value)
	ip := m.serverIP(ctx)
	var views []programView
	for _, p := range ps {
		in := p.Folder()
		ct := p.CreateTime()
		switch {
		case fid == folderUngroup && in != 0, fid > folderUngroup && in != fid,
			!includes(q.Includename.Value, p.Alias()), from > 0 && ct < from, to > 0 && ct > to:
			continue
		}
		views = append(views, program.View(p, now, ip))
	}
	sortPrograms(views, q.Orderindex.Value, q.Desc.Value == 1)
	pg := page(q.Prgs1page, q.Pageid)
	reply := model.VRSProgramListReply{Prgcount: len(views), Pageid: pg.ID, Prginfo: paging.Cut(views, pg.Window())}
	return &reply, nil
}

// optQuery is a query parameter the catalogue does not name for the
// endpoint, as a member of a generated request would hold it.
func optQuery(r *api.Request, name string) model.Opt[string] {
	v, ok := r.Args.Query[name]
	if !ok || len(v) == 0 {
		return model.Opt[string]{}
	}
	return model.Some(v[0])
}

type programView = model.VRSProgramListReplyPrginfoItem

// programKeys are the sort keys of orderindex 1 to 7.
var programKeys = map[int]func(v *programView) any{
	1: func(v *programView) any { return v.Prgalias },
	2: func(v *programView) any { return v.Createtime },
	3: func(v *programView) any { return v.Prgallduration },
	4: func(v *programView) any { return v.Prgallsize },
	5: func(v *programView) any { return v.Prgstate },
	6: func(v *programView) any { return len(v.Prgdetail) },
	7: func(v *programView) any {
		n := 0
		for _, d := range v.Prgdetail {
			n = max(n, d.Vodnum)
		}
		return n
	},
}

func sortPrograms(vs []programView, order int, desc bool) {
	key, ok := programKeys[order]
	slices.SortStableFunc(vs, func(a, b programView) int {
		if !ok { // unpublished first, then newest first
			if c := cmp.Compare(a.Prgstate, b.Prgstate); c != 0 {
				return c
			}
			return -cmp.Compare(a.Createtime, b.Createtime)
		}
		c := compareAny(key(&a), key(&b))
		if c == 0 {
			c = cmp.Compare(a.Prggid, b.Prggid)
		}
		if desc {
			return -c
		}
		return c
	})
}

func compareAny(a, b any) int {
	switch x := a.(type) {
	case string:
		return strings.Compare(strings.ToLower(x), strings.ToLower(b.(string)))
	case int:
		return cmp.Compare(x, b.(int))
	}
	return 0
}

// deletable checks that a program may be deleted: never while it records
// (24206); with enforce unset, not while published (34), transcoding (35)
// or played in a playback room (24206).
func (m *Module) deletable(ctx context.Context, domain string, p program.Program, enforce bool) error {
	if p.Recording() {
		return wire.Errorf(CodeBadState, "program %d is being recorded", p.GID())
	}
	if enforce {
		return nil
	}
	if p.Published() {
		return wire.Errorf(CodePublished, "program %d is published", p.GID())
	}
	if t, err := m.taskOf(ctx, domain, p.GID()); err == nil && !isDone(t) {
		return wire.Errorf(CodeTranscoding, "program %d is being transcoded", p.GID())
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	rooms, err := m.playRoomsPlaying(ctx, domain, p.GID())
	if err != nil {
		return err
	}
	if len(rooms) > 0 {
		return wire.Errorf(CodeBadState, "program %d is played in playback room %s", p.GID(), rooms[0].ID)
	}
	return nil
}

// deleteProgram deletes a program with its transcoding task, stopping the
// playback rooms that play it.
func (m *Module) deleteProgram(ctx context.Context, domain string, gid int) error {
	rooms, err := m.playRoomsPlaying(ctx, domain, gid)
	if err != nil {
		return err
	}
	for _, rec := range rooms {
		if err := m.playRoomStop(ctx, domain, rec.ID); err != nil {
			return err
		}
	}
	if err := m.st.DeleteRecord(ctx, kindTask, domain, strconv.Itoa(gid)); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	// The file goes first: a file that cannot be deleted keeps its
	// program, so that nothing is left that no record names.
	p, err := program.Get(ctx, m.st, domain, gid)
	if err != nil {
		return err
	}
	if err := m.removeFile(p); err != nil {
		return err
	}
	return program.Delete(ctx, m.st, domain, gid)
}

// programDelete deletes programs one by one; each answers its delerrno
// (0, or the A5 code that kept it). An administrator of the domain
// deletes any of its programs, another account those it recorded (issue
// 38 item 11; 9 for the others).
func (m *Module) programDelete(ctx context.Context, r *api.Request) (*model.VRSProgramDeleteReply, error) {
	if err := batchLimit(r, "prgdelpckinfo"); err != nil {
		return nil, err
	}
	if r.Principal == nil {
		return nil, adminOnly(r)
	}
	var q model.VRSProgramDeleteRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	var reply model.VRSProgramDeleteReply
	for _, it := range q.Prgdelpckinfo {
		gid := it.Prggid
		err := func() error {
			p, err := program.Get(ctx, m.st, domain, gid)
			if errors.Is(err, program.ErrNotFound) {
				return wire.E(CodeNoProgram)
			} else if err != nil {
				return err
			}
			if !r.Principal.Admin && (p.Rec.OwnerMoid == "" || p.Rec.OwnerMoid != r.Principal.AccountMoid) {
				return wire.Errorf(CodeNoPermission, "program %d was recorded by another account: only an administrator of the user domain may delete it", gid)
			}
			if err := m.deletable(ctx, domain, p, it.Enforcedel == 1); err != nil {
				return err
			}
			err = m.deleteProgram(ctx, domain, gid)
			if errors.Is(err, program.ErrNotFound) {
				return wire.E(CodeNoProgram)
			}
			return err
		}()
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		reply.Prgdelpckinfo = append(reply.Prgdelpckinfo, model.VRSProgramDeleteReplyPrgdelpckinfoItem{Prggid: gid, Delerrno: code})
	}
	return &reply, nil
}

// itemCode is the per-program code of a batch: 0, or the code of a
// client-facing error; any other error fails the request.
func itemCode(err error) (int, error) {
	var we *wire.Error
	switch {
	case err == nil:
		return 0, nil
	case errors.As(api.Failure(err), &we) && we.Code != wire.CodeSystemError:
		return we.Code, nil
	}
	return 0, err
}

// programRelease publishes (prgstate 1) or withdraws (0) programs; a
// program still recording cannot be (24206: it is published when it
// stops if its recording said so).
func (m *Module) programRelease(ctx context.Context, r *api.Request) (*model.VRSProgramReleaseBatchUpdateReply, error) {
	if err := batchLimit(r, "info"); err != nil {
		return nil, err
	}
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	var q model.VRSProgramReleaseBatchUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain, now := r.Principal.DomainMoid, m.clk.Now()
	var reply model.VRSProgramReleaseBatchUpdateReply
	for _, it := range q.Info {
		gid, on := it.Prggid, it.Prgstate == 1
		_, err := program.Update(ctx, m.st, now, domain, gid, func(p *program.Program) error {
			if p.Recording() {
				return wire.Errorf(CodeBadState, "program %d is being recorded", gid)
			}
			program.SetPublished(p, on, now)
			return nil
		})
		if errors.Is(err, program.ErrNotFound) {
			err = wire.E(CodeNoProgram)
		}
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		reply.Info = append(reply.Info, model.VRSProgramReleaseBatchUpdateReplyInfoItem{Prggid: gid, Prgstate: it.Prgstate, Relerrno: code})
	}
	return &reply, nil
}

// programMove moves programs into a folder (2, UnGroup, takes them out of
// any). Every program must exist (32) and the folder too (8), else
// nothing moves.
func (m *Module) programMove(ctx context.Context, r *api.Request) error {
	if err := batchLimit(r, "prginfo"); err != nil {
		return err
	}
	if err := adminOnly(r); err != nil {
		return err
	}
	var q model.VRSProgramToFolderMoveRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	domain, now := r.Principal.DomainMoid, m.clk.Now()
	dst := q.Dstfolderid
	if dst != folderUngroup {
		r.PathParams = map[string]string{"id": strconv.Itoa(dst)}
		if _, err := m.folderOf(ctx, r); err != nil {
			return err
		}
	}
	into := dst
	if dst == folderUngroup {
		into = 0
	}
	for _, it := range q.Prginfo {
		if _, err := program.Get(ctx, m.st, domain, it.Prggid); errors.Is(err, program.ErrNotFound) {
			return wire.Errorf(CodeNoProgram, "program %d does not exist", it.Prggid)
		} else if err != nil {
			return err
		}
	}
	for _, it := range q.Prginfo {
		if _, err := program.Update(ctx, m.st, now, domain, it.Prggid, func(p *program.Program) error {
			program.SetFolder(p, into)
			return nil
		}); err != nil && !errors.Is(err, program.ErrNotFound) {
			return err
		}
	}
	return nil
}
