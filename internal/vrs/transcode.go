package vrs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/vrs/program"
	"github.com/confer-platform/confer/internal/wire"
)

// Transcoding tasks (reference 09 "获取转码任务信息", "批量添加转码任务",
// "批量操作转码任务"): a task turns a program's recording into an MP4 file.
// One task per program: a record of kind "vrs_transtask" whose id is the
// program's gid. Tasks wait (state 1, ready) until one of MaxTranscodes
// working places is free, then work (2) at TranscodeSpeed times real time
// (a second at least), can be paused (3) and started again, and finish
// (5) at their due time: the program then has an mp4 file (prgtypemask 2)
// and a streamjsonpath. Record states: ready, working, paused, done;
// document: prggid, prgalias, dsttype, restype, picmergerstyle, total_ms
// (the work), done_ms (work done before anchor_ms), anchor_ms (UNIX ms
// the work resumed), taskerrno.

// TranscodeSpeed is how many times faster than real time a program is
// transcoded.
const TranscodeSpeed = 4

const (
	kindTask     = "vrs_transtask"
	taskReady    = "ready"
	taskWorking  = "working"
	taskPaused   = "paused"
	taskDone     = "done"
	opStart      = 1
	opPause      = 2
	opCancel     = 3
	errUserPause = 4 // taskerrno: paused by the user
)

// taskStates are the reference's state numbers of the record states.
var taskStates = map[string]int{taskReady: 1, taskWorking: 2, taskPaused: 3, taskDone: 5}

// taskDoc is a task's stored document (JSON, the names above).
type taskDoc struct {
	Prggid         int    `json:"prggid"`
	Prgalias       string `json:"prgalias"`
	Dsttype        int    `json:"dsttype"`
	Restype        int    `json:"restype"`
	Picmergerstyle int    `json:"picmergerstyle"`
	TotalMs        int64  `json:"total_ms"`
	DoneMs         int64  `json:"done_ms"`
	AnchorMs       int64  `json:"anchor_ms"`
	Taskerrno      int    `json:"taskerrno"`
}

type task struct {
	rec store.Record
	doc taskDoc
}

// decodeTask reads a task record.
func decodeTask(rec store.Record) (task, error) {
	t := task{rec: rec}
	return t, json.Unmarshal(rec.Data, &t.doc)
}

func isDone(t task) bool { return t.rec.State == taskDone }

func (m *Module) taskOf(ctx context.Context, domain string, gid int) (task, error) {
	rec, err := m.st.GetRecord(ctx, kindTask, domain, strconv.Itoa(gid))
	if err != nil {
		return task{}, err
	}
	return decodeTask(rec)
}

// workMs is the work a task has done at now.
func workMs(t task, now time.Time) int64 {
	done := t.doc.DoneMs
	if t.rec.State == taskWorking {
		done += now.UnixMilli() - t.doc.AnchorMs
	}
	return min(max(done, 0), t.doc.TotalMs)
}

func percent(t task, now time.Time) int {
	if isDone(t) {
		return 100
	}
	total := t.doc.TotalMs
	if total <= 0 {
		return 0
	}
	return int(min(workMs(t, now)*100/total, 99))
}

// saveTask writes a task over the version read.
func (m *Module) saveTask(ctx context.Context, t *task) error {
	t.rec.Data, _ = json.Marshal(t.doc)
	t.rec.UpdatedAt = m.clk.Now()
	return m.st.SwapRecord(ctx, t.rec)
}

// work starts a ready task working at now.
func work(t *task, now time.Time) {
	t.rec.State = taskWorking
	t.doc.AnchorMs, t.doc.Taskerrno = now.UnixMilli(), 0
	left := t.doc.TotalMs - t.doc.DoneMs
	t.rec.DueAt = now.Add(time.Duration(max(left, 0)) * time.Millisecond)
}

// RunDue finishes the tasks whose work is done at the clock's now and
// starts waiting tasks while working places are free. Each change is a
// swap over the version read, so with several nodes each happens once.
func (m *Module) RunDue(ctx context.Context) error {
	now := m.clk.Now()
	due, err := m.st.DueRecords(ctx, kindTask, taskWorking, now)
	if err != nil {
		return err
	}
	for _, rec := range due {
		if err := m.finishTask(ctx, rec, now); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	working, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: kindTask, States: []string{taskWorking}})
	if err != nil {
		return err
	}
	free := MaxTranscodes - len(working)
	if free <= 0 {
		return nil
	}
	ready, _, err := m.st.ListRecords(ctx, store.RecordQuery{Kind: kindTask, States: []string{taskReady}})
	if err != nil {
		return err
	}
	slices.SortStableFunc(ready, func(a, b store.Record) int { return a.UpdatedAt.Compare(b.UpdatedAt) })
	for _, rec := range ready[:min(free, len(ready))] {
		t, err := decodeTask(rec)
		if err != nil {
			return err
		}
		work(&t, now)
		if err := m.saveTask(ctx, &t); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

// finishTask marks a task done and gives its program the mp4 file.
func (m *Module) finishTask(ctx context.Context, rec store.Record, now time.Time) error {
	t, err := decodeTask(rec)
	if err != nil {
		return err
	}
	t.rec.State, t.rec.DueAt = taskDone, time.Time{}
	t.doc.DoneMs, t.doc.Taskerrno = t.doc.TotalMs, 0
	if err := m.saveTask(ctx, &t); err != nil {
		return err
	}
	gid := t.doc.Prggid
	fileID, err := m.st.NextNumber(ctx, program.Counter, 1, 1<<31-1)
	if err != nil {
		return err
	}
	_, err = program.Update(ctx, m.st, now, rec.DomainMoid, gid, func(p *program.Program) error {
		var files []program.FileEntry
		for _, f := range program.Files(*p) {
			if f.Prgtype != "mp4" {
				files = append(files, f)
			}
		}
		program.SetFiles(p, append(files, program.FileEntry{Prgid: int(fileID), Prgtype: "mp4", Relativepath: "/mp4file/"})...)
		program.SetStreamJSONPath(p, fmt.Sprintf("/api/v2/vrs/upstream/%s/mp4file/%d/Readme.json", p.VRSMoid(), gid))
		program.SetTranscoded(p, t.doc.Restype, t.doc.Picmergerstyle)
		return nil
	})
	if errors.Is(err, program.ErrNotFound) {
		return nil
	}
	return err
}

// taskCreate adds a task per program; each answers its adderrno.
func (m *Module) taskCreate(ctx context.Context, r *api.Request) (*model.VRSTranstaskCreateReply, error) {
	if err := batchLimit(r, "addparams"); err != nil {
		return nil, err
	}
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	var q model.VRSTranstaskCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	var reply model.VRSTranstaskCreateReply
	for _, it := range q.Addparams {
		alias, err := m.taskAdd(ctx, domain, it)
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		reply.Addreturns = append(reply.Addreturns, model.VRSTranstaskCreateReplyAddreturn{Prggid: it.Prggid, Prgalias: alias, Adderrno: code})
	}
	return &reply, m.RunDue(ctx)
}

func (m *Module) taskAdd(ctx context.Context, domain string, it model.VRSTranstaskCreateRequestAddparam) (string, error) {
	gid, now := it.Prggid, m.clk.Now()
	p, err := program.Get(ctx, m.st, domain, gid)
	if errors.Is(err, program.ErrNotFound) {
		return "", wire.Errorf(CodeNoProgram, "program %d does not exist", gid)
	} else if err != nil {
		return "", err
	}
	if p.Recording() {
		return p.Alias(), wire.Errorf(CodeBadState, "program %d is being recorded", gid)
	}
	force := it.Enforcetrans.Or(0) == 1
	old, err := m.taskOf(ctx, domain, gid)
	switch {
	case err == nil && !isDone(old):
		return p.Alias(), wire.Errorf(CodeTaskExists, "program %d has a transcoding task", gid)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return "", err
	case !force && program.Types(p)&program.TypeMP4 != 0:
		restype, style, ok := program.Transcoded(p)
		if !ok {
			return p.Alias(), wire.Errorf(CodeTranscoded, "program %d has an mp4 file", gid)
		}
		if restype == it.Restype && style == it.Picmergerstyle {
			return p.Alias(), wire.Errorf(CodeTranscodedSame, "program %d is transcoded with these parameters", gid)
		}
		return p.Alias(), wire.Errorf(CodeTranscodedOther, "program %d is transcoded with other parameters", gid)
	}
	data, _ := json.Marshal(taskDoc{Prggid: gid, Prgalias: p.Alias(), Dsttype: it.Dsttype, Restype: it.Restype,
		Picmergerstyle: it.Picmergerstyle, TotalMs: max(p.LengthMs(now)/TranscodeSpeed, 1000)})
	rec := store.Record{Kind: kindTask, ID: strconv.Itoa(gid), DomainMoid: domain, State: taskReady, Data: data, CreatedAt: now, UpdatedAt: now}
	if err == nil { // a finished task is replaced (enforcetrans)
		rec.Version = old.rec.Version
		err = m.st.SwapRecord(ctx, rec)
	} else {
		err = m.st.CreateRecord(ctx, rec)
	}
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrDuplicate) {
		return p.Alias(), wire.Errorf(CodeTaskExists, "program %d has a transcoding task", gid)
	}
	return p.Alias(), err
}

// taskOperate starts (1), pauses (2) or cancels (3) tasks; each answers
// its operrno.
func (m *Module) taskOperate(ctx context.Context, r *api.Request) (*model.VRSTranstaskOperateReply, error) {
	if err := batchLimit(r, "operateparams"); err != nil {
		return nil, err
	}
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	var q model.VRSTranstaskOperateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	domain, now := r.Principal.DomainMoid, m.clk.Now()
	var reply model.VRSTranstaskOperateReply
	for _, it := range q.Operateparams {
		gid := it.Prggid
		t, err := m.taskOf(ctx, domain, gid)
		if errors.Is(err, store.ErrNotFound) {
			err = wire.Errorf(CodeNoTask, "program %d has no transcoding task", gid)
		} else if err == nil {
			err = m.taskOp(ctx, &t, it.Opcode, now)
			if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
				err = wire.Errorf(CodeBadState, "the task of program %d changed meanwhile", gid)
			}
		}
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		reply.Operatereturns = append(reply.Operatereturns, model.VRSTranstaskOperateReplyOperatereturn{Prggid: gid, Prgalias: t.doc.Prgalias, Operrno: code})
	}
	return &reply, m.RunDue(ctx)
}

func (m *Module) taskOp(ctx context.Context, t *task, op int, now time.Time) error {
	gid := t.doc.Prggid
	switch {
	case op == opCancel:
		return m.st.DeleteRecord(ctx, kindTask, t.rec.DomainMoid, t.rec.ID)
	case isDone(*t):
		return wire.Errorf(CodeTranscoded, "program %d is transcoded", gid)
	case op == opStart && t.rec.State != taskPaused:
		return wire.Errorf(CodeTaskStarted, "the task of program %d is started", gid)
	case op == opStart:
		t.rec.State = taskReady
		t.doc.Taskerrno = 0
	case t.rec.State == taskPaused: // pause
		return wire.Errorf(CodeTaskPaused, "the task of program %d is paused", gid)
	default:
		t.doc.DoneMs = workMs(*t, now)
		t.rec.State, t.rec.DueAt = taskPaused, time.Time{}
		t.doc.Taskerrno = errUserPause
	}
	return m.saveTask(ctx, t)
}

// taskList pages through the domain's tasks with their progress at now.
func (m *Module) taskList(ctx context.Context, r *api.Request) (*model.VRSTranstaskListReply, error) {
	if err := m.RunDue(ctx); err != nil {
		return nil, err
	}
	var q model.VRSTranstaskListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		return nil, err
	}
	var recs []store.Record
	if domainSelected(q.Userdomainmoid.Value, r.Principal.DomainMoid) {
		var err error
		if recs, _, err = m.st.ListRecords(ctx, store.RecordQuery{Kind: kindTask, DomainMoid: r.Principal.DomainMoid}); err != nil {
			return nil, err
		}
	}
	now, gid, state := m.clk.Now(), q.Prggid.Value, q.State.Value
	var views []taskView
	for _, rec := range recs {
		t, err := decodeTask(rec)
		if err != nil {
			return nil, err
		}
		switch {
		case gid != 0 && t.doc.Prggid != gid,
			state == 3 && !isDone(t), state == 4 && isDone(t),
			!includes(q.Includename.Value, t.doc.Prgalias):
			continue
		}
		views = append(views, taskView{
			Dsttype: t.doc.Dsttype, Percent: percent(t, now), Picmergerstyle: t.doc.Picmergerstyle,
			Prgalias: t.doc.Prgalias, Prggid: t.doc.Prggid, Restype: t.doc.Restype,
			State: taskStates[rec.State], Taskerrno: t.doc.Taskerrno,
		})
	}
	if key, ok := taskKeys[q.Orderindex.Value]; ok {
		sortBy(views, key, q.Desc.Value == 1)
	}
	pg := page(q.Prgs1page, q.Pageid)
	reply := model.VRSTranstaskListReply{Prgcount: len(views), Pageid: pg.ID, Taskinfo: paging.Cut(views, pg.Window())}
	return &reply, nil
}

type taskView = model.VRSTranstaskListReplyTaskinfoItem

// taskKeys are the sort keys of orderindex 1 to 4.
var taskKeys = map[int]func(v *taskView) any{
	1: func(v *taskView) any { return v.Prgalias },
	2: func(v *taskView) any { return v.Percent },
	3: func(v *taskView) any { return v.Dsttype },
	4: func(v *taskView) any { return v.State },
}

// sortBy sorts views by key (compareAny), descending when desc.
func sortBy[T any](views []T, key func(*T) any, desc bool) {
	slices.SortStableFunc(views, func(a, b T) int {
		c := compareAny(key(&a), key(&b))
		if desc {
			return -c
		}
		return c
	})
}
