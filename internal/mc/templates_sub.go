package mc

import (
	"context"
	"encoding/json"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
)

// The views of one personal template (reference 04 sections 15-20): the
// simple detail with member counts, and its participants, mixing, VIP,
// picture-composition and poll settings with their member lists paged by
// start and count (order is reserved: members keep their stored order).

// tplSimple is the simple detail: the settings without the member lists,
// with invite_num, mix_num, vmp_num, vip_num and poll_num counting them.
// The stored template decodes into the generated reply, and its lists
// are counted without decoding their members.
func (m *Module) tplSimple(ctx context.Context, r *api.Request) (*model.MCPersonalTemplatesSimpleGetReply, error) {
	rec, err := m.loadRecord(ctx, r, tplPersonal.kind, r.Path("id"), tplPersonal.personal, CodeTemplateNotFound, tplPersonal.what)
	if err != nil {
		return nil, err
	}
	type members struct {
		Members []json.RawMessage `json:"members"`
	}
	var lists struct {
		InviteMembers []json.RawMessage `json:"invite_members"`
		VIPs          []json.RawMessage `json:"vips"`
		Mix           members           `json:"mix"`
		VMP           members           `json:"vmp"`
		Poll          members           `json:"poll"`
	}
	out := &model.MCPersonalTemplatesSimpleGetReply{}
	if err := json.Unmarshal(rec.Data, out); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(rec.Data, &lists); err != nil {
		return nil, err
	}
	out.InviteNum, out.MixNum, out.VMPNum = len(lists.InviteMembers), len(lists.Mix.Members), len(lists.VMP.Members)
	out.VIPNum, out.PollNum = len(lists.VIPs), len(lists.Poll.Members)
	return out, nil
}

// tplPage serves a member view of a personal template: the stored
// template decoded into the view's generated reply R, whose list (that
// members gives, nil when its object is absent) is cut to the page that
// start and count select (count 0: all), total counting the whole list.
func tplPage[R any, PR interface {
	*R
	api.Reply
}, E any](m *Module, members func(PR) (*[]E, *int)) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (PR, error) {
		rec, err := m.loadRecord(ctx, r, tplPersonal.kind, r.Path("id"), tplPersonal.personal, CodeTemplateNotFound, tplPersonal.what)
		if err != nil {
			return nil, err
		}
		out := PR(new(R))
		if err := json.Unmarshal(rec.Data, out); err != nil {
			return nil, err
		}
		if list, total := members(out); list != nil {
			w, _ := listPage(r)
			*total = len(*list)
			*list = paging.Cut(*list, w)
		}
		return out, nil
	})
}

// The member views: the participants, the VIPs, and the members of the
// mix, the composition and the poll.
func (m *Module) tplInviteMembers() api.Handler {
	return tplPage(m, func(o *model.MCPersonalTemplatesInviteMembersListReply) (*[]model.MCPersonalTemplatesInviteMembersListReplyInviteMember, *int) {
		return &o.InviteMembers, &o.Total
	})
}

func (m *Module) tplVIPs() api.Handler {
	return tplPage(m, func(o *model.MCPersonalTemplatesVIPGetReply) (*[]model.MCPersonalTemplatesVIPGetReplyVIP, *int) {
		return &o.VIPs, &o.Total
	})
}

func (m *Module) tplMix() api.Handler {
	return tplPage(m, func(o *model.MCPersonalTemplatesMixGetReply) (*[]model.MCPersonalTemplatesGetReplyMixMember, *int) {
		if o.Mix == nil {
			return nil, nil
		}
		return &o.Mix.Members, &o.Total
	})
}

func (m *Module) tplVMP() api.Handler {
	return tplPage(m, func(o *model.MCPersonalTemplatesVMPGetReply) (*[]model.MCPersonalTemplatesGetReplyVMPMember, *int) {
		if o.VMP == nil {
			return nil, nil
		}
		return &o.VMP.Members, &o.Total
	})
}

func (m *Module) tplPoll() api.Handler {
	return tplPage(m, func(o *model.MCPersonalTemplatesPollGetReply) (*[]model.MCPersonalTemplatesGetReplyVMPMemberPollMember, *int) {
		if o.Poll == nil {
			return nil, nil
		}
		return &o.Poll.Members, &o.Total
	})
}
