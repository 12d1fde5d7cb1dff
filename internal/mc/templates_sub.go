package mc

import (
	"context"
	"encoding/json"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/wire"
)

// The views of one personal template (reference 04 sections 15-20): the
// simple detail with member counts, and its participants, mixing, VIP,
// picture-composition and poll settings with their member lists paged by
// start and count (order is reserved: members keep their stored order).

// tplSimple is the simple detail: the settings without the member lists,
// with invite_num, mix_num, vmp_num, vip_num and poll_num counting them.
// The stored template decodes into the generated reply, and its lists
// are counted without decoding their members.
func (m *Module) tplSimple(ctx context.Context, r *api.Request) (wire.Object, error) {
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
	var out model.MCPersonalTemplatesSimpleGetReply
	if err := json.Unmarshal(rec.Data, &out); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(rec.Data, &lists); err != nil {
		return nil, err
	}
	out.InviteNum, out.MixNum, out.VMPNum = len(lists.InviteMembers), len(lists.Mix.Members), len(lists.VMP.Members)
	out.VIPNum, out.PollNum = len(lists.VIPs), len(lists.Poll.Members)
	return out.Wire(), nil
}

// tplMembers serves the view of field (a list, or with sub the list sub of
// the object field): total counts the whole list, the reply holds the page
// that start and count select (count 0: all).
func (m *Module) tplMembers(field, sub string) api.Handler {
	return func(ctx context.Context, r *api.Request) (wire.Object, error) {
		_, doc, err := m.tplLoad(ctx, r, tplPersonal)
		if err != nil {
			return nil, err
		}
		list := tplList(doc, field, sub)
		w, _ := listPage(r)
		page := paging.Cut(list, w)
		if sub == "" {
			doc[field] = page
		} else if obj, _ := doc[field].(map[string]any); obj != nil {
			obj[sub] = page
		}
		out := shape.Project(doc, r.Endpoint.Reply)
		out["total"] = len(list)
		return out, nil
	}
}

// tplList returns the list doc[field] or, with sub, doc[field][sub].
func tplList(doc map[string]any, field, sub string) []any {
	if sub == "" {
		l, _ := doc[field].([]any)
		return l
	}
	obj, _ := doc[field].(map[string]any)
	l, _ := obj[sub].([]any)
	return l
}
