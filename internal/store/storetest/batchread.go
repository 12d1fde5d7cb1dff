package storetest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/confer-platform/confer/internal/store"
)

// testBatchRead checks store.BatchReader (stores without it skip): the
// records that exist, each as GetRecord reads it, and nothing for the
// others, whatever the number of references.
func testBatchRead(t *testing.T, st store.Store) {
	br, ok := st.(store.BatchReader)
	if !ok {
		t.Skip("the store has no BatchReader")
	}
	got, err := br.GetRecords(ctx, nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("GetRecords(none) = %v, %v; want nothing", got, err)
	}
	conf := store.Record{Kind: "conf", ID: "7", DomainMoid: "d1", OwnerMoid: "a1", State: "running",
		Data: []byte(`{"speaker":""}`), CreatedAt: t0, UpdatedAt: t0, DueAt: t0.Add(3600e9)}
	must(t, st.CreateRecord(ctx, conf))
	must(t, st.CreateRecord(ctx, batchRec("7/1", "d1", "7", "online")))
	must(t, st.CreateRecord(ctx, batchRec("7/2", "d2", "7", "idle")))
	created, err := st.GetRecord(ctx, "conf", "d1", "7")
	must(t, err)
	conf.Data, conf.State = []byte(`{"speaker":"1"}`), "running"
	must(t, st.UpdateRecord(ctx, conf, ""))

	ref := func(kind, domain, id string) store.RecordRef {
		return store.RecordRef{Kind: kind, DomainMoid: domain, ID: id}
	}
	refs := []store.RecordRef{
		ref("conf", "d1", "7"), ref("mt", "d1", "7/1"), ref("mt", "d2", "7/2"),
		ref("conf", "d1", "7"),   // twice
		ref("mt", "d1", "7/2"),   // another domain's
		ref("conf", "d1", "7/1"), // another kind's id
		ref("conf", "d1", "8"),   // none
	}
	got, err = br.GetRecords(ctx, refs)
	must(t, err)
	if len(got) != 3 {
		t.Fatalf("GetRecords = %d records %v, want 3", len(got), got)
	}
	for _, r := range refs[:3] {
		want, err := st.GetRecord(ctx, r.Kind, r.DomainMoid, r.ID)
		must(t, err)
		if !reflect.DeepEqual(got[r], want) {
			t.Errorf("GetRecords[%v] = %+v, want %+v as GetRecord reads it", r, got[r], want)
		}
	}
	if string(got[refs[0]].Data) != `{"speaker":"1"}` || got[refs[0]].Version != created.Version+1 {
		t.Errorf("GetRecords of the updated conference = %s version %d, want its update", got[refs[0]].Data, got[refs[0]].Version)
	}

	// More references than one statement takes, half of them missing.
	refs = refs[:0]
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("9/%d", i)
		must(t, st.CreateRecord(ctx, batchRec(id, "d1", "9", "online")))
		refs = append(refs, ref("mt", "d1", id), ref("mt", "d1", fmt.Sprintf("10/%d", i)))
	}
	got, err = br.GetRecords(ctx, refs[:599])
	must(t, err)
	if len(got) != 300 {
		t.Fatalf("GetRecords of 599 references = %d records, want 300", len(got))
	}
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("9/%d", i)
		if r, ok := got[ref("mt", "d1", id)]; !ok || r.ID != id || string(r.Data) != `{"id":"`+id+`"}` {
			t.Fatalf("GetRecords[%s] = %+v, %v", id, r, ok)
		}
	}
}
