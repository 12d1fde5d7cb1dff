package mc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/model"
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

// check validates what the schema cannot express (reference 04, create and
// modify template): the name's characters and length, the password's and
// the AES key's, when sent. (The participants' call bitrate is checked by
// personalDoc.apply.)
func (sc tplScope) check(name string, password, key model.Opt[string]) error {
	if err := tplCheckName(name); err != nil {
		return err
	}
	if v, ok := password.Get(); ok {
		if err := tplCheckSecret("password", v, tplPasswordMax); err != nil {
			return err
		}
	}
	if v, ok := key.Get(); ok {
		if err := tplCheckSecret("encrypted_key", v, sc.keyMax); err != nil {
			return err
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
func (m *Module) tplBindE164(ctx context.Context, d tplDoc, old string) error {
	pd, ok := d.(*personalDoc)
	if !ok {
		return nil
	}
	if pd.BindE164 != 1 {
		pd.E164 = ""
		return nil
	}
	if old != "" {
		pd.E164 = old
		return nil
	}
	cfg := m.confs.Config()
	n, err := m.st.NextNumber(ctx, "conf", cfg.NumberMin, cfg.NumberMax)
	if err != nil {
		return err
	}
	pd.E164 = strconv.FormatInt(n, 10)
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
