package vrs

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
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

type task struct {
	rec store.Record
	doc map[string]any
}

func isDone(t task) bool { return t.rec.State == taskDone }

func (m *Module) taskOf(ctx context.Context, domain string, gid int) (task, error) {
	rec, err := m.st.GetRecord(ctx, kindTask, domain, strconv.Itoa(gid))
	if err != nil {
		return task{}, err
	}
	doc, err := shape.Decode(rec.Data)
	return task{rec, doc}, err
}

// workMs is the work a task has done at now.
func workMs(t task, now time.Time) int64 {
	done := int64(record.Int(t.doc, "done_ms"))
	if t.rec.State == taskWorking {
		done += now.UnixMilli() - int64(record.Int(t.doc, "anchor_ms"))
	}
	return min(max(done, 0), int64(record.Int(t.doc, "total_ms")))
}

func percent(t task, now time.Time) int {
	if isDone(t) {
		return 100
	}
	total := int64(record.Int(t.doc, "total_ms"))
	if total <= 0 {
		return 0
	}
	return int(min(workMs(t, now)*100/total, 99))
}

// saveTask writes a task over the version read.
func (m *Module) saveTask(ctx context.Context, t *task) error {
	t.rec.Data, _ = shape.Encode(t.doc)
	t.rec.UpdatedAt = m.clk.Now()
	return m.st.SwapRecord(ctx, t.rec)
}

// work starts a ready task working at now.
func work(t *task, now time.Time) {
	t.rec.State = taskWorking
	t.doc["anchor_ms"], t.doc["taskerrno"] = now.UnixMilli(), 0
	left := int64(record.Int(t.doc, "total_ms")) - int64(record.Int(t.doc, "done_ms"))
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
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return err
		}
		t := task{rec, doc}
		work(&t, now)
		if err := m.saveTask(ctx, &t); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

// finishTask marks a task done and gives its program the mp4 file.
func (m *Module) finishTask(ctx context.Context, rec store.Record, now time.Time) error {
	doc, err := shape.Decode(rec.Data)
	if err != nil {
		return err
	}
	t := task{rec, doc}
	t.rec.State, t.rec.DueAt = taskDone, time.Time{}
	t.doc["done_ms"], t.doc["taskerrno"] = t.doc["total_ms"], 0
	if err := m.saveTask(ctx, &t); err != nil {
		return err
	}
	gid := record.Int(doc, "prggid")
	fileID, err := m.st.NextNumber(ctx, program.Counter, 1, 1<<31-1)
	if err != nil {
		return err
	}
	_, err = program.Update(ctx, m.st, now, rec.DomainMoid, gid, func(p *program.Program) error {
		files := []any{}
		for _, f := range program.Files(*p) {
			if record.Str(f, "prgtype") != "mp4" {
				files = append(files, f)
			}
		}
		p.Doc["files"] = append(files, map[string]any{"prgid": fileID, "prgtype": "mp4", "relativepath": "/mp4file/"})
		p.Doc["streamjsonpath"] = fmt.Sprintf("/api/v2/vrs/upstream/%s/mp4file/%d/Readme.json", p.VRSMoid(), gid)
		p.Doc["transcoded"] = map[string]any{"restype": doc["restype"], "picmergerstyle": doc["picmergerstyle"]}
		return nil
	})
	if errors.Is(err, program.ErrNotFound) {
		return nil
	}
	return err
}

// taskCreate adds a task per program; each answers its adderrno.
func (m *Module) taskCreate(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	domain := r.Principal.DomainMoid
	var out []any
	for _, it := range paramList(r.Args.Params, "addparams") {
		gid := paramInt(it, "prggid")
		alias, err := m.taskAdd(ctx, domain, it)
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"prggid": gid, "prgalias": alias, "adderrno": code})
	}
	return wire.Object{"addreturns": orEmpty(out)}, m.RunDue(ctx)
}

func (m *Module) taskAdd(ctx context.Context, domain string, it map[string]any) (string, error) {
	gid, now := paramInt(it, "prggid"), m.clk.Now()
	p, err := program.Get(ctx, m.st, domain, gid)
	if errors.Is(err, program.ErrNotFound) {
		return "", wire.Errorf(CodeNoProgram, "program %d does not exist", gid)
	} else if err != nil {
		return "", err
	}
	if p.Recording() {
		return p.Alias(), wire.Errorf(CodeBadState, "program %d is being recorded", gid)
	}
	force := paramInt(it, "enforcetrans") == 1
	old, err := m.taskOf(ctx, domain, gid)
	switch {
	case err == nil && !isDone(old):
		return p.Alias(), wire.Errorf(CodeTaskExists, "program %d has a transcoding task", gid)
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return "", err
	case !force && program.Types(p)&program.TypeMP4 != 0:
		prev, _ := p.Doc["transcoded"].(map[string]any)
		if prev == nil {
			return p.Alias(), wire.Errorf(CodeTranscoded, "program %d has an mp4 file", gid)
		}
		if paramInt(prev, "restype") == paramInt(it, "restype") && paramInt(prev, "picmergerstyle") == paramInt(it, "picmergerstyle") {
			return p.Alias(), wire.Errorf(CodeTranscodedSame, "program %d is transcoded with these parameters", gid)
		}
		return p.Alias(), wire.Errorf(CodeTranscodedOther, "program %d is transcoded with other parameters", gid)
	}
	doc := map[string]any{
		"prggid": gid, "prgalias": p.Alias(), "dsttype": paramInt(it, "dsttype"), "restype": paramInt(it, "restype"),
		"picmergerstyle": paramInt(it, "picmergerstyle"), "total_ms": max(p.LengthMs(now)/TranscodeSpeed, 1000),
		"done_ms": 0, "anchor_ms": 0, "taskerrno": 0,
	}
	data, _ := shape.Encode(doc)
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
func (m *Module) taskOperate(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := adminOnly(r); err != nil {
		return nil, err
	}
	domain, now := r.Principal.DomainMoid, m.clk.Now()
	var out []any
	for _, it := range paramList(r.Args.Params, "operateparams") {
		gid := paramInt(it, "prggid")
		t, err := m.taskOf(ctx, domain, gid)
		if errors.Is(err, store.ErrNotFound) {
			err = wire.Errorf(CodeNoTask, "program %d has no transcoding task", gid)
		} else if err == nil {
			err = m.taskOp(ctx, &t, paramInt(it, "opcode"), now)
			if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
				err = wire.Errorf(CodeBadState, "the task of program %d changed meanwhile", gid)
			}
		}
		code, err := itemCode(err)
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"prggid": gid, "prgalias": record.Str(t.doc, "prgalias"), "operrno": code})
	}
	return wire.Object{"operatereturns": orEmpty(out)}, m.RunDue(ctx)
}

func (m *Module) taskOp(ctx context.Context, t *task, op int, now time.Time) error {
	gid := record.Int(t.doc, "prggid")
	switch {
	case op == opCancel:
		return m.st.DeleteRecord(ctx, kindTask, t.rec.DomainMoid, t.rec.ID)
	case isDone(*t):
		return wire.Errorf(CodeTranscoded, "program %d is transcoded", gid)
	case op == opStart && t.rec.State != taskPaused:
		return wire.Errorf(CodeTaskStarted, "the task of program %d is started", gid)
	case op == opStart:
		t.rec.State = taskReady
		t.doc["taskerrno"] = 0
	case t.rec.State == taskPaused: // pause
		return wire.Errorf(CodeTaskPaused, "the task of program %d is paused", gid)
	default:
		t.doc["done_ms"] = workMs(*t, now)
		t.rec.State, t.rec.DueAt = taskPaused, time.Time{}
		t.doc["taskerrno"] = errUserPause
	}
	return m.saveTask(ctx, t)
}

// taskList pages through the domain's tasks with their progress at now.
func (m *Module) taskList(ctx context.Context, r *api.Request) (wire.Object, error) {
	if err := m.RunDue(ctx); err != nil {
		return nil, err
	}
	var recs []store.Record
	if domainSelected(r) {
		var err error
		if recs, _, err = m.st.ListRecords(ctx, store.RecordQuery{Kind: kindTask, DomainMoid: r.Principal.DomainMoid}); err != nil {
			return nil, err
		}
	}
	now, gid, state := m.clk.Now(), queryInt(r, "prggid"), queryInt(r, "state")
	var views []map[string]any
	for _, rec := range recs {
		doc, err := shape.Decode(rec.Data)
		if err != nil {
			return nil, err
		}
		t := task{rec, doc}
		switch {
		case gid != 0 && record.Int(doc, "prggid") != gid,
			state == 3 && !isDone(t), state == 4 && isDone(t),
			!includes(r, record.Str(doc, "prgalias")):
			continue
		}
		views = append(views, map[string]any{
			"dsttype": doc["dsttype"], "percent": percent(t, now), "picmergerstyle": doc["picmergerstyle"],
			"prgalias": doc["prgalias"], "prggid": doc["prggid"], "restype": doc["restype"],
			"state": taskStates[rec.State], "taskerrno": doc["taskerrno"],
		})
	}
	if key, ok := taskKeys[queryInt(r, "orderindex")]; ok {
		desc := queryInt(r, "desc") == 1
		slices.SortStableFunc(views, func(a, b map[string]any) int {
			c := compareAny(key(a), key(b))
			if desc {
				return -c
			}
			return c
		})
	}
	pg := page(r)
	return shape.Project(map[string]any{"prgcount": len(views), "pageid": pg.ID, "taskinfo": toAny(paging.Cut(views, pg.Window()))}, r.Endpoint.Reply), nil
}

// taskKeys are the sort keys of orderindex 1 to 4.
var taskKeys = map[int]func(v map[string]any) any{
	1: func(v map[string]any) any { return record.Str(v, "prgalias") },
	2: func(v map[string]any) any { return record.Int(v, "percent") },
	3: func(v map[string]any) any { return record.Int(v, "dsttype") },
	4: func(v map[string]any) any { return record.Int(v, "state") },
}
