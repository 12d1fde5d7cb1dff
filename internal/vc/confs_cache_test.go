package vc

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/api"
	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/catalog"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/compat"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/release"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
	"github.com/confer-platform/confer/internal/wire"
)

// The list paged in SQL and encoded from the per-conference cache is the
// same bytes as the list read, decoded and sorted whole, then reshaped and
// encoded as an envelope: for every release, page and owner filter, with
// start times in two UTC offsets, a booked conference that started after
// later creations, names that encoding/json escapes, and after changes.
func TestListBytesMatchWholeList(t *testing.T) {
	testdb.Engines(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.FixedZone("CST", 8*3600)))
		var m *Module
		confs := engine.New(st, clk, engine.Config{}, nil, nil, func(e *engine.Engine) engine.Features {
			m = New(st, clk, e.Conferences(), e)
			return m.Features()
		}).Conferences()
		const dom = "dom-1"
		create := func(name, owner string, start time.Time) string {
			c, err := confs.Create(ctx, engine.Spec{DomainMoid: dom, OwnerMoid: owner, Start: start,
				Doc: specDoc(map[string]any{"name": name, "max_join_mt": 8, "duration": 0, "bitrate": 1024})})
			if err != nil {
				t.Fatal(err)
			}
			return c.ID()
		}
		booked := create("booked <later> & \u2028", "acc-b", clk.Now().Add(10*time.Second))
		for i := 0; i < 4; i++ {
			create(fmt.Sprintf("cst %d <&>", i), []string{"acc-a", "acc-b"}[i%2], time.Time{})
		}
		clk.Set(clk.Now().In(time.UTC).Add(-2 * time.Second)) // earlier instant, written with +00:00
		for i := 0; i < 3; i++ {
			create(fmt.Sprintf("utc %d 会议", i), "acc-a", time.Time{})
		}
		clk.Advance(20 * time.Second)
		if err := confs.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := confs.Get(ctx, dom, booked, engine.StateRunning); err != nil {
			t.Fatalf("booked conference did not start: %v", err)
		}
		ep, _ := catalog.Lookup("vc.confs.list")
		lc := newListCache(4) // small: eviction happens too
		check := func(round string) {
			for eff := range release.All {
				for _, q := range []string{"", "count=0", "count=3", "start=2&count=3", "start=7", "start=-1&count=2",
					"start=100", "own_conf=1", "own_conf=1&start=1&count=2", "own_conf=0&count=20"} {
					vals, _ := url.ParseQuery(q)
					req := func() *api.Request {
						return &api.Request{Endpoint: ep, Args: &wire.Args{Query: vals}, Effective: release.Release(eff),
							Principal: &auth.Principal{AccountMoid: "acc-a", DomainMoid: dom}}
					}
					r := req()
					if err := m.listConfs(ctx, r, lc); err != nil {
						t.Fatal(err)
					}
					again := req() // the kept body, when nothing changed
					if err := m.listConfs(ctx, again, lc); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(again.Raw.([]byte), r.Raw.([]byte)) {
						t.Fatalf("%s, release %s, %q: the second list differs:\n%s\n%s", round, release.Release(eff), q, again.Raw, r.Raw)
					}
					r2 := req()
					obj, err := m.listConfsObject(ctx, r2)
					if err != nil {
						t.Fatal(err)
					}
					compat.Reply(ep.Name, r2.Effective, obj, nil)
					want, err := wire.MarshalObject(wire.Success(obj))
					if err != nil {
						t.Fatal(err)
					}
					if got := r.Raw.([]byte); !bytes.Equal(got, want) {
						t.Fatalf("%s, release %s, %q:\n got %s\nwant %s", round, release.Release(eff), q, got, want)
					}
				}
			}
		}
		check("first")
		c, err := confs.Get(ctx, dom, booked)
		if err != nil {
			t.Fatal(err)
		}
		c.SetName("renamed")
		if err := confs.Update(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := confs.End(ctx, dom, create("late", "acc-a", time.Time{})); err != nil {
			t.Fatal(err)
		}
		check("after a change")
	})
}

// listConfsObject is the list reply as an object, every conference read
// and decoded: the reference that the encoded reply of listConfs matches
// byte for byte (confs_cache_test.go).
func (m *Module) listConfsObject(ctx context.Context, r *api.Request) (wire.Object, error) {
	owner, start, count, err := listArgs(r)
	if err != nil {
		return nil, err
	}
	confs, err := m.confs.List(ctx, r.Principal.DomainMoid, owner, engine.StateRunning)
	if err != nil {
		return nil, err
	}
	total := len(confs)
	confs = confs[min(max(start, 0), total):]
	if count > 0 && count < len(confs) {
		confs = confs[:count]
	}
	fields := shape.Elem(r.Endpoint.Reply, "confs")
	out := make([]any, len(confs))
	for i, c := range confs {
		out[i] = shape.Project(c.Document(), fields)
	}
	return wire.Object{"total": total, "confs": out}, nil
}
