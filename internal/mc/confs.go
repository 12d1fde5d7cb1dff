package mc

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/wire"
)

// Creating and ending conferences (reference 04 "创建会议", "结束会议").
// docs/conferences.md describes the behaviour and its decisions.

// confDone is the description of a successful change (reference "操作成功").
const confDone = "operation succeeded"

// confParamsNotCopied are creation parameters that are not fields of the
// conference: its source, and the start time, which the engine sets
// (start_time is no creation parameter of the platform: ignored).
var confParamsNotCopied = map[string]bool{"template_id": true, "create_type": true, "start_time": true, bookingParam: true}

// bookingParam is Confer's booking extension (docs/conferences.md).
const bookingParam = "x_confer_start_time"

// confSourceOnly are fields of a template or virtual meeting room that are not
// fields of the conference made from it.
var confSourceOnly = map[string]bool{
	"id": true, "template_id": true, "e164": true, "bind_e164": true, "status": true, "conf_name": true,
	"exclusive": true, "exclusive_users": true, "create_type": true, "creator": true, "conf_id": true,
	"meeting_id": true, "start_time": true, "end_time": true, "user_domain_moid": true,
	"user_domain_name": true, "meeting_room_name": true, "invite_num": true, "mix_num": true,
	"vmp_num": true, "vip_num": true, "poll_num": true, "description": true,
}

// createConf serves mc.confs.create: an instant conference from the
// parameters, or one from a public template, a personal template or a
// virtual meeting room whose fields the parameters override ("real-time
// parameter passing", seed 001 5.2.0.4.0). A future x_confer_start_time
// (a Confer extension) books it; the platform has no start_time on
// creation and ignores one.
func (m *Module) createConf(ctx context.Context, r *api.Request) (*model.MCConfsCreateReply, error) {
	var q model.MCConfsCreateRequest
	if err := q.Decode(r.Args); err != nil {
		return nil, err
	}
	start, err := bookedStart(q.XConferStartTime)
	if err != nil {
		return nil, err
	}
	ctype := q.CreateType.Or(engine.CreateInstant)
	if err := checkCreateParams(&q); err != nil {
		return nil, err
	}
	// The conference document's open part (conf_doc.go): the source's
	// members and the parameters as sent (their presence matters: what a
	// creation leaves out takes the source's value or the defaults).
	spec := engine.Spec{DomainMoid: r.Principal.DomainMoid, OwnerMoid: r.Principal.AccountMoid, Start: start}
	tid := q.TemplateID.Value
	var source []byte
	var roomName *string
	if ctype == engine.CreateInstant {
		if q.Name.Value == "" {
			return nil, wire.InvalidParam("name", "required when create_type is 1")
		}
		tid = ""
	} else {
		if tid == "" {
			return nil, wire.InvalidParam("template_id", "required when create_type is 2, 3 or 4")
		}
		if source, err = m.confSource(ctx, r, ctype, tid); err != nil {
			return nil, err
		}
		var sv sourceView
		if err := json.Unmarshal(source, &sv); err != nil {
			return nil, err
		}
		spec.Number = string(sv.E164)
		if ctype == engine.CreateRoom {
			roomName = (*string)(&sv.Name)
		}
	}
	var params []byte
	if r.Args.Params != nil {
		if params, err = json.Marshal(r.Args.Params); err != nil {
			return nil, err
		}
	}
	base, err := confBase(source, roomName, params)
	if err != nil {
		return nil, err
	}
	if spec.Doc, err = completeConf(base, ctype, tid, r.Principal); err != nil {
		return nil, err
	}
	c, err := m.confs.CreateOrHold(ctx, spec)
	if err != nil {
		return nil, err
	}
	reply := &model.MCConfsCreateReply{MeetingID: c.MeetingID(), Description: confDone}
	c.Member("conf_id", &reply.ConfID)
	return reply, nil
}

// confSource reads the stored document of the template or virtual
// meeting room a conference is made from: a public template of the
// domain, a personal template of the caller (99998 otherwise), or a room
// of the domain (99996), which an exclusive room admits only for its
// users and administrators (20005).
func (m *Module) confSource(ctx context.Context, r *api.Request, ctype int, id string) ([]byte, error) {
	switch ctype {
	case engine.CreatePublicTemplate:
		rec, err := m.loadRecord(ctx, r, record.KindPublicTemplate, id, false, CodeTemplateNotFound, "public template")
		return rec.Data, err
	case engine.CreatePersonalTemplate:
		rec, err := m.loadRecord(ctx, r, record.KindPersonalTemplate, id, true, CodeTemplateNotFound, "personal template")
		return rec.Data, err
	}
	rec, err := m.loadRecord(ctx, r, record.KindRoom, id, false, CodeRoomNotFound, "virtual meeting room")
	if err != nil {
		return nil, err
	}
	var room roomDoc
	if err := decodeDoc(rec.Data, &room); err != nil {
		return nil, err
	}
	if room.Exclusive.Value == 1 && !r.Principal.Admin && !confExclusiveUser(room, r) {
		return nil, wire.Errorf(wire.CodeNoPermission, "virtual meeting room %s is exclusive to its users", id)
	}
	return rec.Data, nil // copied into the conference's document
}

// confExclusiveUser tells whether the caller is among a room's exclusive_users
// (by account moid or user name).
func confExclusiveUser(room roomDoc, r *api.Request) bool {
	for _, u := range room.ExclusiveUsers {
		if a := u.Account; a == r.Principal.AccountMoid || a == r.Principal.Username {
			return true
		}
	}
	return false
}

// bookedStart reads the booking extension x_confer_start_time (ISO 8601,
// or YYYY-MM-DD HH:MM:SS in the platform's zone); absent or empty starts
// the conference now.
func bookedStart(v model.Opt[string]) (time.Time, error) {
	const want = "must be a time such as 2026-03-01T10:00:00+08:00 or 2026-03-01 10:00:00"
	s, ok := v.Get()
	if !ok || strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := record.ParseTime(s)
	if err != nil {
		return time.Time{}, wire.InvalidParam(bookingParam, want)
	}
	return t, nil
}

// checkCreateParams applies the character rules of reference 04 to the
// parameters sent (a template's stored values were checked when it was
// saved).
func checkCreateParams(q *model.MCConfsCreateRequest) error {
	if name := q.Name.Value; name != "" {
		if len(name) > 64 {
			return wire.InvalidParam("name", "longer than 64 bytes")
		}
		if strings.ContainsAny(name, "%&*^~'\"?/\\<>|`$") {
			return wire.InvalidParam("name", "must not contain % & * ^ ~ ' \" ? / \\ < > | ` $")
		}
		if strings.ContainsAny(name[:1], "_-.@") || strings.ContainsAny(name[len(name)-1:], "_-.@") {
			return wire.InvalidParam("name", "must not begin or end with _ - . @")
		}
	}
	for _, f := range []struct {
		name, v string
	}{{"password", q.Password.Value}, {"encrypted_key", q.EncryptedKey.Value}} {
		v := f.v
		if len(v) > 16 {
			return wire.InvalidParam(f.name, "longer than 16 bytes")
		}
		if strings.Trim(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" {
			return wire.InvalidParam(f.name, "may hold only letters, digits, _ and .")
		}
	}
	if d, ok := q.Duration.Get(); ok && d < 0 {
		return wire.InvalidParam("duration", "must not be negative")
	}
	return nil
}

// mainFormat is the member of the first video format (the main one) that
// gives a conference without bitrate its bitrate, read as record.Int reads
// it (the defaults: docs/conferences.md "Defaults"; automatic calls,
// call_mode 2, every 20 s, call_interval, without a limit, call_times 0,
// as the examples of reference 04 "创建会议" and 05 "获取视频会议信息", at
// 8128 kbps, every reference conference example, unless the main video
// format names one).
type mainFormat struct {
	Bitrate record.Integer `json:"bitrate"`
}

func confFlag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// endConf serves mc.confs.delete: it ends a running conference or cancels
// a booked one of the caller's domain (12103 otherwise). Its creator and
// the domain's administrators may end it (20005 otherwise).
func (m *Module) endConf(ctx context.Context, r *api.Request) (*model.MCConfsDeleteReply, error) {
	id := r.Path("conf_id")
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, id)
	if err != nil {
		return nil, err
	}
	if c.Rec.OwnerMoid != r.Principal.AccountMoid && !r.Principal.Admin {
		return nil, wire.Errorf(wire.CodeNoPermission, "only the creator of conference %s or an administrator may end it", id)
	}
	if err := m.confs.End(ctx, r.Principal.DomainMoid, id); err != nil {
		return nil, err
	}
	return &model.MCConfsDeleteReply{Description: confDone}, nil
}
