package push

import (
	"context"
	"errors"

	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/store"
)

// Cascade terminals (reference 07 "终端列表" /confs/{conf_id}/cascades/
// {cascade_id}/mts/{mt_id}; issue 13): a terminal of a subordinate
// conference is also published on each superior's channel of that
// cascade, its content the superior's GET of the terminal by its
// cascaded mt_id ("4.1").

// docCascadeUp is the conference document's superior link, kept by
// internal/vc/cascade_link.go: {conf_id, mt_id of the link}.
const docCascadeUp = "cascade_up"

// cascadeView is where a superior sees a subordinate's terminal.
type cascadeView struct {
	confID    string // the superior
	cascadeID string // the subordinate's cascade_id there ("4", "4.2")
}

// superiors lists, nearest first, the superiors of conference confID
// with the cascade_id each gives it, reading conferences with get.
func superiors(ctx context.Context, get func(ctx context.Context, kind, domain, id string) (store.Record, error), domain, confID string) ([]cascadeView, error) {
	var out []cascadeView
	path := ""
	for depth := 0; depth < 16; depth++ {
		rec, err := get(ctx, record.KindConf, domain, confID)
		if errors.Is(err, store.ErrNotFound) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		doc, err := decodeDoc(rec.Data)
		if err != nil {
			return out, err
		}
		up := doc.object(docCascadeUp)
		sup, _ := up.str("conf_id")
		link, _ := up.str("mt_id")
		if sup == "" || link == "" {
			return out, nil
		}
		if path == "" {
			path = link
		} else {
			path = link + "." + path
		}
		out = append(out, cascadeView{confID: sup, cascadeID: path})
		confID = sup
	}
	return out, nil
}

// cascadeTerminal publishes a subordinate's terminal change on its
// superiors' cascade channels.
func (t *tailer) cascadeTerminal(ctx context.Context, domain, confID, mtID string, deleted bool) error {
	views, err := t.superiorsOf(ctx, domain, confID)
	for _, v := range views {
		ch := domainBase(domain) + "/confs/" + v.confID + "/cascades/" + v.cascadeID + "/mts/" + mtID
		if deleted {
			t.publishDelete(ch)
			continue
		}
		t.publishUpdate(ctx, ch, domain, source{endpoint: endpointMT,
			params: map[string]string{"conf_id": v.confID, "mt_id": v.cascadeID + "." + mtID}}, true)
	}
	return err
}

// superiorsOf is superiors, found once per step of the tailer for each
// conference: a batch of ten terminals is twenty terminal events, which
// decoded the conference twenty times (and, without the step's read of
// stepread.go, read it twenty times; docs/benchmarks.md "Batch additions
// on PostgreSQL"). Every read of a step comes after the step read its
// events, so a kept answer is as new as each of them needs.
func (t *tailer) superiorsOf(ctx context.Context, domain, confID string) ([]cascadeView, error) {
	key := confKey(domain, confID)
	if v, ok := t.sups[key]; ok {
		return v, nil
	}
	v, err := superiors(ctx, t.record, domain, confID)
	if err == nil {
		if t.sups == nil {
			t.sups = map[string][]cascadeView{}
		}
		t.sups[key] = v
	}
	return v, err
}
