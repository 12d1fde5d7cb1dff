package mc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// Limits of reference 04 (create personal template; create public
// template).
const (
	tplNameMax     = 64 // bytes
	tplPasswordMax = 32 // bytes
	// tplNameForbidden may not appear in a template name; tplNameEdge may
	// not be its first or last character.
	tplNameForbidden = "%&*^~'\"?/\\<>|`$"
	tplNameEdge      = "_-.@"
)

// tplSent returns the parameters of the request that the endpoint's schema
// names, nested objects reduced to their schema's fields, so that the
// stored document holds the newest model and nothing else.
func tplSent(r *api.Request) map[string]any {
	out := map[string]any{}
	for _, p := range r.Endpoint.Params {
		if v, ok := r.Args.Params[p.Name]; ok && v != nil {
			out[p.Name] = tplPrune(v, p)
		}
	}
	return out
}

func tplPrune(v any, p catalog.Param) any {
	switch p.Kind {
	case catalog.Object:
		m, ok := v.(map[string]any)
		if !ok || len(p.Fields) == 0 {
			return v
		}
		out := map[string]any{}
		for _, f := range p.Fields {
			if fv, ok := m[f.Name]; ok && fv != nil {
				out[f.Name] = tplPrune(fv, f)
			}
		}
		return out
	case catalog.Array:
		arr, ok := v.([]any)
		if !ok || p.Elem != catalog.Object || len(p.Fields) == 0 {
			return v
		}
		el := catalog.Param{Kind: catalog.Object, Fields: p.Fields}
		out := make([]any, len(arr))
		for i, x := range arr {
			out[i] = tplPrune(x, el)
		}
		return out
	}
	return v
}

// check validates what the schema cannot express (reference 04, create and
// modify template): the name's characters and length, the password's and
// the AES key's, and the participants' call bitrate, which defaults to the
// conference bitrate and may not exceed it. doc is the template after the
// change, sent what the request carries; only sent values are checked.
func (sc tplScope) check(doc, sent map[string]any) error {
	if v, ok := sent["name"]; ok {
		if err := tplCheckName(fmt.Sprint(v)); err != nil {
			return err
		}
	}
	if v, ok := sent["password"].(string); ok {
		if err := tplCheckSecret("password", v, tplPasswordMax); err != nil {
			return err
		}
	}
	if v, ok := sent["encrypted_key"].(string); ok {
		if err := tplCheckSecret("encrypted_key", v, sc.keyMax); err != nil {
			return err
		}
	}
	members, _ := sent["invite_members"].([]any)
	confRate := tplInt(doc["bitrate"])
	for i, x := range members {
		mem, _ := x.(map[string]any)
		if mem == nil {
			continue
		}
		if _, ok := mem["bitrate"]; !ok {
			mem["bitrate"] = confRate
			continue
		}
		if rate := tplInt(mem["bitrate"]); rate > confRate {
			return wire.InvalidParam(fmt.Sprintf("invite_members[%d].bitrate", i),
				fmt.Sprintf("%d exceeds the conference bitrate %d", rate, confRate))
		}
	}
	return nil
}

func tplCheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return wire.InvalidParam("name", "required parameter is missing")
	case len(name) > tplNameMax:
		return wire.InvalidParam("name", fmt.Sprintf("must be at most %d bytes", tplNameMax))
	case strings.ContainsAny(name, tplNameForbidden):
		return wire.InvalidParam("name", "must not contain any of "+tplNameForbidden)
	case strings.ContainsAny(name[:1], tplNameEdge) || strings.ContainsAny(name[len(name)-1:], tplNameEdge):
		return wire.InvalidParam("name", "must not begin or end with any of "+tplNameEdge)
	}
	return nil
}

// tplCheckSecret: letters, digits, _ and . only, at most max bytes.
func tplCheckSecret(field, v string, max int) error {
	if len(v) > max {
		return wire.InvalidParam(field, fmt.Sprintf("must be at most %d bytes", max))
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return wire.InvalidParam(field, "may hold only letters, digits, _ and .")
		}
	}
	return nil
}

// derive fills the server-made fields: resolution (shown by the lists) is
// the main video format's, the first of video_formats; public templates
// cannot set initial silence, which stays 0 (reference 04, create public
// template).
func (sc tplScope) derive(doc map[string]any) {
	delete(doc, "resolution")
	if vf, _ := doc["video_formats"].([]any); len(vf) > 0 {
		if f, _ := vf[0].(map[string]any); f != nil && f["resolution"] != nil {
			doc["resolution"] = f["resolution"]
		}
	}
	if !sc.personal {
		doc["silence"] = 0
	}
}

// tplNameFree answers 20105 when another template of the scope (the
// account's personal templates, the domain's public templates) has the
// name; self is the template being modified.
func (m *Module) tplNameFree(ctx context.Context, r *api.Request, sc tplScope, name any, self string) error {
	recs, err := m.tplAll(ctx, r, sc)
	if err != nil {
		return err
	}
	if taken, err := nameTaken(recs, self, name); err != nil || !taken {
		return err
	}
	return wire.Errorf(CodeTemplateNameExists, "a %s named %q already exists", sc.what, fmt.Sprint(name))
}

// tplBindE164 sets e164 of a personal template (seed 001 5.2.0.4.0:
// templates gain e164 and bind_e164): with bind_e164 1 the template keeps
// its number (old) or gets a new one from the conference number range,
// otherwise it has none.
func (m *Module) tplBindE164(ctx context.Context, sc tplScope, doc map[string]any, old string) error {
	if !sc.personal {
		return nil
	}
	if !tplFlag(doc["bind_e164"]) {
		doc["e164"] = ""
		return nil
	}
	if old != "" {
		doc["e164"] = old
		return nil
	}
	cfg := m.confs.Config()
	n, err := m.st.NextNumber(ctx, "conf", cfg.NumberMin, cfg.NumberMax)
	if err != nil {
		return err
	}
	doc["e164"] = strconv.FormatInt(n, 10)
	return nil
}

// insertNumbered stores rec under the next free number of counter in
// [min, max], its data the document encode writes with that number as its
// id; numbers still taken after the counter wrapped around are skipped. It
// answers 20103 when no number is free.
func (m *Module) insertNumbered(ctx context.Context, rec store.Record, encode func(id string) ([]byte, error), counter string, min, max int64) (string, error) {
	for try := 0; try < 100; try++ {
		n, err := m.st.NextNumber(ctx, counter, min, max)
		if err != nil {
			return "", err
		}
		rec.ID = strconv.FormatInt(n, 10)
		if rec.Data, err = encode(rec.ID); err != nil {
			return "", err
		}
		err = m.st.CreateRecord(ctx, rec)
		if errors.Is(err, store.ErrDuplicate) {
			continue
		}
		if err != nil {
			return "", err
		}
		return rec.ID, nil
	}
	return "", wire.Errorf(CodeNoTemplateSpace, "no free identifier is left for a new %s", strings.ReplaceAll(rec.Kind, "_", " "))
}

// tplFlag tells whether a stored or sent 0/1 value is 1.
func tplFlag(v any) bool { return fmt.Sprint(v) == "1" }

// tplInt reads a stored or sent integer; 0 when absent or not one.
func tplInt(v any) int64 {
	n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64)
	return n
}
