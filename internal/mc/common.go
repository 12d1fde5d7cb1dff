package mc

import (
	"context"
	"errors"
	"fmt"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/wire"
)

// listPage reads the list parameters of reference 04: start (default 0),
// count (default 10; 0 returns everything, paging.Offsets) and order (0
// ascending, 1 descending by last modification).
func listPage(r *api.Request) (w paging.Window, desc bool) {
	return paging.Read(r.Args.Query, paging.Offsets), r.Args.Query.Get("order") == "1"
}

// loadRecord reads a record of the caller's domain. A record of
// another domain, or of another account when owned is set, is "not found"
// with the given code (DESIGN principle 6): nobody learns it exists.
func (m *Module) loadRecord(ctx context.Context, r *api.Request, kind, id string, owned bool, code int, what string) (store.Record, error) {
	rec, err := m.st.GetRecord(ctx, kind, r.Principal.DomainMoid, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && owned && rec.OwnerMoid != r.Principal.AccountMoid) {
		return rec, wire.Errorf(code, "%s %s does not exist", what, id)
	}
	return rec, err
}

// listRecords pages through records of a kind of the caller's domain
// (and account, when owned) and returns them with the total.
func (m *Module) listRecords(ctx context.Context, r *api.Request, kind string, owned bool) ([]store.Record, int, error) {
	w, desc := listPage(r)
	q := store.RecordQuery{Kind: kind, DomainMoid: r.Principal.DomainMoid, Desc: desc, Start: w.Start, Count: w.Count}
	if owned {
		q.OwnerMoid = r.Principal.AccountMoid
	}
	return m.st.ListRecords(ctx, q)
}

// adminOnly answers 20005 unless the caller administers its user domain:
// domain-wide objects (public templates, virtual rooms, areas) are
// changed by administrators only.
func adminOnly(r *api.Request, what string) error {
	if r.Principal.Admin {
		return nil
	}
	return wire.Errorf(wire.CodeNoPermission, "only an administrator of the user domain may change %s", what)
}

// nameTaken tells whether a record other than self has the name.
func nameTaken(recs []store.Record, self string, name any) (bool, error) {
	for _, rec := range recs {
		if rec.ID == self {
			continue
		}
		d, err := shape.Decode(rec.Data)
		if err != nil {
			return false, err
		}
		if fmt.Sprint(d["name"]) == fmt.Sprint(name) {
			return true, nil
		}
	}
	return false, nil
}
