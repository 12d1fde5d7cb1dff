package vc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/wire"
)

// Recording (reference 05 items 48 to 52; seed 001 "Recording"). A
// recording starts at once (state 1; the preparing and calling states of
// a real recorder are not simulated), can be paused and resumed, and is
// stopped by DELETE; its length follows the clock minus the pauses. A
// stopped recording (recorder_mode 1 or 3: live-only broadcasts keep no
// file) becomes a program of the recording system (rec_program.go).
//
// The running recordings are stored in the conference document under
// vc_recorders, read and written as engine.Conference.Recorders
// (engine.Recording, engine/own_rec.go), each with the start parameters
// and:
//
//	rec_id      a numeric string from the store counter "vc_recorder",
//	            unique across conferences (so that older releases can
//	            read it as an integer, compat 5.1.0.2.1)
//	state       1 recording, 2 paused
//	started_at  UNIX ms of the start
//	paused_at   UNIX ms of the current pause, 0 when recording
//	paused_ms   length of the earlier pauses in ms
//
// A terminal recording (recorder_type 2) sets the rec flag of its
// terminals while it runs.

// Recording types, states and limits.
const (
	recTypeConf     = 1
	recTypeTerminal = 2
	recRecording    = 1
	recPaused       = 2
	recValuePause   = 1 // recorders/state value; 2 resumes
	recMaxName      = 64
	recBadChars     = "%:&*^~'\"?/\\<>|`$"
	recBadEnds      = "_-@."
	recCounter      = "vc_recorder"
)

// recMembers are a recording's terminals as the replies show them.
func recMembers(rc engine.Recording) []model.VCConfsRecordersListReplyRecorderMember {
	out := make([]model.VCConfsRecordersListReplyRecorderMember, len(rc.Members))
	for i, id := range rc.Members {
		out[i].MtID = id
	}
	return out
}

// recView is a stored recording as the replies show it (what only the
// store keeps is left out).
func recView(rc engine.Recording, now time.Time) model.VCConfsRecordersListReplyRecorder {
	return model.VCConfsRecordersListReplyRecorder{RecID: rc.RecID, VideoName: rc.VideoName, RecorderType: rc.RecorderType,
		State: rc.State, Anonymous: rc.Anonymous, RecorderMode: rc.RecorderMode, MainStream: rc.MainStream,
		DualStream: rc.DualStream, PublishMode: rc.PublishMode, Watermark: rc.Watermark,
		CurrentProgress: int(recLength(rc, now) / time.Second), Members: recMembers(rc)}
}

// recFind returns the index of a running recording in c.Recorders (-1
// when none).
func recFind(c engine.Conference, recID string) int {
	for i, rc := range c.Recorders {
		if rc.RecID == recID {
			return i
		}
	}
	return -1
}

// recDrop takes the i-th running recording out of c (the list stays
// stored, empty, once its last recording stopped).
func recDrop(c *engine.Conference, i int) {
	c.Recorders = append(c.Recorders[:i:i], c.Recorders[i+1:]...)
}

func errRecNameExists(name string) error {
	return wire.Errorf(CodeRecNameExists, "a recording or program named %q exists", name)
}

func recUnknown(c engine.Conference, recID string) error {
	return wire.Errorf(CodeRecNotRecording, "conference %s has no recording %q", c.ID(), recID)
}

// recStart starts a recording and answers its rec_id.
func (m *Module) recStart(ctx context.Context, r *api.Request) (*model.VCConfsRecordersCreateReply, error) {
	var q model.VCConfsRecordersCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	name := q.VideoName
	if err := recName(name); err != nil {
		return nil, err
	}
	vrsID := q.VRSID
	if vrsID == "" {
		vrsID = vrsIDOf(r.Principal.DomainMoid) // older releases have no vrs_id
	} else if vrsID != vrsIDOf(r.Principal.DomainMoid) {
		return nil, wire.Errorf(CodeRecVRSFault, "vrs_id %q is not a recording server of the user domain", vrsID)
	}
	recType := q.RecorderType
	var ids []string
	if recType == recTypeTerminal {
		if ids = mixMemberIDs(q.Members); len(ids) == 0 {
			return nil, wire.InvalidParam("members", "a terminal recording names the terminals to record")
		}
	}
	rtmpURL, err := rtmpParam(q.XConferRtmpURL.Or(""), q.RecorderMode, m.canPush())
	if err != nil {
		return nil, err
	}
	if err := m.programNameFree(ctx, r.Principal.DomainMoid, name); err != nil {
		return nil, err
	}
	var recID string
	var started engine.Recording // the stored recording, for the media side
	c, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		ts, err := m.tlTerminals(ctx, *c)
		if err != nil {
			return false, err
		}
		busy := map[string]bool{}
		for _, rc := range c.Recorders {
			if rc.VideoName == name {
				return false, errRecNameExists(name)
			}
			if rc.RecorderType == recTypeConf && recType == recTypeConf {
				return false, wire.Errorf(CodeRecConfRecording, "conference %s is already recorded (rec_id %s)", c.ID(), rc.RecID)
			}
			for _, id := range rc.Members {
				busy[id] = true
			}
		}
		members := []string{}
		for i, id := range ids {
			if err := tlMember(*c, ts, fmt.Sprintf("members[%d].mt_id", i), id, true); err != nil {
				return false, err
			}
			if busy[id] {
				return false, wire.Errorf(CodeRecMtRecording, "terminal %s is already recorded", id)
			}
			members = append(members, id)
		}
		// The rec_id is drawn once every check has passed: a refused
		// request changes nothing, not even the counter (docs/api.md).
		n, err := m.st.NextNumber(ctx, recCounter, 1, 1<<31-1)
		if err != nil {
			return false, err
		}
		recID = strconv.FormatInt(n, 10)
		started = engine.Recording{RecID: recID, VideoName: name, RecorderType: recType, VrsID: vrsID, Members: members,
			State: recRecording, StartedAt: tlMs(m.clk.Now()), PublishMode: q.PublishMode,
			Watermark: q.Watermark, Anonymous: q.Anonymous, RecorderMode: q.RecorderMode,
			MainStream: q.MainStream, DualStream: q.DualStream, RTMPURL: rtmpURL}
		c.Recorders = append(c.Recorders, started)
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	if err := m.recMediaStart(ctx, c, started); err != nil {
		// No file can be written: the recording is taken back (the
		// counter's rec_id stays drawn) and the request fails.
		_, uerr := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
			i := recFind(*c, recID)
			if i < 0 {
				return false, nil
			}
			recDrop(c, i)
			return true, nil
		})
		return nil, errors.Join(err, uerr)
	}
	if rtmpURL != "" {
		m.rtmpStart(ctx, c, recID, rtmpURL)
	}
	for _, id := range ids {
		if err := m.setTermFlags(ctx, engine.ConfOf(c), id, termFlags{Rec: model.Some(1)}); err != nil {
			return nil, err
		}
	}
	return &model.VCConfsRecordersCreateReply{RecID: recID}, nil
}

// recList answers the running recordings.
func (m *Module) recList(ctx context.Context, r *api.Request) (*model.VCConfsRecordersListReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	now := m.clk.Now()
	var out model.VCConfsRecordersListReply
	for _, rc := range c.Recorders {
		out.Recorders = append(out.Recorders, recView(rc, now))
	}
	return &out, nil
}

// recGet answers one running recording.
func (m *Module) recGet(ctx context.Context, r *api.Request) (*model.VCConfsRecordersGetReply, error) {
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return nil, err
	}
	i := recFind(c, r.Path("rec_id"))
	if i < 0 {
		return nil, recUnknown(c, r.Path("rec_id"))
	}
	v := recView(c.Recorders[i], m.clk.Now())
	return &model.VCConfsRecordersGetReply{VideoName: v.VideoName, RecorderType: v.RecorderType, State: v.State,
		Anonymous: v.Anonymous, RecorderMode: v.RecorderMode, MainStream: v.MainStream, DualStream: v.DualStream,
		PublishMode: v.PublishMode, Watermark: v.Watermark, CurrentProgress: v.CurrentProgress, Members: v.Members}, nil
}

// recState pauses (1) or resumes (2) a recording; pausing a paused one
// changes nothing, resuming one that is not paused is 20803. The
// recorder_mode parameter is not checked against the recording's.
func (m *Module) recState(ctx context.Context, r *api.Request) error {
	var q model.VCConfsRecordersStateUpdateRequest
	if err := q.Decode(r.Args); err != nil {
		return err
	}
	value, recID := q.Value, r.Path("rec_id")
	_, err := m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		i := recFind(*c, recID)
		if i < 0 {
			return false, recUnknown(*c, recID)
		}
		return recStateChange(&c.Recorders[i], value, tlMs(m.clk.Now())) // rec_rules.go
	})
	if err == nil { // after the stored change: a stop meanwhile wins
		err = m.recMediaState(ctx, r.Principal.DomainMoid, r.Path("conf_id"), recID, value == recValuePause)
	}
	return err
}

// recStop stops a recording: it leaves the list and, unless it was a live
// broadcast only, becomes a program.
func (m *Module) recStop(ctx context.Context, r *api.Request) error {
	recID := r.Path("rec_id")
	c, err := m.confRunning(ctx, r)
	if err != nil {
		return err
	}
	i := recFind(c, recID)
	if i < 0 {
		return recUnknown(c, recID)
	}
	rc := c.Recorders[i]
	m.rtmpStop(ctx, c.Rec.DomainMoid, c.ID(), recID)
	parts, err := m.recMediaStop(ctx, c.Rec.DomainMoid, c.ID(), rc) // the file is final before its program is stored
	if err != nil {
		return err
	}
	if err := m.programSave(ctx, c, rc, m.clk.Now(), parts); err != nil {
		return err
	}
	var members []string
	c, err = m.confUpdateReq(ctx, r, func(c *engine.Conference) (bool, error) {
		i := recFind(*c, recID)
		if i < 0 {
			return false, recUnknown(*c, recID)
		}
		members = c.Recorders[i].Members
		recDrop(c, i)
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range members {
		if err := m.setTermFlags(ctx, engine.ConfOf(c), id, termFlags{Rec: model.Some(0)}); err != nil {
			return err
		}
	}
	return nil
}
