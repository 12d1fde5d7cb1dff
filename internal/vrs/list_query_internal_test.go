package vrs

import (
	"net/url"
	"testing"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/model"
	"github.com/confer-platform/confer/internal/paging"
	"github.com/confer-platform/confer/internal/wire"
)

// The lists decode the query as queryInt and paging.ReadPage read it: a
// form body (which a GET may carry, and validation does not check for a
// query-style endpoint) is not read, and an integer padded with spaces
// is absent; a padded string is kept as sent.
func TestListQueryReadsTheQueryAsBefore(t *testing.T) {
	ep, ok := catalog.Lookup("vrs.program.list")
	if !ok {
		t.Fatal("vrs.program.list is not in the catalogue")
	}
	r := &api.Request{Endpoint: ep, Args: &wire.Args{
		Query: url.Values{"folderid": {"1"}, "prgs1page": {" 5"}, "pageid": {"2"}, "includename": {" a "}},
		Form:  url.Values{"pageid": {"7"}, "orderindex": {"x"}},
	}}
	var q model.VRSProgramListRequest
	if err := q.Decode(listQuery(r)); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if q.Folderid != 1 || q.Prgs1page.Set || q.Pageid != model.Some(2) || q.Orderindex.Set || q.Includename != model.Some(" a ") {
		t.Fatalf("decoded %+v", q)
	}
	if got := page(q.Prgs1page, q.Pageid); got != (paging.Page{Size: 20, ID: 2}) {
		t.Fatalf("page %+v", got)
	}
	if got := r.Args.Query.Get("prgs1page"); got != " 5" {
		t.Fatalf("the request's query changed: prgs1page %q", got)
	}
}
