package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confer-platform/confer/internal/auth"
	"github.com/confer-platform/confer/internal/clock"
	"github.com/confer-platform/confer/internal/engine"
	"github.com/confer-platform/confer/internal/record"
	"github.com/confer-platform/confer/internal/shape"
	"github.com/confer-platform/confer/internal/store"
	"github.com/confer-platform/confer/internal/store/sqlstore"
	"github.com/confer-platform/confer/internal/testserver"
)

// conferd conference pending|approve|reject acts on conferences held for
// approval as the amc endpoints do.
func TestConferenceApproveCommand(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "c.db")
	st, err := sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	bob, err := auth.CreateAccount(ctx, st, "default", "bob", "pw", false, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.SetApproval(ctx, st, bob.DomainMoid, engine.Approval{Video: 1}, now); err != nil {
		t.Fatal(err)
	}
	svc := testserver.EngineNode(st, clock.Real{}, engine.Config{}).Conferences()
	hold := func(name string) string {
		// A mix set at creation starts when the conference starts
		// (internal/vc/create_features.go), approved here or through amc.
		mix := map[string]any{"mode": 1, "members": []any{map[string]any{"account": "10.1.1.1", "account_type": 7}}}
		c, err := svc.CreateOrHold(ctx, engine.Spec{DomainMoid: bob.DomainMoid, OwnerMoid: bob.Moid,
			Doc: specDoc(map[string]any{"name": name, "max_join_mt": 8, "user_domain_name": "default", "creator": map[string]any{"name": "bob"}, "mix": mix})})
		if err != nil || c.Rec.State != engine.StatePending {
			t.Fatalf("CreateOrHold: %+v %v", c.Rec, err)
		}
		return c.ID()
	}
	a, b := hold("first"), hold("second")
	st.Close()

	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := conferenceCmd(ctx, args, &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, _ := run("pending", "--db", db)
	if code != 0 || !strings.Contains(out, a+"\tdefault\t\"first\"\tby bob") || !strings.Contains(out, b) {
		t.Fatalf("pending = %d %q", code, out)
	}
	if code, out, _ = run("approve", "--db", db, "--conf-id", a); code != 0 || out != "conference "+a+" approved: running\n" {
		t.Fatalf("approve = %d %q", code, out)
	}
	if code, _, errs := run("approve", "--db", db, "--conf-id", a); code != 1 || !strings.Contains(errs, "no pending conference") {
		t.Fatalf("approve again = %d %q", code, errs)
	}
	// The platform is full (one conference at most): refused, still pending.
	if code, _, errs := run("approve", "--db", db, "--conf-id", b, "--max-confs", "1"); code != 1 || !strings.Contains(errs, "(27505)") {
		t.Fatalf("approve when full = %d %q", code, errs)
	}
	if code, out, _ = run("reject", "--db", db, "--conf-id", b); code != 0 || out != "conference "+b+" rejected\n" {
		t.Fatalf("reject = %d %q", code, out)
	}
	if code, out, _ = run("pending", "--db", db); code != 0 || out != "" {
		t.Fatalf("pending after = %d %q", code, out)
	}
	if code, _, _ := run("approve", "--db", db); code != exitUsage {
		t.Fatalf("approve without --conf-id = %d", code)
	}
	if code, _, _ := run("frobnicate", "--db", db); code != exitUsage {
		t.Fatalf("unknown subcommand = %d", code)
	}

	st, err = sqlstore.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.GetRecord(ctx, record.KindConf, bob.DomainMoid, a)
	if err != nil || rec.State != engine.StateRunning {
		t.Fatalf("approved conference: %+v %v", rec, err)
	}
	doc, err := shape.Decode(rec.Data)
	if err != nil || record.Int(doc, "mix_enable") != 1 || doc[engine.DocStartPending] != nil {
		t.Fatalf("approved conference: mix_enable %v, start pending %v (%v); want the mix running, the start done", doc["mix_enable"], doc[engine.DocStartPending], err)
	}
	if _, err := st.GetRecord(ctx, record.KindConf, bob.DomainMoid, b); err != store.ErrNotFound {
		t.Fatalf("rejected conference: %v", err)
	}
}
