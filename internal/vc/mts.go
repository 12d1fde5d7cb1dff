package vc

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/media"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// The terminals of the local conference (reference 05 items 5, 6, 8 and
// 9: "获取本级会议终端列表", "获取与会终端信息", "批量添加本级终端",
// "批量删除终端"; seed 000 "Terminal entry"; seed 001 5.1.0.2.0: the
// reply of adding gains mts). Terminals are engine records; replies
// project their documents with the reply schemas.

// mtConf reads the running conference of the request's path in the
// caller's domain (12103 otherwise) and its engine view.
func (m *Module) mtConf(ctx context.Context, r *api.Request) (engine.Conference, engine.Conf, error) {
	c, err := m.confs.Get(ctx, r.Principal.DomainMoid, r.Path("conf_id"), engine.StateRunning)
	if err != nil {
		return c, engine.Conf{}, err
	}
	ec := engine.ConfOf(c)
	ec.MaxJoinMt = c.Ports()
	return c, ec, nil
}

// mtErr turns the engine's errors into the reference's codes: 12104 for
// a terminal the conference lacks, 20401 for one that is not online.
func mtErr(err error, confID, mtID string) error {
	switch {
	case errors.Is(err, engine.ErrNotFound):
		return wire.Errorf(wire.CodeMTNotFound, "terminal %s does not exist in conference %s", mtID, confID)
	case errors.Is(err, engine.ErrNotOnline):
		return wire.Errorf(CodeMtUnreachable, "terminal %s of conference %s is not online", mtID, confID)
	case errors.Is(err, engine.ErrFull):
		return wire.Errorf(CodeMtsOverConf, "conference %s would exceed its max_join_mt terminals", confID)
	case errors.Is(err, media.ErrUnsupported):
		return wire.Errorf(CodeMtUnsupported, "terminal %s of conference %s does not support the control", mtID, confID)
	}
	return err
}

// listMts lists the conference's terminals in mt_id order.
func (m *Module) listMts(ctx context.Context, r *api.Request) (*model.VCConfsMtsListReply, error) {
	ts, err := m.localMts(ctx, r)
	if err != nil {
		return nil, err
	}
	return mtItems(ts), nil
}

// localMts reads the terminals of the request's conference.
func (m *Module) localMts(ctx context.Context, r *api.Request) ([]engine.Terminal, error) {
	_, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	return m.engine.List(ctx, ec)
}

// getMt shows one terminal with its channels and volumes.
func (m *Module) getMt(ctx context.Context, r *api.Request) (api.Reply, error) {
	c, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	t, err := m.engine.Detail(ctx, ec, r.Path("mt_id")) // with its media session's channels
	if err != nil {
		return nil, mtErr(err, c.ID(), r.Path("mt_id"))
	}
	out := mtDetail(t)
	if id := r.Path("mt_id"); strings.Contains(id, ".") {
		// A subordinate's terminal (issue 13), by its cascaded mt_id.
		// Reference 05: protocol and call_mode are not returned for it.
		out.MtID = strings.TrimPrefix(id, "0.")
		return api.Without(out, "protocol", "call_mode"), nil
	}
	return out, nil
}

// mtMembers reads the mts parameter of adding: account, account_type,
// bitrate and protocol (required by the schema; seed 000: bitrate in each
// entry) and call_mode (-1, the conference's, when absent).
// The request of a cascade's adding (vc.confs.cascades.mts.add) has the
// members of the local one's but call_mode: both are read as the local's.
func mtMembers(a *wire.Args) ([]engine.Member, error) {
	var q model.VCConfsMtsAddRequest
	if err := q.Decode(a); err != nil {
		return nil, err
	}
	if len(q.Mts) == 0 {
		return nil, wire.InvalidParam("mts", "must name at least one terminal")
	}
	out := make([]engine.Member, 0, len(q.Mts))
	for i, e := range q.Mts {
		if e.Account == "" {
			return nil, wire.InvalidParam("mts["+strconv.Itoa(i)+"].account", "must not be empty")
		}
		if e.Bitrate < 0 {
			return nil, wire.InvalidParam("mts["+strconv.Itoa(i)+"].bitrate", "must not be negative")
		}
		out = append(out, engine.Member{CallMode: e.CallMode.Or(-1), Callee: media.Callee{Account: e.Account,
			AccountType: e.AccountType, Protocol: e.Protocol, Bitrate: e.Bitrate}})
	}
	return out, nil
}

// mtAdd adds terminals to the local conference and calls those whose call
// mode is not manual. The conference's max_join_mt (20566) and the
// platform's terminal ports (20301) bound them; a refused request adds
// none. It returns the reply entries: account, account_type, protocol,
// mt_id (an integer, as the reference writes it).
//
// cascadeID names the conference of the cascade that gains them: "0" the
// conference of the path, another the subordinate it names (issue 13).
func (m *Module) mtAdd(ctx context.Context, r *api.Request, cascadeID string) ([]model.VCConfsMtsAddReplyMt, error) {
	members, err := mtMembers(r.Args)
	if err != nil {
		return nil, err
	}
	m.mtAddMu.Lock()
	defer m.mtAddMu.Unlock()
	c, ec, err := m.mtConf(ctx, r)
	if err != nil {
		return nil, err
	}
	if c, ec, err = m.cascadeTarget(ctx, c, ec, cascadeID); err != nil {
		return nil, err
	}
	if err := m.cascadeCheck(ctx, c, members); err != nil {
		return nil, err
	}
	room, err := m.mtRoomOf(ctx, c, ec)
	if err != nil {
		return nil, err
	}
	if err := mtFits(c.ID(), room, len(members)); err != nil {
		return nil, err
	}
	ts, err := m.engine.Add(ctx, ec, members)
	if err != nil {
		return nil, mtErr(err, c.ID(), "")
	}
	out := make([]model.VCConfsMtsAddReplyMt, len(ts))
	for i, t := range ts {
		id, _ := strconv.Atoi(t.MtID())
		out[i] = model.VCConfsMtsAddReplyMt{Account: t.Account(), AccountType: t.AccountType(),
			Protocol: t.Protocol(), MtID: id}
	}
	return out, nil
}

// mtRoom is what bounds an adding of terminals: the conference's
// terminals and its max_join_mt, the platform's terminals and terminal
// ports, and what the user domain's share leaves when shares are on
// (--domain-share, engine/share.go).
type mtRoom struct {
	Have, MaxJoin int
	All, Ports    int
	DomainLeft    int
	Shared        bool
}

// mtRoomOf reads the room of the conference c for an adding.
func (m *Module) mtRoomOf(ctx context.Context, c engine.Conference, ec engine.Conf) (mtRoom, error) {
	room := mtRoom{MaxJoin: ec.MaxJoinMt, Ports: m.confs.Config().MaxPorts}
	var err error
	if room.Have, err = m.engine.Count(ctx, ec); err != nil {
		return room, err
	}
	if room.All, err = m.st.CountRecords(ctx, store.RecordQuery{Kind: record.KindMT}); err != nil {
		return room, err
	}
	room.DomainLeft, room.Shared, err = m.confs.DomainPortsLeft(ctx, c.Rec.DomainMoid, c.ID())
	return room, err
}

// mtFits is the rule of an adding of n terminals to conference confID:
// within its max_join_mt (20566), the platform's terminal ports (20301)
// and the user domain's share of them (20301); a refused adding adds
// none.
func mtFits(confID string, room mtRoom, n int) error {
	if room.Have+n > room.MaxJoin {
		return wire.Errorf(CodeMtsOverConf, "conference %s holds %d of its %d terminals (max_join_mt); %d more do not fit",
			confID, room.Have, room.MaxJoin, n)
	}
	if room.All+n > room.Ports {
		return wire.Errorf(CodeMtsOverMCU, "the platform's %d terminal ports hold %d terminals; %d more do not fit",
			room.Ports, room.All, n)
	}
	if room.Shared && n > room.DomainLeft {
		return wire.Errorf(CodeMtsOverMCU, "the user domain's share of the platform's terminal ports (--domain-share) leaves room for %d more terminals; %d do not fit",
			room.DomainLeft, n)
	}
	return nil
}

// addMts answers error_code 0 and the added terminals (seed 000 "Response
// envelope"; the mts list from 5.1.0.2.0, removed for older releases by
// the compat rules).
func (m *Module) addMts(ctx context.Context, r *api.Request) (*model.VCConfsMtsAddReply, error) {
	added, err := m.mtAdd(ctx, r, LocalCascade)
	if err != nil {
		return nil, err
	}
	return &model.VCConfsMtsAddReply{Mts: added}, nil
}

// mtIDs reads a parameter mts of {mt_id} elements, without repeats (the
// batch endpoints' lists, read as the hang-up's).
func mtIDs(a *wire.Args) ([]string, error) {
	var q model.VCConfsOnlineMtsHangupRequest
	if err := q.Decode(a); err != nil {
		return nil, err
	}
	return batchIDs(q.Mts)
}

// mtCheck answers 12104 unless every terminal of ids is in the conference,
// so that a batch changes all of its terminals or none.
func (m *Module) mtCheck(ctx context.Context, ec engine.Conf, ids []string) error {
	for _, id := range ids {
		if _, err := m.engine.Get(ctx, ec, id); err != nil {
			return mtErr(err, ec.ConfID, id)
		}
	}
	return nil
}

// deleteMts hangs up and removes terminals (synchronous for the local
// conference); the engine's Features.Left (leave.go) drops them from the roles
// and the upload.
func (m *Module) deleteMts(ctx context.Context, r *api.Request) error {
	return m.batchMts(ctx, r, m.engine.Remove)
}
