package vc

import (
	"context"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testdb"
)

// The lock that serialises adding terminals belongs to a module, thus to
// one server: two servers in one process (the multi-node tests) do not
// wait for each other, as two nodes do not.
func TestMtAddLockPerModule(t *testing.T) {
	st, err := sqlstore.Open(context.Background(), testdb.SQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clk := clock.NewFake(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	node := func() *Module {
		var m *Module
		engine.New(st, clk, engine.Config{}, nil, nil, func(e *engine.Engine) engine.Features {
			m = New(st, clk, e.Conferences(), e)
			return m.Features()
		})
		return m
	}
	a, b := node(), node()
	a.mtAddMu.Lock()
	defer a.mtAddMu.Unlock()
	if !b.mtAddMu.TryLock() {
		t.Fatal("a second server's module waits for the first's lock on adding terminals")
	}
	b.mtAddMu.Unlock()
}
