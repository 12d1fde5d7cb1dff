package mc

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Personal and public templates (seed 001 "Conference management (mc)";
// reference 04 sections 1-10). Both are conference settings stored as
// documents of the newest model; they differ in who sees and changes them
// (tplScope). The sub-resources of personal templates are in
// templates_sub.go, the checks in templates_check.go.

// tplDescOK is the description of a successful change (reference 04:
// "操作成功!").
const tplDescOK = "operation succeeded"

// tplScope is what differs between personal and public templates.
type tplScope struct {
	kind      string // store record kind
	what      string // the object's name in descriptions
	listField string // the list field of the list reply; also the path segment
	// personal: owned by the creating account and seen by nobody else;
	// e164 pre-allocated when bind_e164 is 1. Otherwise domain-wide,
	// changed by administrators only.
	personal bool
	keyMax   int // encrypted_key limit in bytes (reference 04: 32 personal, 16 public)
	// byCreation: the list is ordered by creation time (reference 04, public
	// templates) instead of last modification (personal templates).
	byCreation bool
}

var (
	tplPersonal = tplScope{kind: record.KindPersonalTemplate, what: "personal template",
		listField: "personal_templates", personal: true, keyMax: 32}
	tplPublic = tplScope{kind: record.KindPublicTemplate, what: "public template",
		listField: "public_templates", keyMax: 16, byCreation: true}
)

// mayWrite: public templates are created, modified and deleted by
// administrators of the user domain only (20005); everyone of the domain
// reads them.
func (sc tplScope) mayWrite(r *api.Request) error {
	if sc.personal {
		return nil
	}
	return adminOnly(r, sc.what+"s")
}

// tplList lists the scope's templates. A stored template is a document
// of the newest model, so it decodes into the list's generated item.
func (m *Module) tplList(sc tplScope) api.Handler {
	if sc.personal {
		return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPersonalTemplatesListReply, error) {
			recs, total, err := m.tplPageOf(ctx, r, sc)
			if err != nil {
				return nil, err
			}
			out := &model.MCPersonalTemplatesListReply{Total: total}
			out.PersonalTemplates, err = decodeAll[model.MCPersonalTemplatesListReplyPersonalTemplate](recs)
			return out, err
		})
	}
	return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPublicTemplatesListReply, error) {
		recs, total, err := m.tplPageOf(ctx, r, sc)
		if err != nil {
			return nil, err
		}
		out := &model.MCPublicTemplatesListReply{Total: total}
		out.PublicTemplates, err = decodeAll[model.MCPublicTemplatesListReplyPublicTemplate](recs)
		return out, err
	})
}

// tplPageOf is the page of the scope's records a list shows, and their
// total.
func (m *Module) tplPageOf(ctx context.Context, r *api.Request, sc tplScope) ([]store.Record, int, error) {
	if sc.byCreation {
		return m.tplListByCreation(ctx, r, sc)
	}
	return m.listRecords(ctx, r, sc.kind, sc.personal)
}

// decodeAll decodes stored documents into T.
func decodeAll[T any](recs []store.Record) ([]T, error) {
	out := make([]T, len(recs))
	for i, rec := range recs {
		if err := json.Unmarshal(rec.Data, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tplListByCreation pages through the scope's records ordered by creation
// time (then id), which the store's paging (by last update) cannot do.
func (m *Module) tplListByCreation(ctx context.Context, r *api.Request, sc tplScope) ([]store.Record, int, error) {
	recs, err := m.tplAll(ctx, r, sc)
	if err != nil {
		return nil, 0, err
	}
	w, desc := listPage(r)
	sort.SliceStable(recs, func(i, j int) bool {
		a, b := recs[i], recs[j]
		if desc {
			a, b = b, a
		}
		if !a.CreatedAt.Equal(b.CreatedAt) {
			return a.CreatedAt.Before(b.CreatedAt)
		}
		return a.ID < b.ID
	})
	return paging.Cut(recs, w), len(recs), nil
}

// tplAll returns every record of the scope that the caller sees.
func (m *Module) tplAll(ctx context.Context, r *api.Request, sc tplScope) ([]store.Record, error) {
	q := store.RecordQuery{Kind: sc.kind, DomainMoid: r.Principal.DomainMoid}
	if sc.personal {
		q.OwnerMoid = r.Principal.AccountMoid
	}
	recs, _, err := m.st.ListRecords(ctx, q)
	return recs, err
}

// tplGet shows a template: its stored document decoded into the
// generated reply.
func (m *Module) tplGet(sc tplScope) api.Handler {
	if sc.personal {
		return tplGetAs[model.PersonalTemplate](m, sc)
	}
	return tplGetAs[model.PublicTemplate](m, sc)
}

// tplGetAs serves a template's detail as T, its generated reply.
func tplGetAs[T any, PT interface {
	*T
	api.Reply
}](m *Module, sc tplScope) api.Handler {
	return api.Typed(func(ctx context.Context, r *api.Request) (PT, error) {
		rec, err := m.loadRecord(ctx, r, sc.kind, r.Path("id"), sc.personal, CodeTemplateNotFound, sc.what)
		if err != nil {
			return nil, err
		}
		out := PT(new(T))
		return out, json.Unmarshal(rec.Data, out)
	})
}

// tplChanged serves a change of the scope's templates, change returning
// the template's id, with the scope's reply: template_id and the
// description. A deletion answers the same members (its reply keeps
// template_id before 5.1.0.2.0, see tplDelete), so its reply is the
// modification's generated type, which holds them: the newest model's
// deletion reply has no template_id.
func tplChanged(sc tplScope, change func(context.Context, *api.Request) (string, error), create bool) api.Handler {
	switch {
	case sc.personal && create:
		return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPersonalTemplatesCreateReply, error) {
			id, err := change(ctx, r)
			return &model.MCPersonalTemplatesCreateReply{TemplateID: id, Description: tplDescOK}, err
		})
	case sc.personal:
		return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPersonalTemplatesUpdateReply, error) {
			id, err := change(ctx, r)
			return &model.MCPersonalTemplatesUpdateReply{TemplateID: id, Description: tplDescOK}, err
		})
	case create:
		return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPublicTemplatesCreateReply, error) {
			id, err := change(ctx, r)
			return &model.MCPublicTemplatesCreateReply{TemplateID: id, Description: tplDescOK}, err
		})
	}
	return api.Typed(func(ctx context.Context, r *api.Request) (*model.MCPublicTemplatesUpdateReply, error) {
		id, err := change(ctx, r)
		return &model.MCPublicTemplatesUpdateReply{TemplateID: id, Description: tplDescOK}, err
	})
}

func (m *Module) tplCreate(sc tplScope) api.Handler {
	return tplChanged(sc, func(ctx context.Context, r *api.Request) (string, error) {
		if err := sc.mayWrite(r); err != nil {
			return "", err
		}
		doc := sc.newDoc()
		if err := doc.apply(r, sc); err != nil {
			return "", err
		}
		if err := m.tplNameFree(ctx, r, sc, doc.name(), ""); err != nil {
			return "", err
		}
		if err := m.tplBindE164(ctx, doc, ""); err != nil {
			return "", err
		}
		now := m.clk.Now()
		rec := store.Record{Kind: sc.kind, DomainMoid: r.Principal.DomainMoid, CreatedAt: now, UpdatedAt: now}
		if sc.personal {
			rec.OwnerMoid = r.Principal.AccountMoid
		}
		return m.insertNumbered(ctx, rec, func(id string) ([]byte, error) {
			doc.finish(id)
			return encodeDoc(doc)
		}, "template", 9000000, 9999999)
	}, true)
}

// tplUpdate modifies a template (POST to the item): the fields sent replace
// the stored ones (a nested object as a whole), the others stay. The change
// is swapped in over the version it was read at, and redone on a
// concurrent change, so that two modifications of different fields both
// hold.
func (m *Module) tplUpdate(sc tplScope) api.Handler {
	return tplChanged(sc, func(ctx context.Context, r *api.Request) (string, error) {
		if err := sc.mayWrite(r); err != nil {
			return "", err
		}
		for try := 0; ; try++ {
			id, err := m.tplUpdateOnce(ctx, r, sc)
			if errors.Is(err, store.ErrConflict) && try < 10 {
				continue
			}
			return id, err
		}
	}, false)
}

func (m *Module) tplUpdateOnce(ctx context.Context, r *api.Request, sc tplScope) (string, error) {
	rec, err := m.loadRecord(ctx, r, sc.kind, r.Path("id"), sc.personal, CodeTemplateNotFound, sc.what)
	if err != nil {
		return "", err
	}
	doc := sc.newDoc()
	if err := decodeDoc(rec.Data, doc); err != nil {
		return "", err
	}
	seen, err := encodeDoc(doc) // what the type holds of the record
	if err != nil {
		return "", err
	}
	var oldE164 string
	if pd, ok := doc.(*personalDoc); ok && pd.BindE164 == 1 {
		oldE164 = pd.E164
	}
	if err := doc.apply(r, sc); err != nil {
		return "", err
	}
	if err := m.tplNameFree(ctx, r, sc, doc.name(), rec.ID); err != nil {
		return "", err
	}
	if err := m.tplBindE164(ctx, doc, oldE164); err != nil {
		return "", err
	}
	doc.finish(rec.ID)
	if rec.Data, err = encodeOver(rec.Data, seen, doc); err != nil {
		return "", err
	}
	rec.UpdatedAt = m.clk.Now()
	if err := m.st.SwapRecord(ctx, rec); err != nil {
		if errors.Is(err, store.ErrNotFound) { // deleted meanwhile
			return "", wire.Errorf(CodeTemplateNotFound, "%s %s does not exist", sc.what, rec.ID)
		}
		return "", err
	}
	return rec.ID, nil
}

// tplDelete deletes a template. The reply carries template_id, which the
// compatibility rules keep only for releases before 5.1.0.2.0 (seed 001
// 5.1.0.2.0; reference A1).
func (m *Module) tplDelete(sc tplScope) api.Handler {
	return tplChanged(sc, func(ctx context.Context, r *api.Request) (string, error) {
		if err := sc.mayWrite(r); err != nil {
			return "", err
		}
		rec, err := m.loadRecord(ctx, r, sc.kind, r.Path("id"), sc.personal, CodeTemplateNotFound, sc.what)
		if err != nil {
			return "", err
		}
		if err := m.st.DeleteRecord(ctx, sc.kind, rec.DomainMoid, rec.ID); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return "", wire.Errorf(CodeTemplateNotFound, "%s %s does not exist", sc.what, rec.ID)
			}
			return "", err
		}
		return rec.ID, nil
	}, false)
}
